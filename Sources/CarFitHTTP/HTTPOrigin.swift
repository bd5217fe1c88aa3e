import CCurl

/// The origin of an http or https URL (scheme, host, port), read with libcurl's own URL parser,
/// the one its transfers use, so that the origin compared is the one a request goes to. The
/// scheme and host are in lowercase and the port is always known (the scheme's default when the
/// URL names none): `http://Planner.example/x` and `http://planner.example:80/y` have one origin.
public struct HTTPOrigin: Sendable, Hashable, CustomStringConvertible {
    public var scheme: String
    public var host: String
    public var port: Int

    public init(scheme: String, host: String, port: Int) {
        self.scheme = scheme
        self.host = host
        self.port = port
    }

    /// The origin of `url`, or nil when libcurl cannot parse it or it is not http or https.
    public init?(url: String) {
        guard url.utf8.count <= 65536, !url.utf8.contains(0), let handle = curl_url() else { return nil }
        defer { curl_url_cleanup(handle) }
        guard curl_url_set(handle, CURLUPART_URL, url, 0) == CURLUE_OK,
              let scheme = HTTPOrigin.part(handle, CURLUPART_SCHEME, flags: 0)?.lowercased(),
              scheme == "http" || scheme == "https",
              let host = HTTPOrigin.part(handle, CURLUPART_HOST, flags: 0), !host.isEmpty,
              let portText = HTTPOrigin.part(handle, CURLUPART_PORT, flags: UInt32(CURLU_DEFAULT_PORT)),
              let port = Int(portText), (1...65535).contains(port) else { return nil }
        self.init(scheme: scheme, host: HTTPOrigin.lowercased(host), port: port)
    }

    /// `scheme://host:port`, the port always written.
    public var description: String { "\(scheme)://\(host):\(port)" }

    private static func part(_ handle: OpaquePointer, _ part: CURLUPart, flags: UInt32) -> String? {
        var value: UnsafeMutablePointer<CChar>?
        guard curl_url_get(handle, part, &value, flags) == CURLUE_OK, let value else { return nil }
        defer { curl_free(value) }
        return String(cString: value)
    }

    private static func lowercased(_ text: String) -> String {
        String(decoding: text.utf8.map { (0x41...0x5A).contains($0) ? $0 | 0x20 : $0 }, as: UTF8.self)
    }
}
