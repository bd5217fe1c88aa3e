import CarFitCore
import CarFitIO
import CarFitServices

/// Time on the job: `report.day` and `report.durations`.
public enum ReportAPI {
    /// `report.day`: `{"date"?}` → the day's time report.
    public static func day(_ service: ReportService, _ request: Fields) throws(CarFitError) -> JSON {
        try service.day(try DayRequest(request).date).json
    }

    /// `report.durations`: `{}` → `{"tasks": [...]}`.
    public static func durations(_ service: ReportService) throws(CarFitError) -> JSON {
        .obj(["tasks": .array(try service.durations().map(\.json))])
    }
}

/// A request naming one local day: `{"date"?}` (YYYY-MM-DD; nil: today by the core's clock).
public struct DayRequest: APIRequest {
    public var date: CivilDate?

    public init(_ f: Fields) throws(CarFitError) {
        guard let text = try f.string("date") else { return }
        guard let date = CivilDate(iso: text) else {
            throw .invalid(f.path("date"), "date \"\(text.prefix(40))\" is not a valid day (YYYY-MM-DD, years 1 to 9999).")
        }
        self.date = date
    }
}

extension DayReport: APIResponse {
    /// `{"date", "visits": [...], "totals"}`
    public var json: JSON {
        func instant(_ i: Instant?) -> JSON { i.map { .string(OutboxMutation.iso($0)) } ?? .null }
        let visits: [JSON] = entries.map { e in
            let c = e.card
            return .obj([
                "key": .string(c.key.text), "visitId": .str(c.visitId), "name": .string(c.name), "state": .str(c.state),
                "plannedMinutes": .int(c.plannedMinutes), "startedAt": instant(c.facts.startedAt),
                "finishedAt": instant(c.facts.finishedAt), "workedMinutes": .int(e.workedMinutes),
                "arrivedAt": instant(c.arrival?.arrivedAt), "departedAt": instant(c.arrival?.departedAt),
                "onSiteMinutes": .int(e.onSiteMinutes), "lateMinutes": .int(e.lateMinutes),
            ])
        }
        let t = totals
        return .obj([
            "date": .string(date.description), "visits": .array(visits),
            "totals": .obj([
                "plannedMinutes": .int(t.plannedMinutes), "workedMinutes": .int(t.workedMinutes),
                "onSiteMinutes": .int(t.onSiteMinutes), "driveMinutes": .int(t.driveMinutes),
                "done": .int(t.done), "rejected": .int(t.rejected), "todo": .int(t.todo), "inProgress": .int(t.inProgress),
            ]),
        ])
    }
}

extension TaskDurations.Task: APIResponse {
    /// `{"title", "samples", "plannedMinutes", "medianMinutes", "p80Minutes"}`
    public var json: JSON {
        .obj(["title": .string(title), "samples": .int(samples), "plannedMinutes": .int(plannedMinutes),
              "medianMinutes": .double(median.roundedToTenth), "p80Minutes": .double(p80.roundedToTenth)])
    }
}

/// The entry points of the operation table (`Manifest.operations`), one per operation, named
/// after its verb: each picks from the core what the function above needs.
extension ReportAPI {
    public static func day(_ context: some OperationContext, _ request: Fields) throws(CarFitError) -> JSON {
        try day(context.report, request)
    }
    public static func durations(_ context: some OperationContext, _ request: Fields) throws(CarFitError) -> JSON {
        try durations(context.report)
    }
}
