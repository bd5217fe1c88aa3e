import CarFitCore
import CarFitHTTP

extension Origin {
    /// The origin of an http or https URL, read with libcurl's own URL parser (`CurlURL`), the
    /// one its transfers use, so that the origin compared is the one a request goes to. Scheme
    /// and host in lowercase, the port always known (the scheme's default when the URL names
    /// none): `http://Planner.example/x` and `http://planner.example:80/y` have one origin. Nil
    /// when libcurl cannot parse it or it is not http or https.
    public init?(url: String) {
        guard url.utf8.count <= 65536, let parsed = CurlURL(url), Origin.defaultPort(parsed.scheme) != nil,
              let port = parsed.port ?? Origin.defaultPort(parsed.scheme), (1...65535).contains(port) else { return nil }
        let host = String(decoding: parsed.host.utf8.map { (0x41...0x5A).contains($0) ? $0 | 0x20 : $0 }, as: UTF8.self)
        self.init(scheme: parsed.scheme, host: host, port: port)
    }
}
