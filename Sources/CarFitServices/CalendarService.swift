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

    /// The sheet of `month` (else the displayed one): its days, today, the selection and the
    /// stored visits per local day (counted again only when the stored visits changed).
    public func document(_ calendar: CalendarState, month: YearMonth? = nil) throws(CarFitError) -> MonthSheet {
        let month = month ?? calendar.displayed
        let stamp = try db.changeStamp()
        let counts = try documents.counts(of: month, at: stamp) { () throws(CarFitError) in try countVisits(in: month) }
        return MonthSheet(month: month, today: clock.today, selected: calendar.selectedDays,
                          firstWeekday: firstWeekday, visitCounts: counts, display: clock.display)
    }

    /// Shows the next month.
    public func next(_ calendar: inout CalendarState) {
        calendar.next()
    }

    /// Shows the previous month.
    public func previous(_ calendar: inout CalendarState) {
        calendar.previous()
    }

    /// Selects `date` (the only selected day, or toggled in the selection).
    public func select(_ date: CivilDate, mode: CalendarState.SelectMode, _ calendar: inout CalendarState) {
        calendar.select(date, mode: mode)
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
