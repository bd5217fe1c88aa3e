/// One position the host reports (`location.report`): where the washer is, how sure the
/// device is of it, and when.
public struct LocationReport: Sendable, Equatable {
    public var latitude: Double
    public var longitude: Double
    public var accuracyMeters: Double
    public var at: Instant

    /// The largest accuracy radius a report may state, in metres.
    public static let maxAccuracy = 10_000.0

    public init(latitude: Double, longitude: Double, accuracyMeters: Double, at: Instant) {
        self.latitude = latitude
        self.longitude = longitude
        self.accuracyMeters = accuracyMeters
        self.at = at
    }

    /// `{"latitude", "longitude", "accuracyMeters", "at"}`: the three numbers are required and
    /// range-checked, `at` (an ISO 8601 instant with `Z` or an offset) defaults to `now`. Each
    /// refusal is `invalid` with its field.
    public init(_ f: Fields, now: Instant) throws(CarFitError) {
        latitude = try LocationReport.required(f, "latitude", in: -90...90)
        longitude = try LocationReport.required(f, "longitude", in: -180...180)
        accuracyMeters = try LocationReport.required(f, "accuracyMeters", in: 0...LocationReport.maxAccuracy)
        if let text = try f.string("at") {
            guard LocationReport.hasZone(text), let instant = Instant(iso: text) else {
                throw .invalid(f.path("at"), "at must be an ISO 8601 instant with Z or an offset, such as \"2020-09-10T08:05:00Z\".")
            }
            at = instant
        } else {
            at = now
        }
    }

    /// `{"latitude", "longitude", "accuracyMeters", "at"}`, `at` as UTC text.
    public var json: JSON {
        .obj(["latitude": .double(latitude), "longitude": .double(longitude), "accuracyMeters": .double(accuracyMeters),
              "at": .string(OutboxMutation.iso(at))])
    }

    private static func required(_ f: Fields, _ key: String, in range: ClosedRange<Double>) throws(CarFitError) -> Double {
        guard let value = try f.number(key, in: range) else { throw .invalid(f.path(key), "\(f.path(key)) is required.") }
        return value
    }

    /// Whether ISO text ends with a zone: `Z` or a `±HH[:mm]` offset after the time.
    static func hasZone(_ text: String) -> Bool {
        let u = Array(text.utf8)
        guard u.count > 16 else { return false }
        if u.last == UInt8(ascii: "Z") || u.last == UInt8(ascii: "z") { return true }
        return u[16...].contains(UInt8(ascii: "+")) || u[16...].contains(UInt8(ascii: "-"))
    }
}
