/// Compact JSON text and base64url, written by hand so the bytes on the wire are known exactly.
enum JSONText {
    /// `text` as a JSON string literal (quotes, backslashes and control characters escaped).
    static func string(_ text: String) -> String {
        var out = "\""
        out.reserveCapacity(text.utf8.count + 2)
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            case "\u{2028}": out += "\\u2028"
            case "\u{2029}": out += "\\u2029"
            default:
                if scalar.value < 0x20 {
                    let hex = String(scalar.value, radix: 16)
                    out += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
                } else {
                    out.unicodeScalars.append(scalar)
                }
            }
        }
        out += "\""
        return out
    }

    /// Base64 with the URL alphabet and no padding (RFC 7515's base64url).
    static func base64url<Bytes: Sequence>(_ bytes: Bytes) -> String where Bytes.Element == UInt8 {
        let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_".utf8)
        var out = [UInt8]()
        var buffer: UInt32 = 0
        var bits = 0
        for byte in bytes {
            buffer = (buffer << 8) | UInt32(byte)
            bits += 8
            while bits >= 6 {
                bits -= 6
                out.append(alphabet[Int((buffer >> UInt32(bits)) & 0x3F)])
            }
            buffer &= (1 << UInt32(bits)) - 1
        }
        if bits > 0 {
            out.append(alphabet[Int((buffer << UInt32(6 - bits)) & 0x3F)])
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// A short, printable reason from a service's answer: letters, digits, `_ . -` and spaces, at most 64 characters.
    static func reason(_ text: String) -> String {
        var out = ""
        for scalar in text.unicodeScalars.prefix(64) {
            switch scalar {
            case "a"..."z", "A"..."Z", "0"..."9", "_", ".", "-", " ": out.unicodeScalars.append(scalar)
            default: out += "?"
            }
        }
        return out
    }
}
