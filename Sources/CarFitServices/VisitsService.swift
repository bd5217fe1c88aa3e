import CarFitCore
import CarFitIO
import CarFitNet
import CarFitStore

/// The visits use-cases: import (streamed or whole), the day list, the refresh from the
/// configured source, the day plan and the washer's state changes.
public struct VisitsService {
    public let db: Database
    public let visits: VisitStore
    /// The washer's changes laid over the stored snapshot, and the outbox.
    public let sync: SyncStore
    public let clock: Clock
    /// Threads a large import parses on besides the calling thread.
    public let importThreads: Int

    public init(db: Database, clock: Clock, importThreads: Int) {
        self.db = db
        visits = VisitStore(db)
        sync = SyncStore(db)
        self.clock = clock
        self.importThreads = importThreads
    }

    /// The longest `reason` a state change takes, in characters.
    public static let maxReasonLength = 1_000

    /// The washer changes a visit's state: `{"key", "state", "reason"}`. The change, the card's
    /// new state and the outbox entry are one transaction; answers `{"visit": card}`.
    /// `not_found` for a key no stored visit has; `invalid` for a state that is not one of the
    /// four, a reason too long, or a visit without a visitId (the update server could not tell
    /// which visit changed); `conflict` for a change the rules refuse.
    public func setState(_ request: Fields) throws(CarFitError) -> JSONBuffer {
        let keyText = try request.requiredString("key")
        let target = try VisitTransition.requested(try request.requiredString("state"))
        let reason = try request.string("reason")
        if let reason, reason.count > VisitsService.maxReasonLength {
            throw .invalid("reason", "reason is longer than \(VisitsService.maxReasonLength) characters.")
        }
        let notFound = CarFitError(.notFound, "No stored visit has the key \"\(keyText.prefix(80))\".", field: "key")
        guard let key = VisitKey(text: keyText) else { throw notFound }
        let now = clock.now
        let store = visits
        let sync = sync
        try db.transaction { () throws(CarFitError) in
            guard let visit = try store.visit(key) else { throw notFound }
            guard visit.visitId != nil else {
                throw CarFitError(.invalid, "This visit has no visitId, so the update server could not tell which visit changed; its state cannot be set.",
                                  field: "key")
            }
            var overlay = try sync.overlay(key)
            var random = KernelRandom()
            let change = try overlay.record(target, at: now, mutationId: UUIDv4.make(using: &random),
                                            reason: reason, snapshotState: visit.state, snapshotTimeUsed: visit.timeUsed)
            try sync.append(change, for: key)
            try sync.saveOverlay(overlay, for: key)
        }
        guard let date = clock.localDate(key.start) else {
            throw CarFitError(.internal, "The changed visit has no card on its own day.")
        }
        let range = clock.dayRange(for: date)
        guard let card = try DayListWriter.card(
                key, on: date, clock: clock, hour24: clock.hour24,
                local: try sync.shown(startingIn: range),
                arrivals: try LocationStore(db).arrivals(startingIn: range),
                attachments: try AttachmentStore(db).counts(startingIn: range),
                rows: { range, add throws(CarFitError) in try store.forEachVisit(startingIn: range, add) })
        else {
            throw CarFitError(.internal, "The changed visit has no card on its own day.")
        }
        return card
    }

    /// Replaces the stored snapshot with the document's valid records, streaming the usual
    /// shape and parsing anything else whole. A document with records of which none is valid
    /// is `invalid` and changes nothing. `progress`, given the size in bytes of what is read
    /// (the request, or the file a `{"file"}` request names), may answer a reporter that hears
    /// how many of those bytes are read, and the complete count once the import has succeeded.
    public func importVisits(_ bytes: UnsafeRawBufferPointer,
                             progress: (Int) -> ProgressReporter? = { _ in nil }) throws(CarFitError) -> JSON {
        let store = visits
        let reporter = progress(bytes.count)
        if case .imported(let response) = try VisitDocumentStream.importVisits(
            bytes, threads: importThreads, consumed: { done in reporter?.advance(to: Int64(done)) },
            begin: { () throws(CarFitError) in try store.beginSnapshot() }) {
            reporter?.finish()
            return response
        }
        let response = try importVisits(try JanssonParser.object(bytes), progress: progress)
        reporter?.finish()
        return response
    }

