import CarFitCore
import CarFitStore

/// The calendar use-cases: the month document with its visit counts per local day, moving
/// the displayed month, selecting days.
public struct CalendarService {
    public let db: Database
    public let visits: VisitStore
    public let clock: Clock
    public let firstWeekday: CoreConfig.Weekday
    public let documents: DocumentCache

    public init(db: Database, visits: VisitStore, clock: Clock, firstWeekday: CoreConfig.Weekday, documents: DocumentCache) {
        self.db = db
        self.visits = visits
        self.clock = clock
        self.firstWeekday = firstWeekday
        self.documents = documents
    }

    /// The document of `month` (else the displayed one), rebuilt only when the month, today,
    /// the selection or the stored visits changed.
    public func document(_ calendar: CalendarState, month: YearMonth? = nil) throws(CarFitError) -> JSON {
        let month = month ?? calendar.displayed
        let today = clock.today
        let selected = calendar.selectedDays
        let stamp = try db.changeStamp()
        return try documents.document(.month(month, today: today, selected: selected), at: stamp) { () throws(CarFitError) in
            let counts = try documents.counts(of: month, at: stamp) { () throws(CarFitError) in try countVisits(in: month) }
            return MonthSheet(month: month, today: today, selected: selected,
                              firstWeekday: firstWeekday, visitCounts: counts).json
        }
    }

    /// Shows the next month.
    public func next(_ calendar: inout CalendarState) throws(CarFitError) -> JSON {
        calendar.next()
        return try document(calendar)
    }

    /// Shows the previous month.
    public func previous(_ calendar: inout CalendarState) throws(CarFitError) -> JSON {
        calendar.previous()
        return try document(calendar)
    }

    /// `{"date", "mode": "single" | "toggle"}`: selects a day.
    public func select(_ request: Fields, _ calendar: inout CalendarState) throws(CarFitError) -> JSON {
        let text = try request.requiredString("date")
        guard let date = CivilDate(iso: text) else {
            throw .invalid("date", "date \"\(text.prefix(40))\" is not a valid date (YYYY-MM-DD, years 1 to 9999).")
        }
        let modeText = try request.string("mode") ?? "single"
        guard let mode = CalendarState.SelectMode(rawValue: modeText) else {
            throw .invalid("mode", "mode must be \"single\" or \"toggle\".")
        }
        calendar.select(date, mode: mode)
        return try document(calendar)
    }

    /// `{"year", "month"}`: that month's document (the displayed month does not change).
    public func month(_ request: Fields, _ calendar: CalendarState) throws(CarFitError) -> JSON {
        let year = try request.requiredInt("year", in: 1...9999)
        let month = try request.requiredInt("month", in: 1...12)
        guard let ym = YearMonth(year: Int(year), month: Int(month)) else {
            throw .invalid("month", "month must be between 1 and 12.")
        }
        return try document(calendar, month: ym)
    }

    /// Stored visits per local day of `month`.
    public func countVisits(in month: YearMonth) throws(CarFitError) -> [CivilDate: Int] {
        guard let first = month.firstDay else { return [:] }
        let lower = Clock.searchRange(for: first).lowerBound
        let upper = lower + Int64(month.dayCount + 2) * 86_400_000
        var counts: [CivilDate: Int] = [:]
        for ms in try visits.startTimes(in: lower..<upper) {
            guard let date = clock.localDate(Instant(milliseconds: ms)), YearMonth(date) == month else { continue }
            counts[date, default: 0] += 1
        }
        return counts
    }
}
