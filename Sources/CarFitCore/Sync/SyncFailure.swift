/// A push's last failure as the sync status tells it: why (the failure's reason), one sentence
/// for people, when, and the HTTP status when an answer came.
public struct SyncFailure: Sendable, Equatable {
    /// `refused`, `timeout`, `http_status`, `malformed`, `unauthorized`, … (the error's status
    /// name for a failure without a network cause).
    public var reason: String
    public var message: String
    public var at: Instant
    public var httpStatus: Int?

    public init(reason: String, message: String, at: Instant, httpStatus: Int? = nil) {
        self.reason = reason
        self.message = message
        self.at = at
        self.httpStatus = httpStatus
    }

    /// The failure `error` at `now`: its cause's reason and HTTP status.
    public init(_ error: CarFitError, at now: Instant) {
        self.init(reason: error.cause?.reason ?? error.status.name, message: error.message, at: now,
                  httpStatus: error.cause?.httpStatus)
    }
}