    /// Replaces the stored snapshot with the document's valid records; a request without
    /// `data` whose `file` names a path imports that file (`importFile`, with `progress`).
    public func importVisits(_ request: Fields,
                             progress: (Int) -> ProgressReporter? = { _ in nil }) throws(CarFitError) -> JSON {
        if !request.has("data"), let path = try request.string("file") {
            return try importFile(path, progress: progress)
        }
        let snapshot = try VisitSnapshot(document: request)
        try visits.replaceAll(with: snapshot.visits)
        return snapshot.response
    }

    /// The cards of the asked days (else `selected`, the calendar's selection), each day once,
    /// in order, written straight from the stored rows.
    public func list(_ request: Fields, selected: [CivilDate]) throws(CarFitError) -> JSONBuffer {
        let dates = try VisitsService.requestedDays(request, key: "dates") ?? selected
        let employee = try request.string("employeeId")
        let hour24 = try request.bool("hour24") ?? clock.hour24
        let store = visits
        let sync = sync
        let road = LocationStore(db)
        var writer = DayListWriter(clock: clock, hour24: hour24)
        // The overlays' tables are looked at once per call; an empty one is not queried per day.
        let overlays = dates.isEmpty ? DayOverlays() : try DayOverlays.read(db)
        let attachments = AttachmentStore(db)
        for date in dates {
            let range = clock.dayRange(for: date)
            try writer.writeDay(date, range: range,
                                local: overlays.shown ? try sync.shown(startingIn: range) : [:],
                                arrivals: overlays.arrivals ? try road.arrivals(startingIn: range) : [:],
                                attachments: overlays.attachments ? try attachments.counts(startingIn: range) : [:]) {
                range, add throws(CarFitError) in
                try store.forEachVisit(startingIn: range, employeeId: employee, add)
            }
        }
        return writer.finish()
    }

    /// Fetches `source` and imports it as `importVisits` does: the body is downloaded to a
    /// temporary file and read from there by the import's streaming reader, which commits the
    /// snapshot only after the document's last byte; anything that reader does not take is
    /// parsed whole, so that a document that is not a visits document is reported as such. Any
    /// failure leaves the stored visits as they were. `lock` is taken only once the body has
    /// arrived. `progress` hears one run over twice the body's size: the download is its first
    /// half, the import of the body the second (its `finish` is the caller's, once all succeeded).
    public func refresh(url: String, http: HTTPClient, validators: SourceValidators = SourceValidators(),
                        lock: some Serializer, progress: ProgressReporter? = nil,
                        commit: RefreshCommit = { _, _ in }) throws(CarFitError) -> RefreshOutcome<JSON> {
        switch try SourceFetch.fetch(url, http: http, validators: validators, what: "visits", progress: progress, phases: 2) {
        case .notModified: return .notModified
        case .body(let body):
            return .stored(try refresh(body, lock: lock, progress: progress) { () throws(CarFitError) in
                try commit(body.response.etag, body.response.lastModified)
            })
        }
    }

    /// Imports a fetched body as the refresh does; `progress` hears the bytes imported after
    /// the body's size (the download's half of the run). `commit` runs in the import's
    /// transaction.
    func refresh(_ body: SourceFetch.Body, lock: some Serializer, progress: ProgressReporter? = nil,
                 commit: () throws(CarFitError) -> Void = {}) throws(CarFitError) -> JSON {
        let store = visits
        let db = db
        let threads = importThreads
        let file = body.file
        let reporter = progress
        let downloaded = Int64(file.count)
        let streamed: StreamedImport
        do throws(CarFitError) {
            streamed = try lock.locked { () throws(CarFitError) in
                try db.transaction { () throws(CarFitError) in
                    let streamed = try VisitDocumentStream.importVisits(
                        file: file, threads: threads,
                        consumed: { done in reporter?.advance(to: downloaded + Int64(done)) },
                        begin: { () throws(CarFitError) in try store.beginSnapshot() })
                    if case .imported = streamed { try commit() }
                    return streamed
                }
            }
        } catch where error.status == .invalid {
            // The streamed reader refuses a document only when all its records were rejected.
            throw SourceFetch.notDocument(body.url, what: "visits", error)
        }
        if case .imported(let response) = streamed { return response }
        let document = try SourceFetch.document(body, what: "visits")
        let snapshot: VisitSnapshot
        do throws(CarFitError) {
            snapshot = try VisitSnapshot(document: document)
        } catch {
            throw SourceFetch.notDocument(body.url, what: "visits", error)
        }
        let response = try lock.locked { () throws(CarFitError) in
            try db.transaction { () throws(CarFitError) in
                try store.replaceAll(with: snapshot.visits)
                try commit()
                return snapshot.response
            }
        }
        return response
    }

