/// A month of the proleptic Gregorian calendar, years 1–9999.
public struct YearMonth: Sendable, Hashable, Comparable {
    public let year: Int
    public let month: Int

    public init?(year: Int, month: Int) {
        guard CivilDate.yearRange.contains(year), (1...12).contains(month) else { return nil }
        self.year = year
        self.month = month
    }

    public init(_ date: CivilDate) {
        year = date.year
        month = date.month
    }

    /// The next month, or nil after December 9999.
    public var next: YearMonth? { month == 12 ? YearMonth(year: year + 1, month: 1) : YearMonth(year: year, month: month + 1) }
    /// The previous month, or nil before January 1.
    public var previous: YearMonth? { month == 1 ? YearMonth(year: year - 1, month: 12) : YearMonth(year: year, month: month - 1) }

    public var firstDay: CivilDate? { CivilDate(year: year, month: month, day: 1) }
    public var dayCount: Int { CivilDate.daysIn(year: year, month: month) }

    public static func < (a: YearMonth, b: YearMonth) -> Bool { (a.year, a.month) < (b.year, b.month) }

    public static let monthNames = ["January", "February", "March", "April", "May", "June", "July",
                                    "August", "September", "October", "November", "December"]

    public var name: String { YearMonth.monthNames[(month - 1) % 12] }

}
