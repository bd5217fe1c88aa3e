/// The POSIX TZ string at the end of a TZif file (RFC 8536 section 3.3), which gives a zone's
/// offsets for every instant after the file's last transition:
/// `std offset [dst [offset] , start[/time] , end[/time]]`, names bare (`CET`) or quoted
/// (`<+0545>`), offsets `[+-]hh[:mm[:ss]]` west of Greenwich, dates `Mm.w.d`, `Jn` or `n`,
/// times `[+-]hh[:mm[:ss]]` with hours up to 167.
public struct PosixTZRule: Sendable, Equatable {
    /// One end of daylight saving time, as a local wall time of each year.
    public enum Day: Sendable, Equatable {
        /// `Mm.w.d`: day `d` (0 = Sunday) of week `w` (1–5, 5 = the last) of month `m`.
        case monthWeekDay(month: Int, week: Int, weekday: Int)
        /// `Jn`: day 1–365, February 29 never counted.
        case julian(Int)
        /// `n`: day 0–365, February 29 counted.
        case zeroBased(Int)
    }

    public struct Edge: Sendable, Equatable {
        public var day: Day
        /// Seconds after the day's local midnight (may be negative or past 24 hours).
        public var seconds: Int
    }

    /// UTC offsets in seconds east of Greenwich.
    public var standardOffset: Int
    public var daylightOffset: Int?
    public var start: Edge?
    public var end: Edge?

    /// Parses a TZ string; nil when it is not one.
    public init?(_ text: String) {
        var p = Parser(bytes: Array(text.utf8))
        guard p.name(), let std = p.offset() else { return nil }
        standardOffset = -std
        if p.atEnd { return }
        guard p.name() else { return nil }
        if p.peek != UInt8(ascii: ",") {
            guard let dst = p.offset() else { return nil }
            daylightOffset = -dst
        } else {
            daylightOffset = standardOffset + 3_600
        }
        guard p.take(","), let s = p.edge(), p.take(","), let e = p.edge(), p.atEnd else { return nil }
        start = s
        end = e
    }

    /// The offset at `second` (UTC seconds since the epoch), by the rule of that second's UTC
    /// year: daylight time from its start (a standard-time wall clock) to its end (a daylight
    /// one), which may wrap around the new year.
    public func offset(atSecond second: Int64) -> Int {
        guard let dst = daylightOffset, let start, let end else { return standardOffset }
        let year = PosixTZRule.utcYear(second)
        let s = PosixTZRule.localSeconds(start, year) - Int64(standardOffset)
        let e = PosixTZRule.localSeconds(end, year) - Int64(dst)
        let isDST = s < e ? (s <= second && second < e) : !(e <= second && second < s)
        return isDST ? dst : standardOffset
    }

    /// The instants of `year` at which `offset(atSecond:)` may change: daylight time's start and
    /// end, and the year's first second (where the rule of the next year takes over).
    func candidates(year: Int) -> [Int64] {
        guard let dst = daylightOffset, let start, let end else { return [] }
        return [PosixTZRule.localSeconds(start, year) - Int64(standardOffset),
                PosixTZRule.localSeconds(end, year) - Int64(dst),
                PosixTZRule.daysBeforeYear(year) * 86_400]
    }

    /// The years considered: far outside 1–9999 every instant is reckoned in a year at the edge,
    /// so the arithmetic stays small.
    static func clampYear(_ year: Int64) -> Int { Int(min(max(year, -100_000), 100_000)) }

    /// The UTC year of `second`.
    static func utcYear(_ second: Int64) -> Int {
        let clamped = min(max(second, -4_000_000_000_000), 4_000_000_000_000)
        let days = clamped >= 0 ? clamped / 86_400 : (clamped - 86_399) / 86_400
        let z = days + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let doe = z - era * 146_097
        let yoe = (doe - doe / 1460 + doe / 36524 - doe / 146_096) / 365
        let doy = doe - (365 * yoe + yoe / 4 - yoe / 100)
        let mp = (5 * doy + 2) / 153
        return clampYear(yoe + era * 400 + (mp >= 10 ? 1 : 0))
    }

    static func isLeap(_ y: Int) -> Bool { (y % 4 == 0 && y % 100 != 0) || y % 400 == 0 }

    /// Days from 1970-01-01 to January 1 of `year`.
    static func daysBeforeYear(_ year: Int) -> Int64 { daysFromCivil(year, 1, 1) }

