/// How the core writes what a washer reads: times of day, dates, month titles, weekday names
/// and amounts of money, and in which order names go. Without a config `locale` every text is
/// 1.3's: `HH:mm` or `hh:mm AM`, English dates and names, no money texts, 1.3's name order.
/// With one, each is what CLDR gives for that locale (`LocaleTables`, generated from the pinned
/// CLDR data) and names go in its collator's order (`NameCollator`). The core hands this one
/// value (with its `Clock`) to every area that writes such a text.
public struct DisplayLocale: Sendable, Equatable {
    /// The config's locale; nil without one. The value holds no table itself (it is copied
    /// with every clock): the tables are the locale's static ones.
    public let locale: SupportedLocale?
    /// The clock style when no locale is set, and whether the config chose one (`hour24` given).
    public let hour24: Bool
    public let hour24Given: Bool
    public let currency: DisplayCurrency

    /// 1.3's display: no locale, the given clock style.
    public init(hour24: Bool) {
        self.init(locale: nil, hour24: hour24, hour24Given: false, currency: .usd)
    }

    public init(locale: SupportedLocale?, hour24: Bool, hour24Given: Bool, currency: DisplayCurrency) {
        self.locale = locale
        self.hour24 = hour24
        self.hour24Given = hour24Given
        self.currency = currency
    }

    /// The locale's CLDR data; nil without a locale.
    var tables: LocaleTables? { locale?.tables }

    /// The locale's name order; nil without a locale (1.3's order).
    public var collator: NameCollator? { locale?.collator }

    /// Whether a locale is set (the money texts are written only then).
    public var isLocalized: Bool { locale != nil }

    // MARK: Times and dates

    /// A time of day: 1.3's text without a locale; else the locale's short time, or its
    /// `Hm`/`hm` pattern when a clock style is chosen (`hour24` here, else the config's).
    public func timeText(minuteOfDay: Int, hour24 requested: Bool? = nil) -> String {
        let m = ((minuteOfDay % 1440) + 1440) % 1440
        guard let tables else { return Clock.timeText(minuteOfDay: m, hour24: requested ?? hour24) }
        let pattern: String
        if let style = requested ?? (hour24Given ? hour24 : nil) {
            pattern = style ? tables.timeHm : tables.timeHm12
        } else {
            pattern = tables.timeShort
        }
        return DatePattern.format(pattern, tables: tables, date: nil, minuteOfDay: m)
    }

    /// An article's date: the day (without its year in `currentYear`) joined with its time as
    /// the locale's long date-time; nil without a locale.
    public func dateTimeText(date: CivilDate, minuteOfDay: Int, currentYear: Int, hour24 requested: Bool?) -> String? {
        guard let tables else { return nil }
        let day = DatePattern.format(date.year == currentYear ? tables.monthDay : tables.dateLong,
                                     tables: tables, date: date, minuteOfDay: 0)
        let time = timeText(minuteOfDay: minuteOfDay, hour24: requested)
        var out = ""
        var rest = Substring(tables.dateTimeLong)
        while let open = rest.firstIndex(of: "{") {
            out += rest[..<open]
            let after = rest[open...].dropFirst()
            if after.hasPrefix("1}") {
                out += day
                rest = after.dropFirst(2)
            } else if after.hasPrefix("0}") {
                out += time
                rest = after.dropFirst(2)
            } else {
                out += "{"
                rest = after
            }
        }
        return out + rest
    }

    /// A month's title (`"March 2026"` without a locale).
    public func monthTitle(_ month: YearMonth) -> String {
        guard let tables, let first = month.firstDay else { return month.name + " " + String(month.year) }
        return DatePattern.format(tables.yearMonth, tables: tables, date: first, minuteOfDay: 0)
    }

    /// The short weekday names, Monday first.
    public var weekdayNames: [String] { tables?.weekdays ?? DisplayLocale.englishWeekdays }

    static let englishWeekdays = ["Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun"]

    /// The locale's first day of the week (nil without a locale): only Monday and Sunday occur.
    public var firstWeekday: CoreConfig.Weekday? {
        guard let tables else { return nil }
        return tables.firstWeekDay == 6 ? .sunday : .monday
    }

    // MARK: Money

    /// An amount in the config's currency as the locale writes it; nil without a locale.
    public func moneyText(cents: Int128) -> String? {
        guard let tables else { return nil }
        let negative = cents < 0
        let magnitude = cents.magnitude
        let whole = String(magnitude / 100)
        let fraction = Int(magnitude % 100)
        var number = ""
        let digits = Array(whole)
        for (i, d) in digits.enumerated() {
            if i > 0, (digits.count - i) % 3 == 0 { number += tables.group }
            number.append(d)
        }
        number += tables.decimal + (fraction < 10 ? "0" : "") + String(fraction)
        let parts = tables.currencyParts
        guard parts.count == 4 else { return number }
        let symbol = tables.currencySymbols.indices.contains(currency.index) ? tables.currencySymbols[currency.index] : currency.rawValue
        let prefix = negative ? parts[2] : parts[0]
        let suffix = negative ? parts[3] : parts[1]
        return withSymbol(prefix, symbol) + number + withSymbol(suffix, symbol)
    }

    private func withSymbol(_ part: String, _ symbol: String) -> String {
        var out = ""
        for c in part { if c == "¤" { out += symbol } else { out.append(c) } }
        return out
    }
}
