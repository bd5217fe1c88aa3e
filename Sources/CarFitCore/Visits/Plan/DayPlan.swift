/// The washer's day plan (`visits.plan`): which of the day's visits to drive to, in which order,
/// and when the washer arrives at and leaves each.
public struct DayPlan: Sendable {
    /// A visit that is driven to, with its schedule.
    public struct Stop: Sendable {
        public var visit: Visit
        public var window: TimeWindow?
        public var leg: RouteProblem.Leg
    }

    public struct Skipped: Sendable, Equatable {
        public var visitId: String?
        public var name: String
        public var reason: String
    }

    public var date: CivilDate
    /// Minute of the local day the washer sets out; nil for a day with no stops and no startTime.
    public var startMinute: Int?
    public var stops: [Stop]
    public var skipped: [Skipped]
    public var distanceMeters: Int
    public var originalDistanceMeters: Int
    public var lateStops: Int
    public var originalLateStops: Int
    /// Whether the order was searched for; days above `maxOptimizedStops` keep the start-time order.
    public var optimized: Bool

    /// Days with more stops keep the start-time order: the distance matrix alone would grow past
    /// what one call should compute.
    public static let maxOptimizedStops = 1000
    /// A plan that would run longer than this many minutes (about 19 years) is refused: it can
    /// only come from an absurdly low speed.
    public static let maxMinutes = 10_000_000.0

    /// Plans the day. `visits` are the day's visits (already of the employee, when one is
    /// asked) in start-time order, ties in snapshot order.
    public init(request: PlanRequest, visits: [Visit], clock: Clock,
                limits: RoutePlanner.Limits = .standard) throws(CarFitError) {
        date = request.date
        var candidates: [Visit] = []
        var coordinates: [PlanRequest.Point] = []
        var skipped: [Skipped] = []
        for visit in visits {
            if let reason = DayPlan.skipReason(visit) {
                skipped.append(Skipped(visitId: visit.visitId, name: visit.name, reason: reason))
            } else if let c = visit.coordinate {
                candidates.append(visit)
                coordinates.append(PlanRequest.Point(latitude: c.latitude, longitude: c.longitude))
            }
        }
        self.skipped = skipped

        let windows = candidates.map { $0.expectedTime.flatMap(TimeWindow.init(expectedTime:)) }
        let start = request.startMinute ?? candidates.first.map { clock.localMinuteOfDay($0.start) }
        startMinute = start

        let routeStops = zip(candidates, windows).map { RouteStop(serviceMinutes: $0.taskMinutes, window: $1) }
        let original = Array(candidates.indices)
        let planned: [RouteProblem.Leg]
        let before: [RouteProblem.Leg]
        if candidates.count <= DayPlan.maxOptimizedStops {
            let problem = RouteProblem(stops: routeStops, coordinates: coordinates,
                                       start: request.start, startMinute: start ?? 0,
                                       minutesPerMeter: request.minutesPerMeter)
            let order = request.keepOrder ? original : RoutePlanner.plan(problem, limits: limits)
            planned = problem.schedule(order)
            before = order == original ? planned : problem.schedule(original)
            optimized = !request.keepOrder
        } else {
            // Only the legs of the start-time order: no matrix, no search.
            before = DayPlan.scheduleInOrder(routeStops, legs: DayPlan.consecutiveLegs(coordinates, start: request.start),
                                             startMinute: start ?? 0, minutesPerMeter: request.minutesPerMeter)
            planned = before
            optimized = false
        }
        guard planned.count == candidates.count, before.count == candidates.count else {
            throw CarFitError(.internal, "The planner lost track of the day's stops.")
        }
        let finish = max(planned.last?.departure ?? 0, before.last?.departure ?? 0)
        guard finish.isFinite, finish <= DayPlan.maxMinutes else {
            throw .invalid("speedKmh", "At \(request.speedKmh) km/h the day would take years to drive; use a realistic speedKmh.")
        }
        stops = planned.compactMap { leg in
            guard leg.stop >= 0, leg.stop < candidates.count else { return nil }
            return Stop(visit: candidates[leg.stop], window: windows[leg.stop], leg: leg)
        }
        distanceMeters = planned.reduce(0) { $0 + $1.meters }
        originalDistanceMeters = before.reduce(0) { $0 + $1.meters }
        lateStops = planned.filter(\.late).count
        originalLateStops = before.filter(\.late).count
    }

    /// Why a visit of the day is not a stop, or nil when it is one (Todo or InProgress, with
    /// both coordinates).
    public static func skipReason(_ visit: Visit) -> String? {
        guard let state = visit.state else { return "no state" }
        switch VisitState(source: state) {
        case .todo, .inProgress: break
        case .done, .rejected, nil: return "state " + (VisitState.display(state) ?? state)
        }
        guard let c = visit.coordinate, c.latitude.isFinite, c.longitude.isFinite,
              abs(c.latitude) <= 90, abs(c.longitude) <= 180 else { return "no coordinates" }
        return nil
    }

    /// Geodesic metres of the start-time order's legs: from the start point (nil without one)
    /// to the first stop, then from each stop to the next.
    static func consecutiveLegs(_ points: [PlanRequest.Point], start: PlanRequest.Point?) -> [Double] {
        var legs: [Double] = []
        legs.reserveCapacity(points.count)
        var previous = start
        for point in points {
            if let previous {
                legs.append(Geodesic.distance(latitude1: previous.latitude, longitude1: previous.longitude,
                                              latitude2: point.latitude, longitude2: point.longitude)
                            ?? RouteProblem.maxLegMeters)
            } else {
                legs.append(0)
            }
            previous = point
        }
        return legs
    }

    /// The schedule of driving `stops` in their order, given the metres of each leg.
    static func scheduleInOrder(_ stops: [RouteStop], legs: [Double], startMinute: Int,
                                minutesPerMeter: Double) -> [RouteProblem.Leg] {
        var out: [RouteProblem.Leg] = []
        out.reserveCapacity(stops.count)
        var time = Double(startMinute)
        for (index, (stop, raw)) in zip(stops, legs).enumerated() {
            let metres = raw.isFinite && raw >= 0 ? min(raw, RouteProblem.maxLegMeters) : RouteProblem.maxLegMeters
            let travel = metres == 0 ? 0 : metres * minutesPerMeter
            let ready = time + travel
            let arrival = max(ready, stop.window.map { Double($0.start) } ?? -Double.infinity)
            let departure = arrival + Double(max(0, stop.serviceMinutes))
            let late = stop.window.map { RouteProblem.isLate(arrival: arrival, closes: Double($0.end)) } ?? false
            out.append(RouteProblem.Leg(stop: index, meters: Int(metres.rounded()), travelMinutes: travel,
                                        ready: ready, arrival: arrival, departure: departure, late: late))
            time = departure
        }
        return out
    }

    /// Whole minutes of a time already checked to be finite and at most `maxMinutes`.
    public static func wholeMinutes(_ minutes: Double) -> Int {
        guard minutes.isFinite else { return 0 }
        return Int(min(max(minutes, 0), maxMinutes).rounded())
    }
}

extension DayPlan.Stop {
    public var arrivalMinute: Int { DayPlan.wholeMinutes(leg.arrival) }
    public var departureMinute: Int { DayPlan.wholeMinutes(leg.departure) }
    public var waitMinutes: Int { DayPlan.wholeMinutes(leg.waitMinutes) }
    /// Minutes after the window's end of the rounded arrival; 0 when on time.
    public var lateMinutes: Int {
        guard leg.late, let window else { return 0 }
        return max(0, arrivalMinute - window.end)
    }
}