    static func daysFromCivil(_ year: Int, _ month: Int, _ day: Int) -> Int64 {
        let y = Int64(month <= 2 ? year - 1 : year)
        let era = (y >= 0 ? y : y - 399) / 400
        let yoe = y - era * 400
        let mp = Int64((month + 9) % 12)
        let doy = (153 * mp + 2) / 5 + Int64(day) - 1
        let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy
        return era * 146_097 + doe - 719_468
    }

    static let monthLengths = [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31]

    /// The local wall time (seconds since 1970-01-01T00:00 local) of an edge in `year`.
    static func localSeconds(_ edge: Edge, _ year: Int) -> Int64 {
        let days: Int64
        switch edge.day {
        case .julian(let n):
            let leapShift = isLeap(year) && n >= 60 ? 1 : 0
            days = daysBeforeYear(year) + Int64(n - 1 + leapShift)
        case .zeroBased(let n):
            days = daysBeforeYear(year) + Int64(n)
        case .monthWeekDay(let month, let week, let weekday):
            let first = daysFromCivil(year, month, 1)
            // 1970-01-01 was a Thursday (4).
            let firstWeekday = Int(((first % 7) + 7 + 4) % 7)
            var day = (weekday - firstWeekday + 7) % 7 + 1 + (week - 1) * 7
            let length = monthLengths[month - 1] + (month == 2 && isLeap(year) ? 1 : 0)
            while day > length { day -= 7 }
            days = first + Int64(day - 1)
        }
        return days * 86_400 + Int64(edge.seconds)
    }

    /// A cursor over the TZ string's bytes.
    private struct Parser {
        let bytes: [UInt8]
        var i = 0

        var atEnd: Bool { i == bytes.count }
        var peek: UInt8? { i < bytes.count ? bytes[i] : nil }

        mutating func take(_ c: Character) -> Bool {
            guard let ascii = c.asciiValue, peek == ascii else { return false }
            i += 1
            return true
        }

        /// A zone abbreviation: three or more letters, or `<…>` of letters, digits, `+`, `-`.
        mutating func name() -> Bool {
            if take("<") {
                let from = i
                while let c = peek, c != UInt8(ascii: ">") {
                    guard isAlnum(c) || c == UInt8(ascii: "+") || c == UInt8(ascii: "-") else { return false }
                    i += 1
                }
                guard i - from >= 1, take(">") else { return false }
                return true
            }
            let from = i
            while let c = peek, isAlpha(c) { i += 1 }
            return i - from >= 3
        }

        func isAlpha(_ c: UInt8) -> Bool { (c | 0x20) >= UInt8(ascii: "a") && (c | 0x20) <= UInt8(ascii: "z") }
        func isDigit(_ c: UInt8) -> Bool { c >= UInt8(ascii: "0") && c <= UInt8(ascii: "9") }
        func isAlnum(_ c: UInt8) -> Bool { isAlpha(c) || isDigit(c) }

        mutating func number(maxDigits: Int) -> Int? {
            var value = 0
            var count = 0
            while let c = peek, isDigit(c), count < maxDigits {
                value = value * 10 + Int(c - UInt8(ascii: "0"))
                count += 1
                i += 1
            }
            return count == 0 ? nil : value
        }

        /// `[+-]hh[:mm[:ss]]` in seconds, hours up to `maxHours`.
        mutating func hms(maxHours: Int) -> Int? {
            var sign = 1
            if take("-") { sign = -1 } else { _ = take("+") }
            guard let h = number(maxDigits: 3), h <= maxHours else { return nil }
            var total = h * 3_600
            if take(":") {
                guard let m = number(maxDigits: 2), m <= 59 else { return nil }
                total += m * 60
                if take(":") {
                    guard let s = number(maxDigits: 2), s <= 59 else { return nil }
                    total += s
                }
            }
            return sign * total
        }

        mutating func offset() -> Int? { hms(maxHours: 24) }

        mutating func edge() -> Edge? {
            let day: Day
            if take("M") {
                guard let m = number(maxDigits: 2), (1...12).contains(m), take("."),
                      let w = number(maxDigits: 1), (1...5).contains(w), take("."),
                      let d = number(maxDigits: 1), (0...6).contains(d) else { return nil }
                day = .monthWeekDay(month: m, week: w, weekday: d)
            } else if take("J") {
                guard let n = number(maxDigits: 3), (1...365).contains(n) else { return nil }
                day = .julian(n)
            } else {
                guard let n = number(maxDigits: 3), (0...365).contains(n) else { return nil }
                day = .zeroBased(n)
            }
            var seconds = 7_200
            if take("/") {
                guard let t = hms(maxHours: 167) else { return nil }
                seconds = t
            }
            return Edge(day: day, seconds: seconds)
        }
    }
}
