/// The config's `road` member (read with the config document): how positions are counted, when the washer has arrived at a
/// visit and left it, and how long the trail of positions is kept once pushed.
public struct RoadConfig: Sendable, Equatable {
    /// A visit is reached within this many metres (geodesic) of its coordinates; left beyond twice it.
    public var arrivalRadiusMeters: Double = 75
    /// Reports within the radius must span at least this many seconds for an arrival.
    public var dwellSeconds: Int64 = 60
    /// Reports less accurate than this (metres) are answered and otherwise ignored.
    public var maxAccuracyMeters: Double = 100
    /// A report is stored when at least this far (geodesic metres) from the last stored point…
    public var minDistanceMeters: Double = 20
    /// …or at least this many seconds after it.
    public var minIntervalSeconds: Int64 = 300
    /// An arrival also starts the visit (Todo -> InProgress, with its outbox entry).
    public var autoStart = false
    /// Pushed points older than this many days are removed by the next push.
    public var trailDays: Int64 = 7

    /// The defaults.
    public init() {}

    /// Whether a report of this accuracy counts (enters the trail, moves the position, decides
    /// arrivals and departures).
    public func counts(accuracyMeters: Double) -> Bool { accuracyMeters <= maxAccuracyMeters }
}
