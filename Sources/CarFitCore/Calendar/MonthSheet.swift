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
