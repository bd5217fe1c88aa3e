import CarFitHTTP

/// The core's HTTP for its sources and images, on the libcurl client (`CurlClient`): bodies
/// are streamed (to a temporary file for a source document, into memory up to a limit for an
/// image), every wait and the whole transfer are bounded, redirects are capped and decoded
/// bytes counted against `maxBodyBytes`. Every failure is an `HTTPFailure`.
public final class HTTPClient: Sendable {
    public let curl: CurlClient

    public init(limits: HTTPLimits) {
        curl = CurlClient(limits: limits)
    }

    /// A client with the config's limits: `timeoutMs` for connecting and each wait for data,
    /// `totalTimeoutMs` for the whole transfer, `maxBodyBytes` for the decoded body,
    /// `minBytesPerSecond` for the slowest rate kept up for `timeoutMs` (0: none).
    public convenience init(timeoutMs: Int, totalTimeoutMs: Int = 120_000, maxBodyBytes: Int64 = 268_435_456,
                            minBytesPerSecond: Int = 1024) {
        self.init(limits: HTTPLimits(timeoutMs: timeoutMs, totalTimeoutMs: totalTimeoutMs, maxBodyBytes: maxBodyBytes,
                                     minBytesPerSecond: minBytesPerSecond))
    }

    public var limits: HTTPLimits { curl.limits }

    /// GETs `url` and returns the response of any status with its body in memory, at most
    /// `maxBytes` bytes (a longer one fails with reason `too_large`).
    public func get(_ url: String, maxBytes: Int64) throws(HTTPFailure) -> HTTPResponseBody {
        do throws(HTTPError) {
            return try curl.fetch(.get(url), maxBytes: maxBytes)
        } catch {
            throw HTTPFailure(error)
        }
    }

    /// Performs `request` and writes its body to a temporary file, removed when the returned
    /// download goes away: a document of any size is never held whole in memory. `progress`
    /// hears the bytes received and the declared length (`CurlClient.download`).
    public func download(_ request: HTTPRequest, directory: String? = nil,
                         progress: ((_ received: Int64, _ expected: Int64?) -> Void)? = nil) throws(HTTPFailure) -> HTTPDownload {
        do throws(HTTPError) {
            return try curl.download(request, directory: directory, progress: progress)
        } catch {
            throw HTTPFailure(error)
        }
    }

    /// Cancels every transfer in progress on this client; each fails with reason `cancelled`.
    /// Requests started afterwards are not affected.
    public func cancelAll() { curl.cancelAll() }

    /// The reason phrase of a status ("Not Found"), empty for one without a common phrase.
    public static func phrase(_ status: Int) -> String {
        switch status {
        case 300: "Multiple Choices"
        case 301: "Moved Permanently"
        case 302: "Found"
        case 303: "See Other"
        case 304: "Not Modified"
        case 307: "Temporary Redirect"
        case 308: "Permanent Redirect"
        case 400: "Bad Request"
        case 401: "Unauthorized"
        case 403: "Forbidden"
        case 404: "Not Found"
        case 405: "Method Not Allowed"
        case 406: "Not Acceptable"
        case 408: "Request Timeout"
        case 409: "Conflict"
        case 410: "Gone"
        case 413: "Content Too Large"
        case 415: "Unsupported Media Type"
        case 418: "I'm a teapot"
        case 422: "Unprocessable Content"
        case 429: "Too Many Requests"
        case 500: "Internal Server Error"
        case 501: "Not Implemented"
        case 502: "Bad Gateway"
        case 503: "Service Unavailable"
        case 504: "Gateway Timeout"
        default: ""
        }
    }
}
