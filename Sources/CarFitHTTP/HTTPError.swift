/// A transfer that failed: no response, or one cut off. `reason` says which kind for programs,
/// `message` says it in one sentence for people, `status` is the HTTP status when a response
/// had begun (a body cut off at the limit, or shorter than its `Content-Length`). The one type
/// of a failed transfer in the library: the layers above pass it on as it is, and the services
/// turn it into a status and an error document in one place (`CarFitError(_:_:)`).
public struct HTTPError: Error, Sendable, Equatable, CustomStringConvertible {
    public enum Reason: String, Sendable, CaseIterable {
        /// Nothing listens at the address, or the connection was refused.
        case refused
        /// Connecting, a wait for data, or the whole transfer took longer than its limit.
        case timeout
        /// The host name could not be resolved.
        case dns
        /// The network failed: unreachable, or the connection was lost mid-transfer.
        case network
        /// Any other failure of the transfer (TLS, a malformed answer, a bad encoding).
        case transport
        /// The server closed the connection without answering.
        case noResponse = "no_response"
        /// The decoded body, a declared `Content-Length`, or the headers passed their limit.
        case tooLarge = "too_large"
        /// More redirects than allowed, a loop, or a redirect to a scheme other than http(s).
        case redirects
        /// Cancelled from another thread (`HTTPCancellation.cancel`, `CurlClient.cancelAll`).
        case cancelled
        /// The body ended before its declared `Content-Length` (or its last chunk).
        case truncated
        /// The URL is not an http or https URL (or not a valid one): nothing was sent.
        case notHTTP = "not_http"
        /// The request itself is unusable: a malformed header. Nothing was sent.
        case invalidRequest = "invalid_request"
        /// The body could not be written to its temporary file (disk full, no permission).
        case storage
    }

    public var reason: Reason
    public var url: String
    public var status: Int?
    public var message: String

    public init(_ reason: Reason, url: String, status: Int? = nil, message: String) {
        self.reason = reason
        self.url = url
        self.status = status
        self.message = message
    }

    /// A failure of the connection itself (refused, timeout, dns, network): the kind a host
    /// shows as "no connection".
    public var isNetworkFailure: Bool {
        switch reason {
        case .refused, .timeout, .dns, .network: true
        default: false
        }
    }

    public var description: String { "\(reason.rawValue): \(message)" }
}
