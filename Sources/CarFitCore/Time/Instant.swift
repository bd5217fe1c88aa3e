/// An instant as milliseconds since 1970-01-01T00:00:00Z.
public struct Instant: Sendable, Hashable, Comparable {
    public var milliseconds: Int64

    public init(milliseconds: Int64) { self.milliseconds = milliseconds }

    public static func < (a: Instant, b: Instant) -> Bool { a.milliseconds < b.milliseconds }

    /// Whole seconds since the epoch, rounded down.
    public var seconds: Int64 {
        let q = milliseconds / 1000
        return milliseconds % 1000 < 0 ? q - 1 : q
    }

    /// Parses an ISO 8601 instant: `YYYY-MM-DDTHH:mm[:ss[.fraction]]` followed by `Z`,
    /// `±HH:mm`, `±HHmm`, `±HH`, or nothing (then UTC, as the sources mean it). A space may stand
    /// for `T`. Every field is range-checked; the date must exist.
    public init?(iso text: String) {
        guard let ms = withUTF8(text, Instant.parse) else { return nil }
        milliseconds = ms
    }

    /// Milliseconds since the epoch of an ISO 8601 instant in `u`, or nil.
    static func parse(_ u: Span<UInt8>) -> Int64? {
        guard u.count >= 16, u.count <= 64 else { return nil }
        guard let date = CivilDate(isoPrefix: u, length: 10) else { return nil }
        guard u[10] == UInt8(ascii: "T") || u[10] == UInt8(ascii: "t") || u[10] == UInt8(ascii: " "),
              let hour = digits(u, 11, 2), u[13] == UInt8(ascii: ":"), let minute = digits(u, 14, 2),
              hour <= 23, minute <= 59 else { return nil }
        var i = 16
        var second = 0
        var millis = 0
        if i < u.count, u[i] == UInt8(ascii: ":") {
            guard let s = digits(u, i + 1, 2), s <= 59 else { return nil }
            second = s
            i += 3
            if i < u.count, u[i] == UInt8(ascii: ".") || u[i] == UInt8(ascii: ",") {
                i += 1
                var scale = 100
                var any = false
                while i < u.count, u[i] >= 48, u[i] <= 57 {
                    millis += Int(u[i] - 48) * scale
                    scale /= 10
                    any = true
                    i += 1
                }
                guard any else { return nil }
            }
        }
        var offsetMinutes = 0
        if i < u.count {
            let c = u[i]
            if c == UInt8(ascii: "Z") || c == UInt8(ascii: "z") {
                i += 1
            } else if c == UInt8(ascii: "+") || c == UInt8(ascii: "-") {
                guard let oh = digits(u, i + 1, 2), oh <= 23 else { return nil }
                var om = 0
                i += 3
                if i < u.count, u[i] == UInt8(ascii: ":") {
                    guard let m = digits(u, i + 1, 2), m <= 59 else { return nil }
                    om = m
                    i += 3
                } else if i < u.count {
                    guard let m = digits(u, i, 2), m <= 59 else { return nil }
                    om = m
                    i += 2
                }
                offsetMinutes = (oh * 60 + om) * (c == UInt8(ascii: "-") ? -1 : 1)
            } else {
                return nil
            }
        }
        guard i == u.count else { return nil }
        let localSeconds = Int64(date.dayNumber) * 86_400 + Int64(hour * 3600 + minute * 60 + second)
        return (localSeconds - Int64(offsetMinutes * 60)) * 1000 + Int64(millis)
    }

    /// `"2020-09-10T08:05:00Z"` (whole seconds, UTC; a day outside years 1–9999 as 0000-01-01).
    public var iso: String {
        // Written on the stack, then into the string's own storage: no array per call.
        var bytes = InlineArray<20, UInt8>(repeating: 0)
        let count: Int
        do {
            var b = bytes.mutableSpan
            count = writeISO(into: &b)
        }
        var text = ""
        text.reserveCapacity(Instant.isoLength)
        for k in 0..<min(count, 20) { text.unicodeScalars.append(Unicode.Scalar(bytes[k])) }
        return text
    }

    /// The length of `iso`.
    public static let isoLength = 20

    /// Writes `iso` into `b` (at least `isoLength` bytes) and answers its length.
    public func writeISO(into b: inout MutableSpan<UInt8>) -> Int {
        guard b.count >= Instant.isoLength else { return 0 }
        let s = seconds
        let days = s >= 0 ? s / 86_400 : (s - 86_399) / 86_400
        let secOfDay = Int(s - days * 86_400)
        let date = CivilDate(dayNumber: Int(days))
        putDigits(date?.year ?? 0, 4, &b, 0)
        b[4] = UInt8(ascii: "-")
        putDigits(date?.month ?? 1, 2, &b, 5)
        b[7] = UInt8(ascii: "-")
        putDigits(date?.day ?? 1, 2, &b, 8)
        b[10] = UInt8(ascii: "T")
        putDigits(secOfDay / 3600, 2, &b, 11)
        b[13] = UInt8(ascii: ":")
        putDigits(secOfDay / 60 % 60, 2, &b, 14)
        b[16] = UInt8(ascii: ":")
        putDigits(secOfDay % 60, 2, &b, 17)
        b[19] = UInt8(ascii: "Z")
        return Instant.isoLength
    }
}
