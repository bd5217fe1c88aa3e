/// A day's stops reduced to numbers: the distances between them, travel and service times,
/// windows and the minute the day starts. Stops are numbered 0..<count in start-time order, so
/// the start-time order is `Array(0..<count)`.
///
/// Distances are whole metres (the geodesic rounded, as the response shows them) so that route
/// lengths compare exactly; travel minutes use the unrounded metres.
public struct RouteProblem: Sendable {
    public let count: Int
    public let hasStart: Bool
    public let startMinute: Double
    /// Matrix side: the stops, then the start point (`count`) and the day's end (`count + 1`).
    let side: Int
    /// Rounded metres, row-major `side × side`. Row `count` holds the legs from the start point
    /// (all 0 without one); column `count + 1` is 0 (the day ends at the last stop).
    let meters: [Int]
    /// Travel minutes, same layout.
    let minutes: [Double]
    let service: [Double]
    /// Window start and end in minutes of the day; -∞ / +∞ for a stop without a window.
    let opens: [Double]
    let closes: [Double]
    public let hasWindows: Bool

    /// The largest leg kept, in metres (far beyond any distance on Earth): keeps sums exact.
    static let maxLegMeters = 1.0e9

    /// - Parameters:
    ///   - distance: metres between two stops (`i < j`), or from the start point when the first
    ///     argument is nil. Called once per pair; the matrix is symmetric by construction.
    ///   - minutesPerMeter: travel minutes per metre (detour and speed folded in).
    public init(stops: [RouteStop], hasStart: Bool, startMinute: Int, minutesPerMeter: Double,
                distance: (Int?, Int) -> Double) {
        let n = stops.count
        let side = n + 2
        count = n
        self.hasStart = hasStart
        self.startMinute = Double(startMinute)
        self.side = side
        var meters = [Int](repeating: 0, count: side * side)
        var minutes = [Double](repeating: 0, count: side * side)
        let perMeter = minutesPerMeter.isFinite && minutesPerMeter >= 0 ? minutesPerMeter : Double.infinity
        func store(_ i: Int, _ j: Int, _ raw: Double) {
            let d = raw.isFinite && raw >= 0 ? min(raw, RouteProblem.maxLegMeters) : RouteProblem.maxLegMeters
            let rounded = Int(d.rounded())
            let travel = d == 0 ? 0 : d * perMeter
            meters[i * side + j] = rounded
            minutes[i * side + j] = travel
        }
        for i in 0..<n {
            for j in (i + 1)..<max(i + 1, n) {
                let d = distance(i, j)
                store(i, j, d)
                store(j, i, d)
            }
            if hasStart { store(n, i, distance(nil, i)) }
        }
        self.meters = meters
        self.minutes = minutes
        service = stops.map { Double(max(0, $0.serviceMinutes)) }
        opens = stops.map { $0.window.map { Double($0.start) } ?? -Double.infinity }
        closes = stops.map { $0.window.map { Double($0.end) } ?? Double.infinity }
        hasWindows = stops.contains { $0.window != nil }
    }

    var startNode: Int { count }
    var endNode: Int { count + 1 }

    @inline(__always) func d(_ a: Int, _ b: Int) -> Int { meters[a * side + b] }
    @inline(__always) func travel(_ a: Int, _ b: Int) -> Double { minutes[a * side + b] }

    /// Whether `order` lists every stop exactly once.
    public func isRoute(_ order: [Int]) -> Bool {
        guard order.count == count else { return false }
        var seen = [Bool](repeating: false, count: count)
        for s in order {
            guard s >= 0, s < count, !seen[s] else { return false }
            seen[s] = true
        }
        return true
    }

    /// Total metres of driving `order` (from the start point when there is one). 0 for a list
    /// that is not a route.
    public func length(_ order: [Int]) -> Int {
        guard isRoute(order) else { return 0 }
        return unsafeLength(order)
    }

    /// `length` for an order already known to be a route.
    func unsafeLength(_ order: [Int]) -> Int {
        var total = 0
        var previous = startNode
        for s in order {
            total += d(previous, s)
            previous = s
        }
        return total
    }

    /// A stop is late when its arrival, rounded to the minute (halves up), is after its window's
    /// end: for a whole-minute end that is an arrival at least half a minute past it.
    @inline(__always) static func isLate(arrival: Double, closes: Double) -> Bool {
        closes.isFinite && arrival >= closes + 0.5
    }

    /// Late stops of driving a route (stops only), counting no further than `limit + 1`.
    func lateCount(_ order: [Int], limit: Int = Int.max) -> Int {
        lateCount(order, range: order.indices, limit: limit)
    }

    /// Late stops of the stops at `range` of `route` (a route with or without its two ends).
    func lateCount(_ route: [Int], range: Range<Int>, limit: Int) -> Int {
        guard hasWindows else { return 0 }
        var late = 0
        var time = startMinute
        var previous = startNode
        for k in range {
            let s = route[k]
            time += travel(previous, s)
            let open = opens[s]
            if time < open { time = open }
            if RouteProblem.isLate(arrival: time, closes: closes[s]) {
                late += 1
                if late > limit { return late }
            }
            time += service[s]
            previous = s
        }
        return late
    }

    /// One stop of a driven route.
    public struct Leg: Sendable, Equatable {
        public var stop: Int
        public var meters: Int
        public var travelMinutes: Double
        /// When the washer could be there: previous departure (or the start) plus travel.
        public var ready: Double
        public var arrival: Double
        public var departure: Double
        public var late: Bool

        public var waitMinutes: Double { arrival - ready }
    }

    /// The times of driving `order`; empty when `order` is not a route.
    public func schedule(_ order: [Int]) -> [Leg] {
        guard isRoute(order) else { return [] }
        var legs: [Leg] = []
        legs.reserveCapacity(count)
        var time = startMinute
        var previous = startNode
        for s in order {
            let travel = travel(previous, s)
            let ready = time + travel
            let arrival = max(ready, opens[s])
            let departure = arrival + service[s]
            legs.append(Leg(stop: s, meters: d(previous, s), travelMinutes: travel, ready: ready,
                            arrival: arrival, departure: departure,
                            late: RouteProblem.isLate(arrival: arrival, closes: closes[s])))
            time = departure
            previous = s
        }
        return legs
    }
}

extension RouteProblem {
    /// The problem of stops at coordinates, with geodesic (WGS84) distances. Coordinates must be
    /// valid degrees; a pair the geodesic cannot measure counts as the longest possible leg.
    public init(stops: [RouteStop], coordinates: [PlanRequest.Point], start: PlanRequest.Point?,
                startMinute: Int, minutesPerMeter: Double) {
        func metres(_ a: PlanRequest.Point, _ b: PlanRequest.Point) -> Double {
            Geodesic.distance(latitude1: a.latitude, longitude1: a.longitude,
                              latitude2: b.latitude, longitude2: b.longitude) ?? RouteProblem.maxLegMeters
        }
        let usable = coordinates.count == stops.count ? stops : []
        self.init(stops: usable, hasStart: start != nil, startMinute: startMinute, minutesPerMeter: minutesPerMeter) { i, j in
            guard j < coordinates.count else { return 0 }
            if let i {
                guard i < coordinates.count else { return 0 }
                return metres(coordinates[i], coordinates[j])
            }
            guard let start else { return 0 }
            return metres(start, coordinates[j])
        }
    }
}
