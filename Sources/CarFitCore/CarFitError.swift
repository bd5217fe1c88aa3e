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
