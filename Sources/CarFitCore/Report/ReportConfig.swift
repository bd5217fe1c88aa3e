/// The config's `report` member: how long the washer's facts are kept, and how many samples a
/// task's title needs before a learned plan uses its median.
public struct ReportConfig: Sendable, Equatable {
    /// Facts are kept this many days after their visit's start (1–3650).
    public var keepDays: Int64 = 90
    /// A learned plan uses a title's median from this many samples on (1–50).
    public var minSamples: Int = 5

    public init() {}
}

/// The config's `reminders` member: how the time to leave for a visit is computed.
public struct RemindersConfig: Sendable, Equatable {
    /// Minutes to arrive early (0–240).
    public var bufferMinutes: Int64 = 5
    /// Driving speed in km/h (more than 0, at most 300).
    public var speedKmh: Double = 30
    /// Roads are this much longer than the geodesic (1–10).
    public var detourFactor: Double = 1.3
    /// The washer's position stands for the next visit's origin when reported no more than this
    /// many seconds before the core's clock (0–86400).
    public var positionMaxAgeSeconds: Int64 = 900

    public init() {}
}
