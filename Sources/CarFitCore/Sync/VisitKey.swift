/// A card's `key`: names one stored visit across snapshots, opaque to hosts.
///
/// Visit ids repeat in real data, and even a (visitId, startTimeUtc) pair may: the key is the
/// pair plus the pair's repetition in snapshot order (0 for the first record of the pair, 1 for
/// the next, …). Written as text, `<visitId>|<start>|<repetition>`: the visit id with `%`, `|`
/// and `~` percent-escaped (`~` alone for a visit without an id), the start as milliseconds
/// since the epoch (so `"2020-09-10T08:05:00"` and `"2020-09-10T08:05:00Z"` give one key), the
/// repetition in decimal. Distinct visits of a snapshot always get distinct keys, and the same
/// visit gets the same key in every snapshot that lists its pair as often before it.
public struct VisitKey: Sendable, Hashable {
    public var visitId: String?
    public var start: Instant
    public var repetition: Int

    public init(visitId: String?, start: Instant, repetition: Int = 0) {
        self.visitId = visitId
        self.start = start
        self.repetition = repetition
    }

    /// The longest key text `init?(text:)` reads; longer text is no key.
    public static let maxTextLength = 4_096

    /// The key as hosts see it.
    public var text: String {
        var out = ""
        if let visitId {
            out.reserveCapacity(visitId.utf8.count + 24)
            for scalar in visitId.unicodeScalars {
                switch scalar {
                case "%": out += "%25"
                case "|": out += "%7C"
                case "~": out += "%7E"
                default: out.unicodeScalars.append(scalar)
                }
            }
        } else {
            out = "~"
        }
        out += "|"
        out += String(start.milliseconds)
        out += "|"
        out += String(repetition)
        return out
    }

    /// The link a host opens this visit's card by: `"carfit://visit/"` and `text` with every
    /// byte but the unreserved ones (A-Z a-z 0-9 - . _ ~, RFC 3986) percent-encoded, so the
    /// link is one path segment that every URL parser decodes back to `text`. Notifications and
    /// reminders carry this same link for the same visit.
    public var deepLink: String {
        let hex = Array("0123456789ABCDEF".unicodeScalars)
        var out = "carfit://visit/"
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"),
                 UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"),
                 UInt8(ascii: "~"):
                out.unicodeScalars.append(Unicode.Scalar(byte))
            default:
                out.unicodeScalars.append("%")
                out.unicodeScalars.append(hex[Int(byte >> 4)])
                out.unicodeScalars.append(hex[Int(byte & 0x0F)])
            }
        }
        return out
    }

    /// The key of a host's text, or nil when it is not one `text` can write (then no visit has
    /// it: the caller answers `not_found`).
    public init?(text: String) {
        guard text.utf8.count <= VisitKey.maxTextLength else { return nil }
        // Split by scalars, not characters: a visit id may end in a scalar that joins the
        // separator into one grapheme cluster (U+0600 is such a prepended mark).
        let parts = text.unicodeScalars.split(separator: "|", omittingEmptySubsequences: false).map(Substring.init)
        guard parts.count == 3, let ms = VisitKey.decimal(parts[1], allowMinus: true),
              let repetition = VisitKey.decimal(parts[2], allowMinus: false), repetition <= Int64(Int.max)
        else { return nil }
        let id = parts[0]
        if id.unicodeScalars.elementsEqual("~".unicodeScalars) {
            visitId = nil
        } else {
            guard let decoded = VisitKey.unescape(id) else { return nil }
            visitId = decoded
        }
        start = Instant(milliseconds: ms)
        self.repetition = Int(repetition)
        // Only the spelling `text` writes, byte for byte (String's == would also take another
        // normalisation of the same id): one key, one text.
        guard self.text.utf8.elementsEqual(text.utf8) else { return nil }
    }

    /// The keys of a snapshot's visits, in snapshot order: each (visitId, start) pair counted
    /// from 0 in the order its records come.
    /// - Complexity: O(n) expected.
    public static func assign<S: Sequence>(_ pairs: S) -> [VisitKey] where S.Element == (visitId: String?, start: Instant) {
        var seen: [Pair: Int] = [:]
        var keys: [VisitKey] = []
        keys.reserveCapacity(pairs.underestimatedCount)
        for pair in pairs {
            let id = Pair(visitId: pair.visitId, start: pair.start)
            let n = seen[id, default: 0]
            seen[id] = n &+ 1
            keys.append(VisitKey(visitId: pair.visitId, start: pair.start, repetition: n))
        }
        return keys
    }

    /// The identity the server knows a visit by.
    struct Pair: Hashable {
        var visitId: String?
        var start: Instant
    }

    /// Digits (after an optional `-` when allowed) as a number, nil when not such text or past
    /// 64 bits.
    static func decimal(_ text: Substring, allowMinus: Bool) -> Int64? {
        var utf8 = text.utf8[...]
        var negative = false
        if allowMinus, utf8.first == UInt8(ascii: "-") {
            negative = true
            utf8 = utf8.dropFirst()
        }
        guard !utf8.isEmpty, utf8.count <= 19 else { return nil }
        var value: Int64 = 0
        for c in utf8 {
            guard c >= UInt8(ascii: "0"), c <= UInt8(ascii: "9") else { return nil }
            let (times, o1) = value.multipliedReportingOverflow(by: 10)
            let (plus, o2) = times.addingReportingOverflow(Int64(c - UInt8(ascii: "0")))
            guard !o1, !o2 else { return nil }
            value = plus
        }
        return negative ? -value : value
    }

    /// The visit id of an escaped key part; nil for an escape `text` does not write.
    static func unescape(_ part: Substring) -> String? {
        var out = ""
        var scalars = part.unicodeScalars[...]
        while let scalar = scalars.popFirst() {
            switch scalar {
            case "%":
                let code = String(String.UnicodeScalarView(scalars.prefix(2)))
                scalars = scalars.dropFirst(2)
                switch code {
                case "25": out += "%"
                case "7C": out += "|"
                case "7E": out += "~"
                default: return nil
                }
            case "~", "|":
                return nil
            default:
                out.unicodeScalars.append(scalar)
            }
        }
        return out
    }
}
