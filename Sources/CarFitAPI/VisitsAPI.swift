import CarFitCore
import CarFitIO
import CarFitServices
import CarFitStore

/// The visits operations: `visits.import`, `visits.list`, `visits.plan`, `visits.set_state`
/// (and the import's answer, which `visits.refresh` answers too). The day list and a changed
/// visit's card are written as text straight from the stored rows (`DayListWriter`).
public enum VisitsAPI {
    /// `visits.import`: the request's bytes imported as they stream; a document of another
    /// shape is read whole (`VisitsImportRequest`: its `data`, or the file a `{"file"}` names).
    /// The visits source's validators no longer describe what is stored, so its next refresh
    /// asks unconditionally (`SourcesService.imported`): recorded in the import's own
    /// transaction. `progress`, given the size in bytes of what is read (the request, or the
    /// file), may answer a reporter that hears how many of those bytes are read, and the complete
    /// count once the import has succeeded. `check` is the boundary's check of the request's
    /// members (`RequestCheck`): of all but `data` when it streams (before anything is
    /// committed), of the whole request when it is read whole.
    public static func importVisits(_ service: VisitsService, _ bytes: UnsafeRawBufferPointer,
                                    sources: SourcesService? = nil,
                                    check: (Fields) throws(CarFitError) -> Void = { _ in },
                                    progress: (Int) -> ProgressReporter? = { _ in nil }) throws(CarFitError) -> JSON {
        let commit = { () throws(CarFitError) -> Void in
            if let sources { try sources.imported("visits") }
        }
        let reporter = progress(bytes.count)
        let summary: ImportSummary
        if let streamed = try service.importStreamed(bytes, reporter: reporter, members: { others throws(CarFitError) in
            try check(Fields(others))
        }, commit: commit) {
            summary = streamed
        } else {
            let request = try JanssonParser.object(bytes)
            try check(request)
            switch try VisitsImportRequest(request) {
            case .file(let path): summary = try service.importFile(path, progress: progress, commit: commit)
            case .document(let snapshot): summary = try service.importSnapshot(snapshot, commit: commit)
            }
        }
        reporter?.finish()
        return summary.json
    }

    /// `visits.list`: the cards of the asked days (else `selected`, the calendar's selection),
    /// each day once, in order, written straight from the stored rows with the washer's
    /// changes, arrivals and attachment counts laid over them. An answer asked again while the
    /// database is unchanged, or written again after a change of its day (`renew`), is served
    /// as kept (`DayAnswers`).
    public static func list(_ service: VisitsService, _ request: Fields, selected: [CivilDate]) throws(CarFitError) -> JSONBuffer {
        let r = try VisitsListRequest(request)
        let key = DayAnswers.Key(dates: r.dates ?? selected, employeeId: r.employeeId, hour24: r.hour24)
        guard let answers = service.dayAnswers else { return try write(service, key) }
        let stamp = try service.db.changeStamp()
        switch answers.lookup(key, at: stamp) {
        case .kept(let text):
            var out = JSONBuffer(capacity: text.count + 1)
            text.withUnsafeBytes { out.append($0) }
            return out
        case .again:
            let out = try write(service, key)
            answers.keep(key, at: stamp, text: out.bytes)
            return out
        case .first:
            return try write(service, key)
        }
    }

    /// The day list of `key` written from the stored rows.
    static func write(_ service: VisitsService, _ key: DayAnswers.Key) throws(CarFitError) -> JSONBuffer {
        let clock = service.clock
        var writer = DayListWriter(clock: clock, hour24: key.hour24)
        // The overlays' tables are looked at once per call; an empty one is not queried per day.
        let present = key.dates.isEmpty ? DayOverlays() : try service.presentOverlays()
        let employeeId = key.employeeId
        for date in key.dates {
            let range = clock.dayRange(for: date)
            let overlay = try service.overlay(startingIn: range, present: present)
            try writer.writeDay(date, range: range, local: overlay.local, arrivals: overlay.arrivals,
                                attachments: overlay.attachments, outbox: overlay.outbox) { range, add throws(CarFitError) in
                try service.forEachVisit(startingIn: range, employeeId: employeeId, removed: present.removed, add)
            }
        }
        return writer.finish()
    }

    /// After the washer changed a card of `date`: the host's requests of that day
    /// (`DayAnswers.shown`) are written again now, so the re-render that follows the change
    /// is ready. A failure here drops them (the next ask writes them) and never fails the change.
    static func renew(_ service: VisitsService, _ date: CivilDate) {
        guard let answers = service.dayAnswers else { return }
        let keys = answers.shown(date)
        guard !keys.isEmpty else { return }
        do throws(CarFitError) {
            let stamp = try service.db.changeStamp()
            for key in keys { answers.keep(key, at: stamp, text: try write(service, key).bytes) }
        } catch {
            for key in keys { answers.drop(key) }
        }
    }

