/// Counts and sums over one day's cards (or several days'); `distanceKm` is metres / 1000 rounded
/// to one decimal. Also the rules a card's distance and the kilometres follow.
public struct DaySummary: Sendable, Equatable {
    public var visits = 0
    public var taskMinutes = 0
    public var distanceMeters = 0

    public init(visits: Int = 0, taskMinutes: Int = 0, distanceMeters: Int = 0) {
        self.visits = visits
        self.taskMinutes = taskMinutes
        self.distanceMeters = distanceMeters
    }

    /// Counts one more card. Sums saturate instead of trapping: imports bound each visit's
    /// minutes, but a database file written by other software could hold anything.
    public mutating func add(taskMinutes: Int, distanceMeters: Int?) {
        visits = DaySummary.sum(visits, 1)
        self.taskMinutes = DaySummary.sum(self.taskMinutes, taskMinutes)
        self.distanceMeters = DaySummary.sum(self.distanceMeters, distanceMeters ?? 0)
    }

    public static func + (a: DaySummary, b: DaySummary) -> DaySummary {
        DaySummary(visits: sum(a.visits, b.visits), taskMinutes: sum(a.taskMinutes, b.taskMinutes),
                distanceMeters: sum(a.distanceMeters, b.distanceMeters))
    }

    static func sum(_ a: Int, _ b: Int) -> Int {
        let (s, overflow) = a.addingReportingOverflow(b)
        guard overflow else { return s }
        return b > 0 ? Int.max : Int.min
    }

    /// A card's distance: geodesic metres from the previous card's position, rounded; nil for
    /// the first card or when either end has no position.
    public static func legMeters(from a: (latitude: Double, longitude: Double)?,
                                 to b: (latitude: Double, longitude: Double)?) -> Int? {
        guard let a, let b else { return nil }
        return Geodesic.roundedDistance(latitude1: a.latitude, longitude1: a.longitude,
                                        latitude2: b.latitude, longitude2: b.longitude)
    }

    /// `legMeters` between positions whose coordinates were prepared once (`Geodesic.Point`,
    /// nil where a position is missing or invalid): the same metres.
    public static func legMeters(from a: Geodesic.Point?, to b: Geodesic.Point?) -> Int? {
        guard let a, let b else { return nil }
        return Geodesic.roundedDistance(a, b)
    }

    /// Whole metres to kilometres with one decimal, rounding halves up (978 → 1.0, 3550 → 3.6).
    public static func kilometres(_ meters: Int) -> Double {
        Double(tenthsOfKilometre(meters)) / 10
    }

    /// `kilometres` in whole tenths of a kilometre (978 → 10, 3550 → 36).
    public static func tenthsOfKilometre(_ meters: Int) -> Int {
        let whole = meters / 100, rest = meters % 100
        return rest >= 50 ? whole + 1 : rest <= -50 ? whole - 1 : whole
    }
}
