/// The syntax check of the http and https URLs a config or a request names (RFC 3986): a
/// scheme `http` or `https` (any case), an authority with a non-empty host (a registered name,
/// an IPv4 address or a bracketed IPv6 literal) and an optional port, then a path, query and
/// fragment of URL characters and well-formed `%XX` escapes. The transport parses them again
/// with libcurl's URL parser before any request.
public enum HTTPURL {
    public static func isValid(_ text: String) -> Bool {
        let u = Array(text.utf8)
        guard let colon = u.firstIndex(of: UInt8(ascii: ":")) else { return false }
        let scheme = String(decoding: u[..<colon], as: UTF8.self).lowercased()
        guard scheme == "http" || scheme == "https" else { return false }
        var i = colon + 1
        guard u.count >= i + 2, u[i] == UInt8(ascii: "/"), u[i + 1] == UInt8(ascii: "/") else { return false }
        i += 2
        var end = i
        while end < u.count, u[end] != UInt8(ascii: "/"), u[end] != UInt8(ascii: "?"), u[end] != UInt8(ascii: "#") { end += 1 }
        guard authorityIsValid(u[i..<end]) else { return false }
        // Path, query and fragment.
        var sawFragment = false
        var k = end
        while k < u.count {
            let c = u[k]
            if c == UInt8(ascii: "%") {
                guard k + 2 < u.count, isHex(u[k + 1]), isHex(u[k + 2]) else { return false }
                k += 3
                continue
            }
            if c == UInt8(ascii: "#") {
                guard !sawFragment else { return false }
                sawFragment = true
            } else if !(isPChar(c) || c == UInt8(ascii: "/") || c == UInt8(ascii: "?")) {
                return false
            }
            k += 1
        }
        return true
    }

    static func authorityIsValid(_ a: ArraySlice<UInt8>) -> Bool {
        var host = a
        if let at = a.lastIndex(of: UInt8(ascii: "@")) {
            guard a[a.startIndex..<at].allSatisfy({ isUnreserved($0) || isSubDelim($0) || $0 == UInt8(ascii: ":") || $0 == UInt8(ascii: "%") })
            else { return false }
            host = a[(at + 1)...]
        }
        var port: ArraySlice<UInt8> = []
        if host.first == UInt8(ascii: "[") {
            guard let close = host.firstIndex(of: UInt8(ascii: "]")), close > host.startIndex + 1 else { return false }
            let literal = host[(host.startIndex + 1)..<close]
            guard literal.allSatisfy({ isHex($0) || $0 == UInt8(ascii: ":") || $0 == UInt8(ascii: ".") }) else { return false }
            let rest = host[(close + 1)...]
            if let first = rest.first {
                guard first == UInt8(ascii: ":") else { return false }
                port = rest.dropFirst()
            }
        } else {
            if let colon = host.firstIndex(of: UInt8(ascii: ":")) {
                port = host[(colon + 1)...]
                host = host[host.startIndex..<colon]
            }
            guard !host.isEmpty else { return false }
            var k = host.startIndex
            while k < host.endIndex {
                let c = host[k]
                if c == UInt8(ascii: "%") {
                    guard k + 2 < host.endIndex, isHex(host[k + 1]), isHex(host[k + 2]) else { return false }
                    k += 3
                    continue
                }
                guard isUnreserved(c) || isSubDelim(c) else { return false }
                k += 1
            }
        }
        guard port.count <= 5, port.allSatisfy({ $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }) else { return false }
        return true
    }

    static func isHex(_ c: UInt8) -> Bool {
        (c >= UInt8(ascii: "0") && c <= UInt8(ascii: "9")) || ((c | 0x20) >= UInt8(ascii: "a") && (c | 0x20) <= UInt8(ascii: "f"))
    }

    static func isUnreserved(_ c: UInt8) -> Bool {
        (c >= UInt8(ascii: "0") && c <= UInt8(ascii: "9")) || ((c | 0x20) >= UInt8(ascii: "a") && (c | 0x20) <= UInt8(ascii: "z"))
            || c == UInt8(ascii: "-") || c == UInt8(ascii: ".") || c == UInt8(ascii: "_") || c == UInt8(ascii: "~")
    }

    static func isSubDelim(_ c: UInt8) -> Bool {
        switch c {
        case UInt8(ascii: "!"), UInt8(ascii: "$"), UInt8(ascii: "&"), UInt8(ascii: "'"), UInt8(ascii: "("), UInt8(ascii: ")"),
             UInt8(ascii: "*"), UInt8(ascii: "+"), UInt8(ascii: ","), UInt8(ascii: ";"), UInt8(ascii: "="): true
        default: false
        }
    }

    static func isPChar(_ c: UInt8) -> Bool {
        isUnreserved(c) || isSubDelim(c) || c == UInt8(ascii: ":") || c == UInt8(ascii: "@")
    }
}
