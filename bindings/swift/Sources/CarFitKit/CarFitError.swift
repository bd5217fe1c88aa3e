import Foundation

/// A failed call: its status and the library's error document
/// (`{"error": {"code", "message", "field", ...}}`).
public struct CarFitError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The status the library returned (`.internal` for a value this package does not know).
    public let status: CarFitStatus
    /// The status's name as the error document gives it ("not_found").
    public let code: String
    /// One sentence a user could act on.
    public let message: String
    /// The offending request member, a dotted path ("data[3].houseOwnerLatitude").
    public let field: String?
    /// Why a network operation failed ("refused", "timeout", "http_status", ...).
    public let reason: String?
    /// The non-2xx status a server answered.
    public let httpStatus: Int?
    /// The URL of a failed fetch or push.
    public let url: String?
    /// Every member of the error document (rejected records, lockedUntil, line and column).
    public let details: ErrorDocumentError?

    public init(status: CarFitStatus, code: String? = nil, message: String, field: String? = nil,
                reason: String? = nil, httpStatus: Int? = nil, url: String? = nil,
                details: ErrorDocumentError? = nil) {
        self.status = status
        self.code = code ?? status.name
        self.message = message
        self.field = field
        self.reason = reason
        self.httpStatus = httpStatus
        self.url = url
        self.details = details
    }

    /// The error of a call that returned `rawStatus` and the error document `text`.
    init(rawStatus: Int32, document text: String) {
        let status = CarFitStatus(rawValue: rawStatus) ?? .internal
        guard let document = try? JSONDecoder().decode(ErrorDocument.self, from: Data(text.utf8)) else {
            self.init(status: status, message: text.isEmpty ? "The library returned status \(rawStatus)." : text)
            return
        }
        let error = document.error
        self.init(status: status, code: error.code.rawValue, message: error.message, field: error.field, reason: error.reason,
                  httpStatus: error.httpStatus, url: error.url, details: error)
    }

    public var description: String {
        var text = "\(code): \(message)"
        if let field { text += " (field \(field))" }
        return text
    }
}
