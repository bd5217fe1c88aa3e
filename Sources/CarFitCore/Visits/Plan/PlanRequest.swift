/// A `visits.plan` request, validated member by member; each refusal names its field.
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

    public static let defaultSpeedKmh = 30.0
    public static let defaultDetourFactor = 1.3
    public static let maxSpeedKmh = 300.0
    public static let detourRange = 1.0...10.0

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

    /// `{"date", "employeeId", "start": {"latitude", "longitude"}, "startTime", "speedKmh",
    /// "detourFactor"}`; only `date` is required.
    public init(_ f: Fields) throws(CarFitError) {
        let dateText = try f.requiredString("date")
        guard let date = CivilDate(iso: dateText) else {
            throw .invalid(f.path("date"), "date \"\(dateText.prefix(40))\" is not a valid day (YYYY-MM-DD, years 1 to 9999).")
        }
        self.date = date
        employeeId = try f.string("employeeId")

        if let s = try f.object("start") {
            start = Point(latitude: try PlanRequest.requiredNumber(s, "latitude", in: -90...90),
                          longitude: try PlanRequest.requiredNumber(s, "longitude", in: -180...180))
        } else {
            start = nil
        }

        if let text = try f.string("startTime") {
            guard let minute = TimeOfDay.minutes(text) else {
                throw .invalid(f.path("startTime"), "startTime \"\(text.prefix(40))\" is not a time of day from \"00:00\" to \"23:59\" (HH:mm).")
            }
            startMinute = minute
        } else {
            startMinute = nil
        }

        let speed = try f.number("speedKmh", in: -Double.greatestFiniteMagnitude...Double.greatestFiniteMagnitude)
        if let speed, !(speed > 0 && speed <= PlanRequest.maxSpeedKmh) {
            throw .invalid(f.path("speedKmh"), "speedKmh must be more than 0 and at most 300 (km/h).")
        }
        speedKmh = speed ?? PlanRequest.defaultSpeedKmh

        let detour = try f.number("detourFactor", in: -Double.greatestFiniteMagnitude...Double.greatestFiniteMagnitude)
        if let detour, !PlanRequest.detourRange.contains(detour) {
            throw .invalid(f.path("detourFactor"), "detourFactor must be between 1 and 10.")
        }
        detourFactor = detour ?? PlanRequest.defaultDetourFactor
        keepOrder = try f.bool("keepOrder") ?? false
    }

    private static func requiredNumber(_ f: Fields, _ key: String, in range: ClosedRange<Double>) throws(CarFitError) -> Double {
        guard let value = try f.number(key, in: range) else {
            throw .invalid(f.path(key), "\(f.path(key)) is required when start is given.")
        }
        return value
    }

    /// Travel minutes per geodesic metre: metres × detourFactor / (speedKmh × 1000 / 60).
    public var minutesPerMeter: Double { detourFactor / (speedKmh * 1000 / 60) }
}
