import CarFitCore
import CarFitIO
import CarFitServices

/// The calendar operations: their requests read, the month documents written (and kept in the
/// core's document cache until the month, today, the selection or the stored visits change).
public enum CalendarAPI {
    public static func get(_ service: CalendarService, _ calendar: CalendarState) throws(CarFitError) -> JSON {
        try document(service, calendar)
    }

    public static func next(_ service: CalendarService, _ calendar: inout CalendarState) throws(CarFitError) -> JSON {
        service.next(&calendar)
        return try document(service, calendar)
    }

    public static func previous(_ service: CalendarService, _ calendar: inout CalendarState) throws(CarFitError) -> JSON {
        service.previous(&calendar)
        return try document(service, calendar)
    }

    public static func select(_ service: CalendarService, _ request: Fields, _ calendar: inout CalendarState) throws(CarFitError) -> JSON {
        let r = try DaySelection(request)
        service.select(r.date, mode: r.mode, &calendar)
        return try document(service, calendar)
    }

    /// That month's document; the displayed month does not change.
    public static func month(_ service: CalendarService, _ request: Fields, _ calendar: CalendarState) throws(CarFitError) -> JSON {
        try document(service, calendar, month: try MonthRequest(request).month)
    }

    /// The document of `month` (else the displayed one), rebuilt only when the month, today,
    /// the selection or the stored visits changed.
    static func document(_ service: CalendarService, _ calendar: CalendarState, month: YearMonth? = nil) throws(CarFitError) -> JSON {
        let shown = month ?? calendar.displayed
        let key = DocumentCache.Key.month(shown, today: service.clock.today, selected: calendar.selectedDays)
        return try service.documents.document(key, at: try service.db.changeStamp()) { () throws(CarFitError) in
            try service.document(calendar, month: shown).json
        }
    }
}

/// `calendar.select`: `{"date", "mode": "single" | "toggle"}` (single when absent).
public struct DaySelection: APIRequest {
    public var date: CivilDate
    public var mode: CalendarState.SelectMode

    public init(_ f: Fields) throws(CarFitError) {
        let text = try f.requiredString("date")
        guard let date = CivilDate(iso: text) else {
            throw .invalid("date", "date \"\(text.prefix(40))\" is not a valid date (YYYY-MM-DD, years 1 to 9999).")
        }
        self.date = date
        let modeText = try f.string("mode") ?? "single"
        guard let mode = CalendarState.SelectMode(rawValue: modeText) else {
            throw .invalid("mode", "mode must be \"single\" or \"toggle\".")
        }
        self.mode = mode
    }
}

/// `calendar.month`: `{"year", "month"}`, both required.
public struct MonthRequest: APIRequest {
    public var month: YearMonth

    public init(_ f: Fields) throws(CarFitError) {
        let year = try f.requiredInt("year", in: 1...9999)
        let month = try f.requiredInt("month", in: 1...12)
        guard let ym = YearMonth(year: Int(year), month: Int(month)) else {
            throw .invalid("month", "month must be between 1 and 12.")
        }
        self.month = ym
    }
}

extension YearMonth: APIResponse {
    /// `{"year", "month"}`
    public var json: JSON { .obj(["year": .int(Int64(year)), "month": .int(Int64(month))]) }
}

extension MonthSheet: APIResponse {
    /// `{"year", "month", "title", "today", "selected", "firstWeekday", "leadingDays", "weekdays",
    /// "days": [{"date", "day", "weekday", "isToday", "isSelected", "visits"}], "previous", "next"}`
    public var json: JSON {
        let selectedSet = Set(selected)
        var days: [JSON] = []
        days.reserveCapacity(31)
        for d in 1...month.dayCount {
            guard let date = CivilDate(year: month.year, month: month.month, day: d) else { continue }
            days.append(.obj([
                "date": .string(date.description),
                "day": .int(Int64(d)),
                "weekday": .string(weekdayName(date.weekdayIndex)),
                "isToday": .bool(date == today),
                "isSelected": .bool(selectedSet.contains(date)),
                "visits": .int(Int64(visitCounts[date] ?? 0)),
            ]))
        }
        return .obj([
            "year": .int(Int64(month.year)),
            "month": .int(Int64(month.month)),
            "title": .string(title),
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

/// The entry points of the operation table (`Manifest.operations`), one per operation, named
/// after its verb: each picks from the core what the function above needs.
extension CalendarAPI {
    public static func get(_ context: some OperationContext, _ request: Fields) throws(CarFitError) -> JSON {
        try get(context.calendar, context.calendarState)
    }
    public static func next(_ context: some OperationContext, _ request: Fields) throws(CarFitError) -> JSON {
        try next(context.calendar, &context.calendarState)
    }
    public static func previous(_ context: some OperationContext, _ request: Fields) throws(CarFitError) -> JSON {
        try previous(context.calendar, &context.calendarState)
    }
    public static func select(_ context: some OperationContext, _ request: Fields) throws(CarFitError) -> JSON {
        try select(context.calendar, request, &context.calendarState)
    }
    public static func month(_ context: some OperationContext, _ request: Fields) throws(CarFitError) -> JSON {
        try month(context.calendar, request, context.calendarState)
    }
}
