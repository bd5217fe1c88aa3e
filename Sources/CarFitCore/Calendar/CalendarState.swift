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

    public var json: JSON { .obj(["year": .int(Int64(year)), "month": .int(Int64(month))]) }
}

/// The calendar's state as the core holds it: the displayed month and the selected days.
public struct CalendarState: Sendable, Equatable {
    public private(set) var displayed: YearMonth
    public private(set) var selected: Set<CivilDate>

    /// Opens on today's month with today selected.
    public init(today: CivilDate) {
        displayed = YearMonth(today)
        selected = [today]
    }

    /// Moves the displayed month by one; at the ends of the range (year 1, year 9999) it stays.
    public mutating func next() { if let n = displayed.next { displayed = n } }
    public mutating func previous() { if let p = displayed.previous { displayed = p } }

    public enum SelectMode: String, Sendable { case single, toggle }

    /// `single` makes `date` the only selected day; `toggle` adds or removes it. A day that
    /// becomes selected in another month also becomes the displayed month.
    public mutating func select(_ date: CivilDate, mode: SelectMode) {
        switch mode {
        case .single:
            selected = [date]
        case .toggle:
            if selected.remove(date) != nil { return }
            selected.insert(date)
        }
        displayed = YearMonth(date)
    }

    /// The selected days in ascending order.
    public var selectedDays: [CivilDate] { selected.sorted() }
}

/// The document of one month: the grid's shape, its days, and what is today and selected.
public struct MonthSheet: Sendable {
    public static let weekdayNames = ["Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun"]

    public var month: YearMonth
    public var today: CivilDate?
    public var selected: [CivilDate]
    public var firstWeekday: CoreConfig.Weekday
    /// Stored visits per local day of this month.
    public var visitCounts: [CivilDate: Int]

    public init(month: YearMonth, today: CivilDate?, selected: [CivilDate], firstWeekday: CoreConfig.Weekday,
                visitCounts: [CivilDate: Int]) {
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
        (0..<7).map { MonthSheet.weekdayNames[($0 + firstColumn) % 7] }
    }

    public var json: JSON {
        let selectedSet = Set(selected)
        var days: [JSON] = []
        days.reserveCapacity(31)
        for d in 1...month.dayCount {
            guard let date = CivilDate(year: month.year, month: month.month, day: d) else { continue }
            days.append(.obj([
                "date": .string(date.description),
                "day": .int(Int64(d)),
                "weekday": .string(MonthSheet.weekdayNames[date.weekdayIndex]),
                "isToday": .bool(date == today),
                "isSelected": .bool(selectedSet.contains(date)),
                "visits": .int(Int64(visitCounts[date] ?? 0)),
            ]))
        }
        return .obj([
            "year": .int(Int64(month.year)),
            "month": .int(Int64(month.month)),
            "title": .string(month.name + " " + String(month.year)),
            "today": .str(today?.description),
            "selected": .array(selected.map { .string($0.description) }),
            "firstWeekday": .string(firstWeekday.rawValue),
            "leadingDays": .int(Int64(leadingDays)),
            "weekdays": .array(weekdays.map(JSON.string)),
            "days": .array(days),
            "previous": month.previous?.json ?? .null,
            "next": month.next?.json ?? .null,
        ])
    }
}