    /// `visits.plan`: the day plan (`DayPlan`).
    public static func plan(_ service: VisitsService, _ request: Fields) throws(CarFitError) -> JSON {
        try service.plan(try PlanRequest(request)).json
    }

    /// `visits.set_state`: the change made (`VisitsService.setState`), answered as
    /// `{"visit": card}`, the changed visit's card as the list of its day shows it.
    public static func setState(_ service: VisitsService, _ request: Fields) throws(CarFitError) -> JSONBuffer {
        let r = try SetStateRequest(request)
        let change = try service.setState(keyText: r.key, to: r.state, reason: r.reason)
        let answer = try card(service, change)
        renew(service, change.date)
        return answer
    }

    /// `visits.acknowledge`: the washer has seen the card's conflict (`OutboxService.acknowledge`),
    /// answered as `{"visit": card}`, the card without it (still listed while the visit has
    /// other work, else as the day list showed it last).
    public static func acknowledge(_ service: VisitsService, _ request: Fields) throws(CarFitError) -> JSONBuffer {
        let r = try AcknowledgeRequest(request)
        let change = try service.outbox.acknowledge(keyText: r.key)
        let answer = try card(service, change, removedWithoutWork: true)
        renew(service, change.date)
        return answer
    }

    /// `{"visit": card}` of the visit `change` names, as the list of its day shows it. With
    /// `removedWithoutWork`, a removed visit whose work just ended is written as its day showed
    /// it last (`removed` true) although the list no longer has it.
    static func card(_ service: VisitsService, _ change: VisitsService.StateChange,
                     removedWithoutWork: Bool = false) throws(CarFitError) -> JSONBuffer {
        let clock = service.clock
        var overlay = try service.overlay(startingIn: clock.dayRange(for: change.date))
        var listed = true
        if removedWithoutWork, try service.visits.visit(change.key) == nil, try service.visits.visit(change.key, removed: true) == nil {
            listed = false
            overlay.outbox[change.key, default: CardOutbox()].removed = true
        }
        let kept = change.key
        guard let card = try DayListWriter.card(
                change.key, on: change.date, clock: clock, hour24: nil,
                local: overlay.local, arrivals: overlay.arrivals, attachments: overlay.attachments, outbox: overlay.outbox,
                rows: { range, add throws(CarFitError) in
                    try service.forEachVisit(startingIn: range, removed: true, add)
                    if !listed { try service.visits.forRemovedVisit(kept, add) }
                })
        else {
            throw CarFitError(.internal, "The changed visit has no card on its own day.")
        }
        return card
    }
}

// MARK: - Requests

/// `visits.import` read whole (a document the streamed reader declined): `{"data": [...]}`,
/// its records validated (`VisitSnapshot`), or, without `data`, `{"file": path}`, the visits
/// document in that file.
public enum VisitsImportRequest: APIRequest {
    case document(VisitSnapshot)
    case file(String)

    public init(_ f: Fields) throws(CarFitError) {
        if !f.has("data"), let path = try f.string("file") {
            self = .file(path)
        } else {
            self = .document(try VisitSnapshot(document: f))
        }
    }
}

/// `visits.list`: `{"dates"?, "employeeId"?, "hour24"?}`: ISO days (duplicates dropped, the
/// first kept; nil when absent), one employee's visits only, the times' style (the host's when
/// absent).
public struct VisitsListRequest: APIRequest {
    public var dates: [CivilDate]?
    public var employeeId: String?
    public var hour24: Bool?

    public init(_ f: Fields) throws(CarFitError) {
        dates = try VisitsListRequest.days(f, key: "dates")
        employeeId = try f.string("employeeId")
        hour24 = try f.bool("hour24")
    }

    /// A request's list of ISO days, duplicates dropped (first kept); nil when absent.
    public static func days(_ f: Fields, key: String) throws(CarFitError) -> [CivilDate]? {
        guard let texts = try f.strings(key) else { return nil }
        var seen = Set<CivilDate>()
        var out: [CivilDate] = []
        for (i, text) in texts.enumerated() {
            guard let date = CivilDate(iso: text) else {
                throw .invalid("\(key)[\(i)]", "\(key)[\(i)] \"\(text.prefix(40))\" is not a valid date (YYYY-MM-DD, years 1 to 9999).")
            }
            if seen.insert(date).inserted { out.append(date) }
        }
        return out
    }
}

/// `visits.set_state`: `{"key", "state", "reason"?}`; `state` one of the four canonical names.
public struct SetStateRequest: APIRequest {
    public var key: String
    public var state: VisitState
    public var reason: String?

