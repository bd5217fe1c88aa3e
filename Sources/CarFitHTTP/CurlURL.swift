import CCurl
#if canImport(Glibc)
import Glibc
#endif

/// A URL as libcurl's URL API (`curl_url`) parses it: the parser the transfers themselves use.
public struct CurlURL: Sendable, Equatable {
    public var scheme: String
    public var host: String
    /// The port as written, nil when none is.
    public var port: Int?
    public var path: String

    /// Parses `text`; nil when libcurl refuses it or it has no scheme or host.
    public init?(_ text: String) {
        guard !text.utf8.contains(0), let handle = curl_url() else { return nil }
        defer { curl_url_cleanup(handle) }
        guard curl_url_set(handle, CURLUPART_URL, text, 0) == CURLUE_OK,
              let scheme = CurlURL.part(handle, CURLUPART_SCHEME),
              let host = CurlURL.part(handle, CURLUPART_HOST), !host.isEmpty else { return nil }
        self.scheme = scheme.lowercased()
        self.host = host
        port = CurlURL.part(handle, CURLUPART_PORT).flatMap { Int($0) }
        path = CurlURL.part(handle, CURLUPART_PATH) ?? "/"
    }

    /// Whether `text` is an http or https URL with a host, as libcurl parses it, with no space
    /// or control character anywhere (libcurl would take some of them into the request line).
    public static func isHTTP(_ text: String) -> Bool {
        guard !text.utf8.contains(where: { $0 <= 0x20 || $0 == 0x7F }), let url = CurlURL(text) else { return false }
        return url.scheme == "http" || url.scheme == "https"
    }

    private static func part(_ handle: OpaquePointer, _ what: CURLUPart) -> String? {
        var value: UnsafeMutablePointer<CChar>?
        guard curl_url_get(handle, what, &value, 0) == CURLUE_OK, let value else { return nil }
        defer { curl_free(value) }
        return String(cString: value)
    }
}
