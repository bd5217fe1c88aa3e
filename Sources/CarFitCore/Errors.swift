/// The status codes of the C ABI. Values are fixed forever (`include/carfit.h`).
public enum Status: Int32, Sendable, CaseIterable {
    case ok = 0
    case badJSON = 1
    case invalid = 2
    case notFound = 3
    case conflict = 4
    case unauthorized = 5
    case unavailable = 6
    case storage = 7
    case misuse = 8
    case `internal` = 9

    /// The lowercase name used in error documents and by `carfit_status_name`.
    public var name: String {
        switch self {
        case .ok: "ok"
        case .badJSON: "bad_json"
        case .invalid: "invalid"
        case .notFound: "not_found"
        case .conflict: "conflict"
        case .unauthorized: "unauthorized"
        case .unavailable: "unavailable"
        case .storage: "storage"
        case .misuse: "misuse"
        case .internal: "internal"
        }
    }
}

/// Every failure the core reports: a status, one sentence a user could act on, the offending
/// request field (a dotted path) where there is one, and extra members for the error document.
public struct CarFitError: Error, Sendable, Equatable {
    public var status: Status
    public var message: String
    public var field: String?
    public var extra: JSONObject

    public init(_ status: Status, _ message: String, field: String? = nil, extra: JSONObject = JSONObject()) {
        self.status = status
        self.message = message
        self.field = field
        self.extra = extra
    }

    public static func invalid(_ field: String?, _ message: String) -> CarFitError {
        CarFitError(.invalid, message, field: field)
    }

    /// `{"error": {"code", "message", "field"?, …extra}}`
    public var document: JSON {
        var error = JSONObject()
        error["code"] = .string(status.name)
        error["message"] = .string(message)
        if let field { error["field"] = .string(field) }
        for key in extra.keys { error[key] = extra[key] }
        return .obj(["error": .object(error)])
    }
}
