/// Instants as milliseconds since the Unix epoch, and their ISO 8601 text.
public enum Instant {
    /// Milliseconds of an ISO 8601 date and time: `2020-09-10T08:05:00`, with optional
    /// fraction and `Z` or `±HH:MM` (no zone: UTC). Nil for anything else.
    public static func parse(_ text: String) -> Int64? {
        let b = Array(text.utf8)
        guard b.count >= 19, b.count <= 40 else { return nil }
        func digits(_ from: Int, _ count: Int) -> Int64? {
            guard from + count <= b.count else { return nil }
            var value: Int64 = 0
            for i in from..<(from + count) {
                guard b[i] >= 0x30, b[i] <= 0x39 else { return nil }
                value = value * 10 + Int64(b[i] - 0x30)
            }
            return value
        }
        guard let year = digits(0, 4), b[4] == 0x2D, let month = digits(5, 2), b[7] == 0x2D,
              let day = digits(8, 2), b[10] == 0x54 || b[10] == 0x74 || b[10] == 0x20,
              let hour = digits(11, 2), b[13] == 0x3A, let minute = digits(14, 2), b[16] == 0x3A,
              let second = digits(17, 2) else { return nil }
        guard (1...12).contains(month), day >= 1, day <= daysIn(month: month, year: year),
              hour <= 23, minute <= 59, second <= 59 else { return nil }
        var i = 19
        var millis: Int64 = 0
        if i < b.count, b[i] == 0x2E {
            i += 1
            var count = 0
            while i < b.count, b[i] >= 0x30, b[i] <= 0x39 {
                if count < 3 { millis = millis * 10 + Int64(b[i] - 0x30) }
                count += 1
                i += 1
            }
            guard count > 0, count <= 9 else { return nil }
            if count < 3 { for _ in count..<3 { millis *= 10 } }
        }
        var offsetMinutes: Int64 = 0
        if i < b.count {
            if b[i] == 0x5A || b[i] == 0x7A {
                i += 1
            } else if b[i] == 0x2B || b[i] == 0x2D {
                guard let oh = digits(i + 1, 2), i + 3 < b.count, b[i + 3] == 0x3A, let om = digits(i + 4, 2),
                      oh <= 23, om <= 59 else { return nil }
                offsetMinutes = (oh * 60 + om) * (b[i] == 0x2D ? -1 : 1)
                i += 6
            } else {
                return nil
            }
        }
        guard i == b.count else { return nil }
        let days = daysFromCivil(year: year, month: month, day: day)
        let seconds = days * 86_400 + hour * 3_600 + minute * 60 + second - offsetMinutes * 60
        return seconds * 1_000 + millis
    }

    /// `2020-09-10T08:05:00Z`, with `.250` before the `Z` when there are milliseconds.
    public static func format(_ ms: Int64) -> String {
        let seconds = ms >= 0 ? ms / 1000 : (ms - 999) / 1000
        let millis = ms - seconds * 1000
        let days = seconds >= 0 ? seconds / 86_400 : (seconds - 86_399) / 86_400
        let rest = seconds - days * 86_400
        let (y, m, d) = civil(days: days)
        func two(_ v: Int64) -> String { v < 10 ? "0\(v)" : "\(v)" }
        var text = "\(y < 1000 ? String(repeating: "0", count: 4 - String(y).count) : "")\(y)-\(two(m))-\(two(d))T"
        text += "\(two(rest / 3600)):\(two(rest % 3600 / 60)):\(two(rest % 60))"
        if millis != 0 {
            let digits = String(millis)
            text += "." + String(repeating: "0", count: 3 - digits.count) + digits
        }
        return text + "Z"
    }

    /// A `YYYY-MM-DD` date as (year, month, day), or nil.
    public static func parseDate(_ text: String) -> (Int64, Int64, Int64)? {
        let parts = text.split(separator: "-", omittingEmptySubsequences: false)
        guard text.utf8.count == 10, parts.count == 3, parts[0].count == 4, parts[1].count == 2, parts[2].count == 2,
              text.utf8.allSatisfy({ $0 == 0x2D || ($0 >= 0x30 && $0 <= 0x39) }),
              let y = Int64(parts[0]), let m = Int64(parts[1]), let d = Int64(parts[2]),
              (1...12).contains(m), d >= 1, d <= daysIn(month: m, year: y) else { return nil }
        return (y, m, d)
    }

    static func daysIn(month: Int64, year: Int64) -> Int64 {
        switch month {
        case 2: return (year % 4 == 0 && year % 100 != 0) || year % 400 == 0 ? 29 : 28
        case 4, 6, 9, 11: return 30
        default: return 31
        }
    }

    /// Days since 1970-01-01 of a civil date (proleptic Gregorian).
    public static func daysFromCivil(year: Int64, month: Int64, day: Int64) -> Int64 {
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yoe = y - era * 400
        let mp = (month + 9) % 12
        let doy = (153 * mp + 2) / 5 + day - 1
        let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy
        return era * 146_097 + doe - 719_468
    }

    static func civil(days: Int64) -> (Int64, Int64, Int64) {
        let z = days + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let doe = z - era * 146_097
        let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365
        let doy = doe - (365 * yoe + yoe / 4 - yoe / 100)
        let mp = (5 * doy + 2) / 153
        let d = doy - (153 * mp + 2) / 5 + 1
        let m = mp < 10 ? mp + 3 : mp - 9
        return (yoe + era * 400 + (m <= 2 ? 1 : 0), m, d)
    }
}