    public init(_ f: Fields) throws(CarFitError) {
        key = try f.requiredString("key")
        state = try VisitTransition.requested(try f.requiredString("state"))
        reason = try f.string("reason")
    }
}

/// `visits.acknowledge`: `{"key"}`.
public struct AcknowledgeRequest: APIRequest {
    public var key: String

    public init(_ f: Fields) throws(CarFitError) {
        key = try f.requiredString("key")
    }
}

/// `visits.plan`: `{"date", "employeeId", "start": {"latitude", "longitude"}, "startTime",
/// "speedKmh", "detourFactor", "keepOrder"}`; only `date` is required.
extension PlanRequest: APIRequest {
    public init(_ f: Fields) throws(CarFitError) {
        let dateText = try f.requiredString("date")
        guard let date = CivilDate(iso: dateText) else {
            throw .invalid(f.path("date"), "date \"\(dateText.prefix(40))\" is not a valid day (YYYY-MM-DD, years 1 to 9999).")
        }
        let employeeId = try f.string("employeeId")

        // The ranges of start's coordinates, speedKmh and detourFactor are the schema's, checked
        // at the boundary (`RequestCheck`) before this runs.
        var start: Point?
        if let s = try f.object("start") {
            start = Point(latitude: try PlanRequest.requiredNumber(s, "latitude"),
                          longitude: try PlanRequest.requiredNumber(s, "longitude"))
        }

        var startMinute: Int?
        if let text = try f.string("startTime") {
            guard let minute = TimeOfDay.minutes(text) else {
                throw .invalid(f.path("startTime"), "startTime \"\(text.prefix(40))\" is not a time of day from \"00:00\" to \"23:59\" (HH:mm).")
            }
            startMinute = minute
        }

        let speed = try f.number("speedKmh", in: -Double.greatestFiniteMagnitude...Double.greatestFiniteMagnitude)
        let detour = try f.number("detourFactor", in: -Double.greatestFiniteMagnitude...Double.greatestFiniteMagnitude)
        self.init(date: date, employeeId: employeeId, start: start, startMinute: startMinute,
                  speedKmh: speed ?? PlanRequest.defaultSpeedKmh, detourFactor: detour ?? PlanRequest.defaultDetourFactor)
        keepOrder = try f.bool("keepOrder") ?? false
        if let text = try f.string("durations") {
            guard let durations = Durations(rawValue: text) else {
                throw .invalid(f.path("durations"), "durations must be \"planned\" or \"learned\".")
            }
            self.durations = durations
        }
    }

    private static func requiredNumber(_ f: Fields, _ key: String) throws(CarFitError) -> Double {
        guard let value = try f.number(key, in: -Double.greatestFiniteMagnitude...Double.greatestFiniteMagnitude) else {
            throw .invalid(f.path(key), "\(f.path(key)) is required when start is given.")
        }
        return value
    }
}

// MARK: - Responses

/// An import's answer (`visits.import`, and `visits.refresh` when it stored a document):
/// `{"imported": n, "rejected": [{"index", "field", "message"}, ...]}`.
extension ImportSummary: APIResponse {
    public var json: JSON {
        guard let changes else {
            return .obj(["imported": .int(Int64(imported)), "rejected": .array(rejected.map(\.json))])
        }
        return .obj(["imported": .int(Int64(imported)), "rejected": .array(rejected.map(\.json)),
                     "changes": .array(changes.map(\.json))])
    }
}

/// One of the planner's changes: `{"change", "visitId", "key", "name", "startTimeUtc",
/// "previousStartTimeUtc", "fields"}`.
extension VisitChange: APIResponse {
    public var json: JSON {
        .obj([
            "change": .string(kind.rawValue),
            "visitId": .string(visitId),
            "key": .string(key.text),
            "name": .string(name),
            "startTimeUtc": .string(start.iso),
            "previousStartTimeUtc": .str(previousStart?.iso),
            "fields": .array(fields.map { .string($0.rawValue) }),
        ])
    }
}

/// `visits.refresh`: `RefreshAnswer`, with `"changes": []` when nothing was stored (a 304, or
/// a fresh cache without a request).
public struct VisitsRefreshAnswer: APIResponse {
    public var outcome: RefreshOutcome<ImportSummary>
    public init(_ outcome: RefreshOutcome<ImportSummary>) { self.outcome = outcome }
    public var json: JSON {
        switch outcome {
        case .fresh: .obj(["imported": 0, "fresh": true, "changes": .array([])])
        case .notModified: .obj(["imported": 0, "notModified": true, "changes": .array([])])
        case .stored(let summary): summary.json
        }
    }
}

