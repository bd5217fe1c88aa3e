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
