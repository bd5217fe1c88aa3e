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
        let date = CivilDate(dayNumber: Int(utcDay))
        putDigits(date?.year ?? 0, 4, &b, 0)
        b[4] = UInt8(ascii: "-")
        putDigits(date?.month ?? 1, 2, &b, 5)
        b[7] = UInt8(ascii: "-")
        putDigits(date?.day ?? 1, 2, &b, 8)
        return 10 + writeISOTime(into: &b, at: 10)
    }

    /// The UTC day of the instant, in days since 1970-01-01: the day `iso` writes.
    public var utcDay: Int64 {
        let s = seconds
        return s >= 0 ? s / 86_400 : (s - 86_399) / 86_400
    }

    /// The length of `iso`'s time of day, `"T08:05:00Z"`.
    public static let isoTimeLength = 10

    /// Writes `iso`'s time of day (`"T08:05:00Z"`) into `b` at `at` (`isoTimeLength` bytes from
    /// there) and answers its length: the text after the date of `utcDay`.
    public func writeISOTime(into b: inout MutableSpan<UInt8>, at: Int) -> Int {
        guard at >= 0, b.count - at >= Instant.isoTimeLength else { return 0 }
        let secOfDay = Int(seconds - utcDay * 86_400)
        let hour = secOfDay / 3600, minuteOfDay = secOfDay / 60
        b[at] = UInt8(ascii: "T")
        putPair(hour, &b, at + 1)
        b[at + 3] = UInt8(ascii: ":")
        putPair(minuteOfDay - hour * 60, &b, at + 4)
        b[at + 6] = UInt8(ascii: ":")
        putPair(secOfDay - minuteOfDay * 60, &b, at + 7)
        b[at + 9] = UInt8(ascii: "Z")
        return Instant.isoTimeLength
    }
}
