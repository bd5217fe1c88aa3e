/// Every failure the core reports: a status, one sentence a user could act on, the offending
/// request field (a dotted path) where there is one, and extra members for the error document.
public struct CarFitError: Error, Sendable, Equatable {
    public var status: Status
    public var message: String
    public var field: String?
    public var extra: JSONObject
    /// Why a transfer or a source failed, typed, for the core's own bookkeeping (a source's
    /// last error, the offline state); the error document says the same in `extra`.
    public var cause: Cause?

    /// A failure of the network or of what it answered: its reason (`refused`, `http_status`,
    /// `not_json`, …), the HTTP status where an answer came, and whether the connection
    /// itself failed (refused, timeout, dns, network: what a host shows as "no connection").
    public struct Cause: Sendable, Equatable {
        public var reason: String
        public var httpStatus: Int?
        public var isNetwork: Bool

        public init(reason: String, httpStatus: Int? = nil, isNetwork: Bool = false) {
            self.reason = reason
            self.httpStatus = httpStatus
            self.isNetwork = isNetwork
        }
    }

    public init(_ status: Status, _ message: String, field: String? = nil, extra: JSONObject = JSONObject(),
                cause: Cause? = nil) {
        self.status = status
        self.message = message
        self.field = field
        self.extra = extra
        self.cause = cause
    }

    public static func invalid(_ field: String?, _ message: String) -> CarFitError {
        CarFitError(.invalid, message, field: field)
    }

    /// `{"error": {"code", "message", "field"?, …extra}}`, with the cause's `reason` when extra
    /// does not say it.
    public var document: JSON {
        var error = JSONObject()
        error["code"] = .string(status.name)
        error["message"] = .string(message)
        if let field { error["field"] = .string(field) }
        for key in extra.keys { error[key] = extra[key] }
        if let cause, error["reason"] == nil { error["reason"] = .string(cause.reason) }
        return .obj(["error": .object(error)])
    }
}
