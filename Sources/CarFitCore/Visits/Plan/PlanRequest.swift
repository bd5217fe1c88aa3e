/// What a day plan is asked for (`visits.plan`): the day, whose visits, where and when the washer
/// sets out, and how fast the roads are driven. The request document is read into it by the API.
public struct PlanRequest: Sendable, Equatable {
    public struct Point: Sendable, Equatable {
        public var latitude: Double
        public var longitude: Double

        public init(latitude: Double, longitude: Double) {
            self.latitude = latitude
            self.longitude = longitude
        }
    }

    public var date: CivilDate
    public var employeeId: String?
    /// Where the washer sets out; nil means no start point (the first stop's travel is 0).
    public var start: Point?
    /// Minute of the local day the washer sets out; nil means the earliest start of the stops.
    public var startMinute: Int?
    public var speedKmh: Double
    public var detourFactor: Double
    /// Keep the stops in start-time order and only compute their times (live estimates).
    public var keepOrder = false
    /// Where a stop's service minutes come from.
    public var durations = Durations.planned

    /// A stop's service minutes: its planned taskMinutes, or the durations learned from the
    /// washer's finished visits (`TaskDurations.serviceMinutes`).
    public enum Durations: String, Sendable, Equatable {
        case planned, learned
    }

    public static let defaultSpeedKmh = 30.0
    public static let defaultDetourFactor = 1.3

    public init(date: CivilDate, employeeId: String? = nil, start: Point? = nil, startMinute: Int? = nil,
                speedKmh: Double = PlanRequest.defaultSpeedKmh,
                detourFactor: Double = PlanRequest.defaultDetourFactor) {
        self.date = date
        self.employeeId = employeeId
        self.start = start
        self.startMinute = startMinute
        self.speedKmh = speedKmh
        self.detourFactor = detourFactor
    }

    /// Travel minutes per geodesic metre: metres × detourFactor / (speedKmh × 1000 / 60).
    public var minutesPerMeter: Double { detourFactor / (speedKmh * 1000 / 60) }
}
