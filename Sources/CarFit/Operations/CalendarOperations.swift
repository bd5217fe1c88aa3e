import CarFitCore

extension Core {
    /// The document of `month` (else the displayed one), rebuilt only when the month, today,
    /// the selection or the stored visits changed.
    func calendarDocument(for month: YearMonth? = nil) throws(CarFitError) -> JSON {
        let month = month ?? calendar.displayed
        let today = clock.today
        let selected = calendar.selectedDays
        documents.validate(try db.changeStamp())
        return try documents.document(.month(month, today: today, selected: selected)) { () throws(CarFitError) in
            MonthSheet(month: month, today: today, selected: selected,
                       firstWeekday: config.firstWeekday, visitCounts: try visitCounts(in: month)).json
        }
    }

    func selectDay(_ request: Fields) throws(CarFitError) -> JSON {
        let text = try request.requiredString("date")
        guard let date = CivilDate(iso: text) else {
            throw .invalid("date", "date \"\(text.prefix(40))\" is not a valid date (YYYY-MM-DD, years 1 to 9999).")
        }
        let modeText = try request.string("mode") ?? "single"
        guard let mode = CalendarState.SelectMode(rawValue: modeText) else {
            throw .invalid("mode", "mode must be \"single\" or \"toggle\".")
        }
        calendar.select(date, mode: mode)
        return try calendarDocument()
    }

    func monthDocument(_ request: Fields) throws(CarFitError) -> JSON {
        let year = try request.requiredInt("year", in: 1...9999)
        let month = try request.requiredInt("month", in: 1...12)
        guard let ym = YearMonth(year: Int(year), month: Int(month)) else {
            throw .invalid("month", "month must be between 1 and 12.")
        }
        return try calendarDocument(for: ym)
    }

    /// Stored visits per local day of `month` (cached until the database changes; the caller,
    /// `calendarDocument`, has just validated the cache).
    func visitCounts(in month: YearMonth) throws(CarFitError) -> [CivilDate: Int] {
        try documents.counts(of: month) { () throws(CarFitError) in try countVisits(in: month) }
    }

    func countVisits(in month: YearMonth) throws(CarFitError) -> [CivilDate: Int] {
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