    /// Imports the visits document in the file at `path` as `importVisits` does, reading it
    /// through a window that moves along the file rather than into memory. A file that cannot
    /// be read is `invalid`, field `file`, with the system's reason. A file that another
    /// process shrinks or rewrites meanwhile is read as it is found: the import fails
    /// (`bad_json`, or `invalid` for a failed read) or stores what was read, whole, never a
    /// part of it. `progress`, given the file's size, may answer a reporter of the bytes read.
    public func importFile(_ path: String,
                           progress: (Int) -> ProgressReporter? = { _ in nil }) throws(CarFitError) -> JSON {
        let file = try FileReader(path: path, field: "file")
        let store = visits
        let threads = importThreads
        let reporter = progress(file.count)
        let response: JSON
        if case .imported(let streamed) = try VisitDocumentStream.importVisits(
            file: file, threads: threads,
            consumed: { done in reporter?.advance(to: Int64(min(done, file.count))) },
            begin: { () throws(CarFitError) in try store.beginSnapshot() }) {
            response = streamed
        } else {
            let document = try JanssonParser.object(file: file, what: "visits file")
            // A file read as something other than a visits document (empty, or rewritten by
            // another process meanwhile) is the file's fault, not a member's.
            guard document.has("data") else {
                throw .invalid("file", "The visits file holds no \"data\" array of visits.")
            }
            let snapshot = try VisitSnapshot(document: document)
            try store.replaceAll(with: snapshot.visits)
            response = snapshot.response
        }
        reporter?.finish()
        return response
    }

    /// The order to drive a day's open visits in, with arrival and departure times.
    public func plan(_ request: Fields) throws(CarFitError) -> JSON {
        var plan = try PlanRequest(request)
        let visits = try visitsOn(plan.date, employeeId: plan.employeeId)
        if plan.date == clock.today { try live(&plan, visits: visits) }
        return try DayPlan(request: plan, visits: visits, clock: clock).json
    }

    /// Today's plan starts from where and when the washer is: without `start`, the position
    /// when it was reported today; without `startTime`, the later of now (rounded down to the
    /// minute) and the earliest start of the day's stops.
    func live(_ plan: inout PlanRequest, visits: [Visit]) throws(CarFitError) {
        if plan.start == nil, let position = try LocationStore(db).state().position,
           clock.localDate(position.at) == plan.date {
            plan.start = PlanRequest.Point(latitude: position.latitude, longitude: position.longitude)
        }
        if plan.startMinute == nil,
           let first = visits.first(where: { DayPlan.skipReason($0) == nil && $0.coordinate != nil }) {
            plan.startMinute = max(clock.localMinuteOfDay(clock.now), clock.localMinuteOfDay(first.start))
        }
    }

    /// The visits whose local start day is `date`, in start order (ties in snapshot order),
    /// each with the state the washer's changes show.
    public func visitsOn(_ date: CivilDate, employeeId: String?) throws(CarFitError) -> [Visit] {
        let range = clock.dayRange(for: date)
        let changed = try sync.shown(startingIn: range)
        return try visits.visits(startingIn: range, employeeId: employeeId)
            .filter { clock.localDate($0.start) == date }
            .map { visit in
                guard !changed.isEmpty,
                      let shown = changed[VisitKey(visitId: visit.visitId, start: visit.start, repetition: visit.repetition)]
                else { return visit }
                var local = visit
                local.state = shown.state
                if let used = shown.timeUsedMinutes { local.timeUsed = used }
                return local
            }
    }

    /// A request's list of ISO days, duplicates dropped (first kept); nil when absent.
    public static func requestedDays(_ request: Fields, key: String) throws(CarFitError) -> [CivilDate]? {
        guard let texts = try request.strings(key) else { return nil }
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