/// One skipped record of an import: `{"index", "field", "message"}` (the same object the
/// `invalid` error of an import whose records were all rejected lists).
extension Rejection: APIResponse {}

/// A day's (or the list's) summary: `{"visits", "taskMinutes", "distanceMeters", "distanceKm"}`,
/// written by `DayListWriter` with the day list.
extension DaySummary: APIResponse {}

/// A card's `attachments`: `{"photos", "signatures", "notes", "pending"}`.
extension AttachmentCounts: APIResponse {}

/// `visits.plan`: `{"date", "startTime", "stops", "distanceMeters", "originalDistanceMeters",
/// "savedMeters", "lateStops", "originalLateStops", "optimized", "skipped"}`.
extension DayPlan: APIResponse {
    public var json: JSON {
        .obj([
            "date": .string(date.description),
            "startTime": startMinute.map { .string(TimeOfDay.text($0)) } ?? .null,
            "stops": .array(stops.map(\.json)),
            "distanceMeters": .int(Int64(distanceMeters)),
            "originalDistanceMeters": .int(Int64(originalDistanceMeters)),
            "savedMeters": .int(Int64(originalDistanceMeters - distanceMeters)),
            "lateStops": .int(Int64(lateStops)),
            "originalLateStops": .int(Int64(originalLateStops)),
            "optimized": .bool(optimized),
            "skipped": .array(skipped.map {
                .obj(["visitId": .str($0.visitId), "reason": .string($0.reason), "name": .string($0.name)])
            }),
        ])
    }
}

/// One stop of a plan: `{"visitId", "name", "arrival", "departure", "waitMinutes",
/// "lateMinutes", "distanceMeters", "travelMinutes", "serviceMinutes", "window",
/// "expectedTime", "state", "latitude", "longitude"}`.
extension DayPlan.Stop: APIResponse {
    public var json: JSON {
        .obj([
            "visitId": .str(visit.visitId),
            "name": .string(visit.name),
            "arrival": .string(TimeOfDay.text(arrivalMinute)),
            "departure": .string(TimeOfDay.text(departureMinute)),
            "waitMinutes": .int(Int64(waitMinutes)),
            "lateMinutes": .int(Int64(lateMinutes)),
            "distanceMeters": .int(Int64(leg.meters)),
            "travelMinutes": .int(Int64(DayPlan.wholeMinutes(leg.travelMinutes))),
            "serviceMinutes": .int(Int64(visit.taskMinutes)),
            "window": window.map { .string($0.text) } ?? .null,
            "expectedTime": .str(visit.expectedTime),
            "state": .str(visit.state),
            "latitude": .num(visit.latitude),
            "longitude": .num(visit.longitude),
        ])
    }
}

/// The entry points of the operation table (`Manifest.operations`), one per operation, named
/// after its verb: each picks from the core what the function above needs.
extension VisitsAPI {
    public static func `import`(_ context: some OperationContext, _ bytes: UnsafeRawBufferPointer, check: MemberCheck, progress: ProgressStart) throws(CarFitError) -> JSON {
        try importVisits(context.visits, bytes, sources: context.sources, check: check, progress: progress)
    }
    public static func list(_ context: some OperationContext, _ request: Fields) throws(CarFitError) -> JSONBuffer {
        try list(context.visits, request, selected: context.calendarState.selectedDays)
    }
    public static func refresh(_ context: some OperationContext, _ request: Fields) throws(CarFitError) -> JSON {
        try context.refresh(.visits, request)
    }
    public static func plan(_ context: some OperationContext, _ request: Fields) throws(CarFitError) -> JSON {
        try plan(context.visits, request)
    }
    public static func setState(_ context: some OperationContext, _ request: Fields) throws(CarFitError) -> JSONBuffer {
        try setState(context.visits, request)
    }
    public static func acknowledge(_ context: some OperationContext, _ request: Fields) throws(CarFitError) -> JSONBuffer {
        try acknowledge(context.visits, request)
    }
    public static func attach(_ context: some OperationContext, _ request: Fields) throws(CarFitError) -> JSON {
        try AttachmentsAPI.attach(context.attachments, request)
    }
    public static func attachments(_ context: some OperationContext, _ request: Fields) throws(CarFitError) -> JSON {
        try AttachmentsAPI.list(context.attachments, request)
    }
    public static func detach(_ context: some OperationContext, _ request: Fields) throws(CarFitError) -> JSON {
        try AttachmentsAPI.detach(context.attachments, request)
    }
    public static func attachmentData(_ context: some OperationContext, _ request: Fields) throws(CarFitError) -> (bytes: [UInt8], response: JSON) {
        try AttachmentsAPI.data(context.attachments, request, lock: context)
    }
}
