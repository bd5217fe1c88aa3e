import CarFitCore
import CarFitIO
import CarFitServices

/// The washer's positions: `location.report` and `location.status`.
public enum LocationAPI {
    /// The report's answer; its arrivals and departures are handed to `publish` (the change feed).
    public static func report(_ service: LocationService, _ request: Fields,
                              publish: (Event) -> Void) throws(CarFitError) -> JSON {
        let r = try ReportRequest(request)
        let reported = try service.report(latitude: r.latitude, longitude: r.longitude, accuracyMeters: r.accuracyMeters, at: r.at)
        for (key, at) in reported.departures { publish(.departure(key: key.text, at: at)) }
        for (key, at) in reported.arrivals { publish(.arrival(key: key.text, at: at)) }
        return reported.json
    }

    public static func status(_ service: LocationService) throws(CarFitError) -> JSON {
        try service.status().json
    }
}

/// `location.report`: `{"latitude", "longitude", "accuracyMeters", "at"?}`: the three numbers
/// are required and range-checked, `at` (an ISO 8601 instant with `Z` or an offset) is now
/// when absent. Each refusal is `invalid` with its field.
public struct ReportRequest: APIRequest {
    public var latitude: Double
    public var longitude: Double
    public var accuracyMeters: Double
    public var at: Instant?

    public init(_ f: Fields) throws(CarFitError) {
        latitude = try ReportRequest.required(f, "latitude", in: -90...90)
        longitude = try ReportRequest.required(f, "longitude", in: -180...180)
        accuracyMeters = try ReportRequest.required(f, "accuracyMeters", in: 0...LocationReport.maxAccuracy)
        if let text = try f.string("at") {
            guard LocationReport.hasZone(text), let instant = Instant(iso: text) else {
                throw .invalid(f.path("at"), "at must be an ISO 8601 instant with Z or an offset, such as \"2020-09-10T08:05:00Z\".")
            }
            at = instant
        } else {
            at = nil
        }
    }

    private static func required(_ f: Fields, _ key: String, in range: ClosedRange<Double>) throws(CarFitError) -> Double {
        guard let value = try f.number(key, in: range) else { throw .invalid(f.path(key), "\(f.path(key)) is required.") }
        return value
    }
}

extension LocationReport: APIResponse {
    /// `{"latitude", "longitude", "accuracyMeters", "at"}`, `at` as UTC text.
    public var json: JSON {
        .obj(["latitude": .double(latitude), "longitude": .double(longitude), "accuracyMeters": .double(accuracyMeters),
              "at": .string(OutboxMutation.iso(at))])
    }
}

extension LocationService.Reported: APIResponse {
    /// `{"stored", "arrived", "departed", "position"}`
    public var json: JSON {
        .obj(["stored": .bool(stored), "arrived": .array(arrived.map { .string($0.text) }),
              "departed": .array(departed.map { .string($0.text) }), "position": position?.json ?? .null])
    }
}

extension LocationService.Status: APIResponse {
    /// `{"position": {…} | null, "trail": {"stored", "pending"}, "lastPushAt"}`
    public var json: JSON {
        .obj(["position": position?.json ?? .null,
              "trail": .obj(["stored": .int(Int64(stored)), "pending": .int(Int64(pending))]),
              "lastPushAt": lastPushAt.map { .string(OutboxMutation.iso($0)) } ?? .null])
    }
}

/// The entry points of the operation table (`Manifest.operations`), one per operation, named
/// after its verb: each picks from the core what the function above needs.
extension LocationAPI {
    public static func report(_ context: some OperationContext, _ request: Fields) throws(CarFitError) -> JSON {
        try report(context.location, request, publish: context.events.publish)
    }
    public static func status(_ context: some OperationContext, _ request: Fields) throws(CarFitError) -> JSON {
        try status(context.location)
    }
}
