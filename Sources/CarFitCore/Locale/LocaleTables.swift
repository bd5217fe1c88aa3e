/// The CLDR data of one supported locale that `DisplayLocale` formats with, read from its packed
/// text (`Generated/LocaleData.swift`, written by scripts/gen-locale-tables from the pinned CLDR
/// data). Date patterns use CLDR's letters (`h`, `HH`, `mm`, `a`, `d`, `MMMM`, `LLLL`, `y`; text
/// in single quotes is literal); currency parts hold `¤` where the currency's symbol goes. A
/// class: one shared instance per locale, never copied.
final class LocaleTables: Sendable {
    let timeShort: String
    let timeHm: String
    let timeHm12: String
    /// AM, PM.
    let dayPeriods: [String]
    let monthDay: String
    let dateLong: String
    /// `{1}` the date, `{0}` the time.
    let dateTimeLong: String
    let yearMonth: String
    let monthsFormat: [String]
    let monthsStandAlone: [String]
    /// Monday first.
    let weekdays: [String]
    /// 0 Monday or 6 Sunday (the only first days of these locales).
    let firstWeekDay: Int
    /// Positive prefix, positive suffix, negative prefix, negative suffix.
    let currencyParts: [String]
    let decimal: String
    let group: String
    /// In the order of `DisplayCurrency.allCases`.
    let currencySymbols: [String]

    /// The tables of a packed text: `packedFieldCount` fields apart by U+001F, in the order of
    /// the members above (a missing field reads as empty).
    init(packed: String) {
        var fields = packed.split(separator: "\u{1F}", omittingEmptySubsequences: false).map(String.init)[...]
        func one() -> String { fields.popFirst() ?? "" }
        func next(_ n: Int) -> [String] { (0..<n).map { _ in one() } }
        timeShort = one()
        timeHm = one()
        timeHm12 = one()
        dayPeriods = next(2)
        monthDay = one()
        dateLong = one()
        dateTimeLong = one()
        yearMonth = one()
        monthsFormat = next(12)
        monthsStandAlone = next(12)
        weekdays = next(7)
        firstWeekDay = one() == "6" ? 6 : 0
        currencyParts = next(4)
        decimal = one()
        group = one()
        currencySymbols = next(6)
    }
}
