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

    /// Whether ISO text ends with a zone: `Z` or a `±HH[:mm]` offset after the time.
    public static func hasZone(_ text: String) -> Bool {
        let u = Array(text.utf8)
        guard u.count > 16 else { return false }
        if u.last == UInt8(ascii: "Z") || u.last == UInt8(ascii: "z") { return true }
        return u[16...].contains(UInt8(ascii: "+")) || u[16...].contains(UInt8(ascii: "-"))
    }
}
