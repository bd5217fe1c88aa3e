/// The dates of the Cars feed: the source's `"dd.MM.yyyy HH:mm"` (UTC) and the text the list
/// shows, `"16 March, 12:34"` within the current year and `"20 December 2017, 21:43"` otherwise
/// (`"… 09:43 PM"` on a 12-hour clock), in the configured zone.
public enum ArticleDate {
    public static let monthNames = [
        "January", "February", "March", "April", "May", "June",
        "July", "August", "September", "October", "November", "December",
    ]

    /// Parses exactly `dd.MM.yyyy HH:mm` as a UTC instant: two-digit day, month, hour and
    /// minute, four-digit year 0001–9999; the day must exist in its month, the hour be 00–23 and
    /// the minute 00–59. Anything else (padding, seconds, a zone, other separators) is nil.
    public static func parseSource(_ text: String) -> Instant? {
        withUTF8(text) { u -> Instant? in parseSource(u) }
    }

    static func parseSource(_ u: Span<UInt8>) -> Instant? {
        guard u.count == 16, u[2] == UInt8(ascii: "."), u[5] == UInt8(ascii: "."), u[10] == UInt8(ascii: " "),
              u[13] == UInt8(ascii: ":"),
              let day = digits(u, 0, 2), let month = digits(u, 3, 2), let year = digits(u, 6, 4),
              let hour = digits(u, 11, 2), let minute = digits(u, 14, 2),
              hour <= 23, minute <= 59,
              let date = CivilDate(year: year, month: month, day: day) else { return nil }
        let seconds = Int64(date.dayNumber) * 86_400 + Int64(hour * 3600 + minute * 60)
        return Instant(milliseconds: seconds * 1000)
    }

    /// The published text of `instant` by the clock's zone and "now". When the local day of
    /// `instant` or of now lies outside the years 1–9999 (only possible at the very ends of that
    /// range), nil.
    /// `hour24` is the request's clock style (nil: the config's); with a locale the text is the
    /// locale's (`DisplayLocale.dateTimeText`).
    public static func text(_ instant: Instant, clock: Clock, hour24: Bool?) -> String? {
        guard let date = clock.localDate(instant), let today = clock.today else { return nil }
        return text(date: date, minuteOfDay: clock.localMinuteOfDay(instant), currentYear: today.year,
                    display: clock.display, hour24: hour24)
    }

    /// The published text of a local day and time as `display` writes it.
    static func text(date: CivilDate, minuteOfDay: Int, currentYear: Int, display: DisplayLocale, hour24: Bool?) -> String {
        if let localized = display.dateTimeText(date: date, minuteOfDay: minuteOfDay, currentYear: currentYear, hour24: hour24) {
            return localized
        }
        return text(date: date, minuteOfDay: minuteOfDay, currentYear: currentYear, hour24: hour24 ?? display.hour24)
    }

    /// The published text of a local day and time, given the local year of now.
    public static func text(date: CivilDate, minuteOfDay: Int, currentYear: Int, hour24: Bool) -> String {
        let month = monthNames.indices.contains(date.month - 1) ? monthNames[date.month - 1] : String(date.month)
        let time = Clock.timeText(minuteOfDay: minuteOfDay, hour24: hour24)
        if date.year == currentYear { return "\(date.day) \(month), \(time)" }
        return "\(date.day) \(month) \(date.year), \(time)"
    }

    /// The published text for a list: as `text`, and where that is nil the UTC day and time
    /// with the year written out, so a stored article always has a text.
    public static func listText(_ instant: Instant, clock: Clock, hour24: Bool?) -> String {
        if let t = text(instant, clock: clock, hour24: hour24) { return t }
        let s = instant.seconds
        let days = s >= 0 ? s / 86_400 : (s - 86_399) / 86_400
        let minute = Int((s - days * 86_400) / 60)
        guard let date = CivilDate(dayNumber: Int(days)) else { return instant.iso }
        return text(date: date, minuteOfDay: minute, currentYear: 0, display: clock.display, hour24: hour24)
    }
}
