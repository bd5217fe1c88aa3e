/// The answer to a request, of any status: a 404 or a 500 is a response, not an error; the
/// caller decides. `headers` are those of the final response (after redirects), in order.
public struct HTTPResponse: Sendable, Equatable {
    public var status: Int
    /// The URL that answered, after any redirects.
    public var url: String
    public var headers: [HTTPHeader]
    /// How many redirects were followed.
    public var redirects: Int
    /// The body bytes delivered to the receiver, after decoding.
    public var bodyBytes: Int64
    /// Whether the receiver (its head or body closure) returned false: the rest of the body,
    /// if there was one, was not read.
    public var stopped: Bool

    public init(status: Int, url: String, headers: [HTTPHeader] = [], redirects: Int = 0,
                bodyBytes: Int64 = 0, stopped: Bool = false) {
        self.status = status
        self.url = url
        self.headers = headers
        self.redirects = redirects
        self.bodyBytes = bodyBytes
        self.stopped = stopped
    }

    /// The value of the first header called `name` (any case), or nil.
    public func header(_ name: String) -> String? {
        headers.first { $0.matches(name) }?.value
    }

    public var etag: String? { header("ETag") }
    public var lastModified: String? { header("Last-Modified") }
    public var contentType: String? { header("Content-Type") }

    /// A 2xx status.
    public var isSuccess: Bool { (200..<300).contains(status) }
    /// A 304: the document named by the request's validators has not changed.
    public var isNotModified: Bool { status == 304 }
}
