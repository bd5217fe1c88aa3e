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
        // Written on the stack, then into a small string (10 bytes, held inline): no allocation.
        var bytes = InlineArray<10, UInt8>(repeating: 0)
        do {
            var b = bytes.mutableSpan
            putDigits(year, 4, &b, 0)
            b[4] = UInt8(ascii: "-")
            putDigits(month, 2, &b, 5)
            b[7] = UInt8(ascii: "-")
            putDigits(day, 2, &b, 8)
        }
        var text = ""
        for k in 0..<10 { text.unicodeScalars.append(Unicode.Scalar(bytes[k])) }
        return text
    }

    /// Parses exactly `YYYY-MM-DD`, validating the day of the month.
    public init?(iso text: String) {
        guard let date = withUTF8(text, { CivilDate(isoPrefix: $0, length: $0.count) }) else { return nil }
        self = date
    }

    /// Parses `YYYY-MM-DD` from the first `length` bytes of `u`; `length` must be exactly 10.
    init?(isoPrefix u: Span<UInt8>, length: Int) {
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
func putDigits(_ n: Int, _ width: Int, _ b: inout MutableSpan<UInt8>, _ at: Int) {
    var v = n
    var i = at + width - 1
    while i >= at {
        b[i] = UInt8(truncatingIfNeeded: 48 + v % 10)
        v /= 10
        i -= 1
    }
}

/// The two decimal digits of `n` (0–99) at `b[at]` and `b[at + 1]`.
@inline(__always)
func putPair(_ n: Int, _ b: inout MutableSpan<UInt8>, _ at: Int) {
    let tens = n / 10
    b[at] = UInt8(truncatingIfNeeded: 48 &+ tens)
    b[at + 1] = UInt8(truncatingIfNeeded: 48 &+ (n &- tens &* 10))
}

/// Runs `body` over the UTF-8 bytes of `text`, without copying them.
func withUTF8<T>(_ text: String, _ body: (Span<UInt8>) -> T) -> T {
    body(text.utf8.span)
}

/// The value of `count` ASCII digits of `u` starting at `start`, or nil.
func digits(_ u: Span<UInt8>, _ start: Int, _ count: Int) -> Int? {
    guard start >= 0, count > 0, start + count <= u.count else { return nil }
    var value = 0
    for i in start..<(start + count) {
        let c = u[i]
        guard c >= 48, c <= 57 else { return nil }
        value = value * 10 + Int(c - 48)
    }
    return value
}
