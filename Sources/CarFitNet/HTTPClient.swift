import CarFitHTTP
import CarFitSystem

/// The core's HTTP for its sources and images, on the libcurl client (`CurlClient`): bodies
/// are streamed (to a temporary file for a source document, into memory up to a limit for an
/// image), every wait and the whole transfer are bounded, redirects are capped and decoded
/// bytes counted against `maxBodyBytes`. Every failure is the transfer's `HTTPError`, passed on as it is.
///
/// A source's requests (`download`, `source`) go through `auth`: they carry the planner's
/// token when their URL is on one of its origins, and a 401 or 403 answer is reported to it.
/// An image's (`get`) never carry it.
public final class HTTPClient: @unchecked Sendable {
    public let curl: CurlClient
    /// The planner's credentials and who receives them.
    public let auth: PlannerAuth
    /// Whether source documents are downloaded to an anonymous file in memory rather than to
    /// the temporary directory (`CurlClient.download`'s `inMemory`): with an encryption key, so
    /// no plaintext of the data reaches the disk. Changes with the key (`setInMemoryDownloads`).
    public var inMemoryDownloads: Bool { memoryLock.withLock { memoryDownloads } }
    /// Guards `memoryDownloads` (the only mutable state: the rest is set at init).
    private let memoryLock = Lock()
    private var memoryDownloads: Bool

    public init(limits: HTTPLimits, auth: PlannerAuth = PlannerAuth(), inMemoryDownloads: Bool = false) {
        curl = CurlClient(limits: limits)
        self.auth = auth
        memoryDownloads = inMemoryDownloads
    }

    /// Downloads started from now on go to a file in memory (true) or to the temporary
    /// directory (false).
    public func setInMemoryDownloads(_ inMemory: Bool) {
        memoryLock.withLock { memoryDownloads = inMemory }
    }

    /// A client with the config's limits: `timeoutMs` for connecting and each wait for data,
    /// `totalTimeoutMs` for the whole transfer, `maxBodyBytes` for the decoded body,
    /// `minBytesPerSecond` for the slowest rate kept up for `timeoutMs` (0: none).
    public convenience init(timeoutMs: Int, totalTimeoutMs: Int = 120_000, maxBodyBytes: Int64 = 268_435_456,
                            minBytesPerSecond: Int = 1024, auth: PlannerAuth = PlannerAuth(),
                            inMemoryDownloads: Bool = false) {
        self.init(limits: HTTPLimits(timeoutMs: timeoutMs, totalTimeoutMs: totalTimeoutMs, maxBodyBytes: maxBodyBytes,
                                     minBytesPerSecond: minBytesPerSecond),
                  auth: auth, inMemoryDownloads: inMemoryDownloads)
    }

    public var limits: HTTPLimits { curl.limits }

    /// GETs `url` and returns the response of any status with its body in memory, at most
    /// `maxBytes` bytes (a longer one fails with reason `too_large`). Never with the planner's
    /// token: for images and other URLs that are no configured source.
    public func get(_ url: String, maxBytes: Int64) throws(HTTPError) -> HTTPResponseBody {
        try curl.fetch(.get(url), maxBytes: maxBytes)
    }

    /// Performs `request` to the configured source named `source` ("visits", "articles", ...)
    /// and writes its body to a temporary file, removed when the returned download goes away:
    /// a document of any size is never held whole in the process's own memory (with
    /// `inMemoryDownloads`, the file is an anonymous one in memory, at most `maxBodyBytes`).
    /// `progress` hears the bytes received and the declared length (`CurlClient.download`).
    /// The request carries the
    /// planner's token when its URL is on one of `auth`'s origins, and a 401 or 403 answer is
    /// reported to `auth`.
    public func download(_ request: HTTPRequest, source: String, directory: String? = nil,
                         progress: ((_ received: Int64, _ expected: Int64?) -> Void)? = nil) throws(HTTPError) -> HTTPDownload {
        let download = try curl.download(auth.authorized(request), directory: directory, inMemory: inMemoryDownloads,
                                         progress: progress)
        answered(download.response, source: source)
        return download
    }

    /// Performs `request` to the configured source named `source` ("patterns", "visitUpdates",
    /// ...) and returns the response of any status with its body in memory, at most `maxBytes`
    /// bytes. The request carries the planner's token when its URL is on one of `auth`'s
    /// origins, and a 401 or 403 answer is reported to `auth`.
    /// `sent` hears how many bytes of the request's body went out so far.
    public func source(_ request: HTTPRequest, source: String, maxBytes: Int64,
                       sent: ((_ bytes: Int64) -> Void)? = nil) throws(HTTPError) -> HTTPResponseBody {
        let answer = try curl.fetch(auth.authorized(request), maxBytes: maxBytes, sent: sent)
        answered(answer.response, source: source)
        return answer
    }

    /// Reports a source's 401 or 403 answer to `auth`.
    private func answered(_ response: HTTPResponse, source: String) {
        if HTTPClient.isRefusal(response.status) { auth.refused(source: source, httpStatus: response.status) }
    }

    /// Whether `status` says the request lacks valid credentials: 401 or 403.
    public static func isRefusal(_ status: Int) -> Bool { status == 401 || status == 403 }

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
