/// The document of one month: the grid's shape, its days, and what is today and selected.
public struct MonthSheet: Sendable, Equatable {
    public static let weekdayNames = ["Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun"]

    public var month: YearMonth
    public var today: CivilDate?
    public var selected: [CivilDate]
    public var firstWeekday: CoreConfig.Weekday
    /// Stored visits per local day of this month.
    public var visitCounts: [CivilDate: Int]
    /// How the title and the weekday names are written.
    public var display: DisplayLocale

    public init(month: YearMonth, today: CivilDate?, selected: [CivilDate], firstWeekday: CoreConfig.Weekday,
                visitCounts: [CivilDate: Int], display: DisplayLocale = DisplayLocale(hour24: true)) {
        self.display = display
        self.month = month
        self.today = today
        self.selected = selected
        self.firstWeekday = firstWeekday
        self.visitCounts = visitCounts
    }

    /// Index (0 = Monday) of the grid's first column.
    var firstColumn: Int { firstWeekday == .monday ? 0 : 6 }

    /// Empty cells before day 1.
    public var leadingDays: Int {
        guard let first = month.firstDay else { return 0 }
        return (first.weekdayIndex - firstColumn + 7) % 7
    }

    public var weekdays: [String] {
        let names = display.weekdayNames
        return (0..<7).map { names[($0 + firstColumn) % 7] }
    }

    /// The short name of a day of the week (0 Monday ... 6 Sunday).
    public func weekdayName(_ index: Int) -> String {
        let names = display.weekdayNames
        return names.indices.contains(index) ? names[index] : ""
    }

    /// The month's title: `"March 2026"`, or the locale's.
    public var title: String { display.monthTitle(month) }
}
