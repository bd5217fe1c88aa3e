/// A day of the proleptic Gregorian calendar of ISO 8601 (no Julian cut-over), years 1–9999.
///
/// Arithmetic goes through a day number (days since 1970-01-01) using Howard Hinnant's
/// `days_from_civil` / `civil_from_days`, which are exact for every year here.
public struct CivilDate: Sendable, Hashable, Comparable, CustomStringConvertible {
    public let year: Int
    public let month: Int
    public let day: Int

    public static let yearRange = 1...9999

    /// A valid date, or nil (2020-02-30, month 13, year 0, …).
    public init?(year: Int, month: Int, day: Int) {
        guard CivilDate.yearRange.contains(year), (1...12).contains(month),
              day >= 1, day <= CivilDate.daysIn(year: year, month: month) else { return nil }
        self.year = year
        self.month = month
        self.day = day
    }

    private init(unchecked year: Int, _ month: Int, _ day: Int) {
        self.year = year
        self.month = month
        self.day = day
    }

    public static func isLeap(_ year: Int) -> Bool {
        (year % 4 == 0 && year % 100 != 0) || year % 400 == 0
    }

    public static func daysIn(year: Int, month: Int) -> Int {
        switch month {
        case 2: isLeap(year) ? 29 : 28
        case 4, 6, 9, 11: 30
        default: 31
        }
    }

    /// Days since 1970-01-01 (negative before).
    public var dayNumber: Int {
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yoe = y - era * 400
        let mp = (month + 9) % 12
        let doy = (153 * mp + 2) / 5 + day - 1
        let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy
        return era * 146097 + doe - 719468
    }

    /// The date of a day number, or nil outside years 1–9999.
    public init?(dayNumber: Int) {
        guard dayNumber >= CivilDate.minDayNumber, dayNumber <= CivilDate.maxDayNumber else { return nil }
        let z = dayNumber + 719468
        let era = (z >= 0 ? z : z - 146096) / 146097
        let doe = z - era * 146097
        let yoe = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365
        let doy = doe - (365 * yoe + yoe / 4 - yoe / 100)
        let mp = (5 * doy + 2) / 153
        let d = doy - (153 * mp + 2) / 5 + 1
        let m = mp < 10 ? mp + 3 : mp - 9
        let y = yoe + era * 400 + (m <= 2 ? 1 : 0)
        self.init(unchecked: y, m, d)
    }

    public static let minDayNumber = CivilDate(unchecked: 1, 1, 1).dayNumber
    public static let maxDayNumber = CivilDate(unchecked: 9999, 12, 31).dayNumber

    /// 0 = Monday … 6 = Sunday (ISO numbering minus one).
    public var weekdayIndex: Int {
        // 1970-01-01 was a Thursday (index 3).
        let r = (dayNumber + 3) % 7
        return r < 0 ? r + 7 : r
    }

    public func adding(days: Int) -> CivilDate? { CivilDate(dayNumber: dayNumber + days) }

    /// `"2020-09-10"`
    public var description: String {
        String(unsafeUninitializedCapacity: 10) { b in
            putDigits(year, 4, b, 0)
            b[4] = UInt8(ascii: "-")
            putDigits(month, 2, b, 5)
            b[7] = UInt8(ascii: "-")
            putDigits(day, 2, b, 8)
            return 10
        }
    }

    /// Parses exactly `YYYY-MM-DD`, validating the day of the month.
    public init?(iso text: String) {
        guard let date = withUTF8(text, { CivilDate(isoPrefix: $0, length: $0.count) }) else { return nil }
        self = date
    }

    /// Parses `YYYY-MM-DD` from the first `length` bytes of `u`; `length` must be exactly 10.
    init?(isoPrefix u: UnsafeBufferPointer<UInt8>, length: Int) {
        guard length == 10, u.count >= 10, u[4] == UInt8(ascii: "-"), u[7] == UInt8(ascii: "-"),
              let y = digits(u, 0, 4), let m = digits(u, 5, 2), let d = digits(u, 8, 2) else { return nil }
        self.init(year: y, month: m, day: d)
    }

    public static func < (a: CivilDate, b: CivilDate) -> Bool {
        (a.year, a.month, a.day) < (b.year, b.month, b.day)
    }
}

/// Zero-padded decimal text of a non-negative number.
@inlinable
func pad(_ n: Int, _ width: Int) -> String {
    let s = String(n)
    return s.count >= width ? s : String(repeating: "0", count: width - s.count) + s
}

/// Writes `n` (0 ≤ n < 10^width) as `width` zero-padded digits at `b[at...]`: fixed-width date
/// and time text without building intermediate strings.
@inline(__always)
func putDigits(_ n: Int, _ width: Int, _ b: UnsafeMutableBufferPointer<UInt8>, _ at: Int) {
    var v = n
    var i = at + width - 1
    while i >= at {
        b[i] = UInt8(truncatingIfNeeded: 48 + v % 10)
        v /= 10
        i -= 1
    }
}

/// Runs `body` over the UTF-8 bytes of `text` without copying when the string is contiguous.
func withUTF8<T>(_ text: String, _ body: (UnsafeBufferPointer<UInt8>) -> T) -> T {
    if let result = text.utf8.withContiguousStorageIfAvailable(body) { return result }
    return Array(text.utf8).withUnsafeBufferPointer(body)
}

/// The value of `count` ASCII digits of `u` starting at `start`, or nil.
func digits(_ u: UnsafeBufferPointer<UInt8>, _ start: Int, _ count: Int) -> Int? {
    guard start >= 0, count > 0, start + count <= u.count else { return nil }
    var value = 0
    for i in start..<(start + count) {
        let c = u[i]
        guard c >= 48, c <= 57 else { return nil }
        value = value * 10 + Int(c - 48)
    }
    return value
}

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
    static func parse(_ u: UnsafeBufferPointer<UInt8>) -> Int64? {
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
        String(unsafeUninitializedCapacity: Instant.isoLength) { writeISO(into: $0) }
    }

    /// The length of `iso`.
    public static let isoLength = 20

    /// Writes `iso` into `b` (at least `isoLength` bytes) and answers its length.
    public func writeISO(into b: UnsafeMutableBufferPointer<UInt8>) -> Int {
        guard b.count >= Instant.isoLength else { return 0 }
        let s = seconds
        let days = s >= 0 ? s / 86_400 : (s - 86_399) / 86_400
        let secOfDay = Int(s - days * 86_400)
        let date = CivilDate(dayNumber: Int(days))
        putDigits(date?.year ?? 0, 4, b, 0)
        b[4] = UInt8(ascii: "-")
        putDigits(date?.month ?? 1, 2, b, 5)
        b[7] = UInt8(ascii: "-")
        putDigits(date?.day ?? 1, 2, b, 8)
        b[10] = UInt8(ascii: "T")
        putDigits(secOfDay / 3600, 2, b, 11)
        b[13] = UInt8(ascii: ":")
        putDigits(secOfDay / 60 % 60, 2, b, 14)
        b[16] = UInt8(ascii: ":")
        putDigits(secOfDay % 60, 2, b, 17)
        b[19] = UInt8(ascii: "Z")
        return Instant.isoLength
    }
}
