/// A web origin, as the config names the servers that receive the planner's token: scheme
/// (`http` or `https`), host and port, `"https://planner.example:8443"`. Scheme and host are
/// kept in lowercase and the port is always known (80 for http, 443 for https when the text
/// names none), so two spellings of one origin compare equal.
public struct Origin: Sendable, Hashable, CustomStringConvertible {
    public var scheme: String
    public var host: String
    public var port: Int

    public init(scheme: String, host: String, port: Int) {
        self.scheme = scheme
        self.host = host
        self.port = port
    }

    /// The port a scheme implies when a URL names none.
    public static func defaultPort(_ scheme: String) -> Int? {
        switch scheme {
        case "http": 80
        case "https": 443
        default: nil
        }
    }

    /// `scheme://host:port`, the port always written.
    public var description: String { "\(scheme)://\(host):\(port)" }

    /// Reads an origin: `http` or `https` (any case), `://`, a host (a name of letters, digits,
    /// `-`, `.` and `_`, or an IPv4 address, or an IPv6 address in brackets), an optional
    /// `:port` (1-65535) and an optional single `/`. No user, path, query or fragment: nil for
    /// anything else.
    public init?(text: String) {
        let bytes = Array(text.utf8)
        guard bytes.count <= 300 else { return nil }
        let lowered = bytes.map { (0x41...0x5A).contains($0) ? $0 | 0x20 : $0 }
        var rest: ArraySlice<UInt8>
        if lowered.starts(with: Array("https://".utf8)) {
            scheme = "https"
            rest = lowered[8...]
        } else if lowered.starts(with: Array("http://".utf8)) {
            scheme = "http"
            rest = lowered[7...]
        } else {
            return nil
        }
        if rest.last == UInt8(ascii: "/") { rest = rest.dropLast() }
        var hostBytes: ArraySlice<UInt8>
        var portBytes: ArraySlice<UInt8>?
        if rest.first == UInt8(ascii: "[") {
            guard let close = rest.firstIndex(of: UInt8(ascii: "]")) else { return nil }
            hostBytes = rest[rest.startIndex...close]
            let inner = rest[(rest.startIndex + 1)..<close]
            guard !inner.isEmpty, inner.allSatisfy({ Origin.isHexDigit($0) || $0 == UInt8(ascii: ":") || $0 == UInt8(ascii: ".") }),
                  inner.contains(UInt8(ascii: ":")) else { return nil }
            let after = rest[(close + 1)...]
            if !after.isEmpty {
                guard after.first == UInt8(ascii: ":") else { return nil }
                portBytes = after.dropFirst()
            }
        } else {
            if let colon = rest.firstIndex(of: UInt8(ascii: ":")) {
                hostBytes = rest[rest.startIndex..<colon]
                portBytes = rest[(colon + 1)...]
            } else {
                hostBytes = rest
            }
            guard !hostBytes.isEmpty, hostBytes.count <= 253,
                  hostBytes.allSatisfy({ Origin.isHostByte($0) }),
                  hostBytes.first != UInt8(ascii: "."), hostBytes.first != UInt8(ascii: "-") else { return nil }
        }
        host = String(decoding: hostBytes, as: UTF8.self)
        if let portBytes {
            guard !portBytes.isEmpty, portBytes.count <= 5, portBytes.allSatisfy({ (0x30...0x39).contains($0) }) else { return nil }
            let value = portBytes.reduce(0) { $0 * 10 + Int($1 - 0x30) }
            guard (1...65535).contains(value) else { return nil }
            port = value
        } else {
            guard let implied = Origin.defaultPort(scheme) else { return nil }
            port = implied
        }
    }

    private static func isHexDigit(_ b: UInt8) -> Bool {
        (0x30...0x39).contains(b) || (0x61...0x66).contains(b)
    }

    private static func isHostByte(_ b: UInt8) -> Bool {
        (0x30...0x39).contains(b) || (0x61...0x7A).contains(b) || b == UInt8(ascii: "-") || b == UInt8(ascii: ".")
            || b == UInt8(ascii: "_")
    }
}
