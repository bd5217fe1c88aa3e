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
