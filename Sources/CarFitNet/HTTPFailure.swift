/// Why a GET failed before any answer could be used: what programs test (`reason`), one
/// sentence for people (`message`), and the URL. The caller turns it into its own error.
public struct HTTPFailure: Error, Sendable, Equatable {
    public enum Reason: String, Sendable {
        /// The URL is not an http or https URL; nothing was sent.
        case notHTTP = "not_http"
        case refused, timeout, dns, network, cancelled, transport
        case noResponse = "no_response"
        case tooLarge = "too_large"
    }

    public var reason: Reason
    public var url: String
    public var message: String

    public init(_ reason: Reason, url: String, message: String) {
        self.reason = reason
        self.url = url
        self.message = message
    }
}
