import CarFitHTTP

/// Why a GET failed before any answer could be used: what programs test (`reason`), one
/// sentence for people (`message`), the URL, and the HTTP status when a response had begun.
/// The caller turns it into its own error.
public struct HTTPFailure: Error, Sendable, Equatable {
    public enum Reason: String, Sendable {
        /// The URL is not an http or https URL (or not a valid one); nothing was sent.
        case notHTTP = "not_http"
        case refused, timeout, dns, network, cancelled, transport
        case noResponse = "no_response"
        /// The decoded body, a declared `Content-Length` or the headers passed their limit.
        case tooLarge = "too_large"
        /// More redirects than allowed, a loop, or a redirect to a scheme other than http(s).
        case redirects
        /// The body ended before its declared length.
        case truncated
        /// The body could not be written to its temporary file.
        case storage
    }

    public var reason: Reason
    public var url: String
    public var message: String
    public var status: Int?

    /// A failure of the connection itself (refused, timeout, dns, network: the client's
    /// `HTTPError.isNetworkFailure`).
    public var isNetworkFailure: Bool {
        switch reason {
        case .refused, .timeout, .dns, .network: true
        default: false
        }
    }

    public init(_ reason: Reason, url: String, message: String, status: Int? = nil) {
        self.reason = reason
        self.url = url
        self.message = message
        self.status = status
    }

    /// The client's failure under this module's reasons: the same names, a request libcurl
    /// cannot make being `not_http`.
    public init(_ error: HTTPError) {
        let reason: Reason = switch error.reason {
        case .refused: .refused
        case .timeout: .timeout
        case .dns: .dns
        case .network: .network
        case .transport: .transport
        case .noResponse: .noResponse
        case .tooLarge: .tooLarge
        case .redirects: .redirects
        case .cancelled: .cancelled
        case .truncated: .truncated
        case .invalidRequest: .notHTTP
        case .storage: .storage
        }
        let message = reason == .timeout ? "The request timed out: \(error.message)" : error.message
        self.init(reason, url: error.url, message: message, status: error.status)
    }
}
