/// What to fetch: the method, the URL (http or https), extra header lines and, for a POST, the
/// body. The client adds `Accept-Encoding` (gzip and deflate are decoded before the body is
/// delivered) and its `User-Agent`.
public struct HTTPRequest: Sendable, Equatable {
    public enum Method: String, Sendable {
        case get = "GET"
        case post = "POST"
        case put = "PUT"
    }

    /// A body read from an open file as it is sent (a PUT's): `length` bytes from the file
    /// descriptor's current position, announced as `Content-Length`. The caller keeps the
    /// descriptor open for the request and closes it afterwards.
    public struct FileBody: Sendable, Equatable {
        public var fd: Int32
        public var length: Int64
        public init(fd: Int32, length: Int64) {
            self.fd = fd
            self.length = length
        }
    }

    public var method: Method
    public var url: String
    public var headers: [HTTPHeader]
    public var body: [UInt8]
    /// A PUT's body, streamed from a file.
    public var file: FileBody?

    public init(method: Method = .get, url: String, headers: [HTTPHeader] = [], body: [UInt8] = [], file: FileBody? = nil) {
        self.method = method
        self.url = url
        self.headers = headers
        self.body = body
        self.file = file
    }

    /// A PUT whose body is `file`'s bytes, read as they are sent (never held whole), with
    /// `Content-Type: contentType`, a `Content-Length` and no chunked encoding.
    public static func putFile(_ url: String, file: FileBody, contentType: String, headers: [HTTPHeader] = []) -> HTTPRequest {
        HTTPRequest(method: .put, url: url, headers: [HTTPHeader("Content-Type", contentType)] + headers, file: file)
    }

    /// A GET of `url` with `headers`.
    public static func get(_ url: String, headers: [HTTPHeader] = []) -> HTTPRequest {
        HTTPRequest(method: .get, url: url, headers: headers)
    }

    /// A conditional GET: `If-None-Match` with the stored `etag` and `If-Modified-Since` with
    /// the stored `lastModified`, each only when there is one. A server whose document has not
    /// changed answers 304 with no body.
    public static func conditionalGet(_ url: String, etag: String?, lastModified: String?,
                                      headers: [HTTPHeader] = []) -> HTTPRequest {
        var all = headers
        if let etag, !etag.isEmpty { all.append(HTTPHeader("If-None-Match", etag)) }
        if let lastModified, !lastModified.isEmpty { all.append(HTTPHeader("If-Modified-Since", lastModified)) }
        return HTTPRequest(method: .get, url: url, headers: all)
    }

    /// A POST of a JSON document: `body` is sent as it is, with `Content-Type: application/json`.
    public static func postJSON(_ url: String, body: [UInt8], headers: [HTTPHeader] = []) -> HTTPRequest {
        HTTPRequest(method: .post, url: url, headers: [HTTPHeader("Content-Type", "application/json")] + headers, body: body)
    }

    /// Whether libcurl's URL parser reads the URL as http or https (any case) with a host, and it
    /// holds no blank or control byte.
    var hasHTTPURL: Bool { CurlURL.isHTTP(url) }
}
