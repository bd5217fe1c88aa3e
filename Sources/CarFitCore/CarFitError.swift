/// Every failure the core reports: a status, one sentence a user could act on, the offending
/// request field (a dotted path) where there is one, and the typed details its error document
/// carries besides them.
public struct CarFitError: Error, Sendable, Equatable {
    public var status: Status
    public var message: String
    public var field: String?
    public var details: Details
    /// Why a transfer or a source failed, typed, for the core's own bookkeeping (a source's
    /// last error, the offline state); the error document says the same (`reason`, `httpStatus`).
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

    /// What an error says besides its status, message and field, each member of its error
    /// document when set: `reason` and `httpStatus` (else the cause's), the `url` a request went
    /// to, the place where a text stops being JSON, the member of a source's document that was
    /// refused, the records an import rejected, the end of a login lock.
    public struct Details: Sendable, Equatable {
        public var reason: String?
        public var httpStatus: Int?
        public var url: String?
        public var position: TextPosition?
        public var documentField: String?
        public var rejected: [Rejection]?
        public var lockedUntil: Instant?

        public init(reason: String? = nil, httpStatus: Int? = nil, url: String? = nil, position: TextPosition? = nil,
                    documentField: String? = nil, rejected: [Rejection]? = nil, lockedUntil: Instant? = nil) {
            self.reason = reason
            self.httpStatus = httpStatus
            self.url = url
            self.position = position
            self.documentField = documentField
            self.rejected = rejected
            self.lockedUntil = lockedUntil
        }
    }

    /// Where a text stops being JSON: its line and column (from 1) and byte offset (from 0).
    public struct TextPosition: Sendable, Equatable {
        public var line: Int
        public var column: Int
        public var offset: Int

        public init(line: Int, column: Int, offset: Int) {
            self.line = line
            self.column = column
            self.offset = offset
        }

        /// The start of a text.
        public static let start = TextPosition(line: 1, column: 1, offset: 0)
    }

    public init(_ status: Status, _ message: String, field: String? = nil, details: Details = Details(),
                cause: Cause? = nil) {
        self.status = status
        self.message = message
        self.field = field
        self.details = details
        self.cause = cause
    }

    public static func invalid(_ field: String?, _ message: String) -> CarFitError {
        CarFitError(.invalid, message, field: field)
    }

    /// The reason the error document gives: the details', else the cause's.
    public var reason: String? { details.reason ?? cause?.reason }

    /// The HTTP status the error document gives: the details', else the cause's.
    public var httpStatus: Int? { details.httpStatus ?? cause?.httpStatus }
}
