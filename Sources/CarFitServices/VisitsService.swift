import CarFitCore
import CarFitSystem
import CarFitIO
import CarFitNet
import CarFitStore

/// The visits use-cases: import (streamed or whole), the day list, the refresh from the
/// configured source, the day plan and the washer's state changes.
public struct VisitsService {
    public let db: Database
    public let visits: VisitStore
    /// The washer's changes laid over the stored snapshot, the outbox and what a snapshot does
    /// to them: the one writer of the washer's work.
    public private(set) var outbox: OutboxService
    public let clock: Clock
    /// Threads a large import parses on besides the calling thread.
    public let importThreads: Int
    /// The day list's answers the core keeps ready (`DayAnswers`); nil: every answer is written.
    public var dayAnswers: DayAnswers?
    /// How long the washer's facts are kept, and the learned plans' sample minimum.
    public var report = ReportConfig() {
        didSet { outbox.report = report }
    }

    public init(db: Database, clock: Clock, importThreads: Int) {
        self.db = db
        visits = VisitStore(db)
        outbox = OutboxService(db: db, clock: clock)
        self.clock = clock
        self.importThreads = importThreads
    }

    /// A state change made: the changed visit's key and its local day (whose card shows it).
    public typealias StateChange = OutboxService.Change

    /// The washer changes the state of the visit `keyText` to `target` (`OutboxService.setState`).
    public func setState(keyText: String, to target: VisitState, reason: String?) throws(CarFitError) -> StateChange {
        try outbox.setState(keyText: keyText, to: target, reason: reason)
    }

    // MARK: - Import

    /// Replaces the stored snapshot with the valid records of the visits document `bytes`, read
    /// as it streams (`VisitDocumentStream`); nil, with nothing stored, when the document is not
    /// of the usual shape (the caller then reads it whole: `importSnapshot`, `importFile`). A
    /// document with records of which none is valid is `invalid` and changes nothing.
    /// `reporter` hears how many of the bytes are read. `commit` runs in the import's
    /// transaction once the snapshot is written: what is recorded with it is committed with it.
    /// `members` gets the document's members besides `data` once it is read (the request's
    /// check of them): what it throws leaves the stored visits as they were.
    public func importStreamed(_ bytes: UnsafeRawBufferPointer, reporter: ProgressReporter? = nil,
                               members: VisitDocumentStream.OtherMembers = { _ in },
                               commit: () throws(CarFitError) -> Void = {}) throws(CarFitError) -> ImportSummary? {
        let store = visits
        let hooks = outbox.snapshotHooks
        let threads = importThreads
        return try streamed(commit: commit) { () throws(CarFitError) in
            try VisitDocumentStream.importVisits(
                bytes, threads: threads, consumed: { done in reporter?.advance(to: Int64(done)) }, members: members,
                begin: { () throws(CarFitError) in try store.beginSnapshot(hooks) })
        }
    }

    /// Runs the streamed import `run` in one transaction with `commit`: its summary once both
    /// are committed; nil when the document was declined, with the transaction rolled back, so
    /// that nothing is committed (nor reported as changed) for it.
    private func streamed(commit: () throws(CarFitError) -> Void,
                          _ run: () throws(CarFitError) -> StreamedImport) throws(CarFitError) -> ImportSummary? {
        let level = try db.beginTransaction()
        do throws(CarFitError) {
            let before = try comparedBefore()
            guard case .imported(var summary) = try run() else {
                db.rollback(level)
                return nil
            }
            summary.changes = try changes(since: before)
            try commit()
            try db.commit(level)
            return summary
        } catch {
            db.rollback(level)
            throw error
        }
    }

    /// Replaces the stored snapshot with `snapshot`'s visits; `commit` runs in the same
    /// transaction.
    public func importSnapshot(_ snapshot: VisitSnapshot,
                               commit: () throws(CarFitError) -> Void = {}) throws(CarFitError) -> ImportSummary {
        try replace(with: snapshot, commit: commit)
    }

    /// Replaces the stored snapshot with `snapshot`'s visits in one transaction with `commit`:
    /// its summary with the planner's changes.
    func replace(with snapshot: VisitSnapshot, commit: () throws(CarFitError) -> Void) throws(CarFitError) -> ImportSummary {
        let store = visits
        let hooks = outbox.snapshotHooks
        return try db.transaction { () throws(CarFitError) -> ImportSummary in
            let before = try comparedBefore()
            try store.replaceAll(with: snapshot.visits, hooks: hooks)
            var summary = snapshot.summary
            summary.changes = try changes(since: before)
            try commit()
            return summary
        }
    }

    // MARK: - The planner's changes

    /// What the snapshot being replaced holds for the comparison: nil when none was ever
    /// stored (the first snapshot yields no changes), else its occurrences from today's first
    /// instant on, read in the import's transaction before anything is replaced.
    func comparedBefore() throws(CarFitError) -> [VisitOccurrence]? {
        guard try visits.hasSnapshot() else { return nil }
        return try visits.occurrences(from: comparedFrom)
    }

    /// The changes of the snapshot just written (in the same transaction) against `before`,
    /// and the record that a snapshot is stored.
    func changes(since before: [VisitOccurrence]?) throws(CarFitError) -> [VisitChange] {
        try visits.snapshotStored()
        guard let before else { return [] }
        let after = try visits.occurrences(from: comparedFrom)
        guard let today = clock.today else { return [] }
        let clock = clock
        // Beyond today's widest range an occurrence is surely of a later day.
        let later = clock.dayRange(for: today).upperBound
        return VisitChanges.compare(old: before, new: after) { start in
            if start.milliseconds >= later { return true }
            guard let day = clock.localDate(start) else { return false }
            return day >= today
        }
    }

    /// The first instant (ms) an occurrence of today or later can start at.
    var comparedFrom: Int64 {
        guard let today = clock.today else { return Int64.max }
        return clock.dayRange(for: today).lowerBound
    }

    /// Fetches `source` and imports it as the host's import does: the body is downloaded to a
    /// temporary file and read from there by the import's streaming reader, which commits the
    /// snapshot only after the document's last byte; anything that reader does not take is
    /// parsed whole, so that a document that is not a visits document is reported as such. Any
    /// failure leaves the stored visits as they were. `lock` is taken only once the body has
    /// arrived. `progress` hears one run over twice the body's size: the download is its first
    /// half, the import of the body the second (its `finish` is the caller's, once all succeeded).
    public func refresh(url: String, http: HTTPClient, validators: SourceValidators = SourceValidators(),
                        lock: some Serializer, progress: ProgressReporter? = nil,
                        commit: RefreshCommit = { _, _ in }) throws(CarFitError) -> RefreshOutcome<ImportSummary> {
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
                 commit: () throws(CarFitError) -> Void = {}) throws(CarFitError) -> ImportSummary {
        let store = visits
        let hooks = outbox.snapshotHooks
        let threads = importThreads
        let file = body.file
        let reporter = progress
        let downloaded = Int64(file.count)
        let streamed: ImportSummary?
        do throws(CarFitError) {
            streamed = try lock.locked { () throws(CarFitError) in
                try self.streamed(commit: commit) { () throws(CarFitError) in
                    try VisitDocumentStream.importVisits(
                        file: file, threads: threads,
                        consumed: { done in reporter?.advance(to: downloaded + Int64(done)) },
                        begin: { () throws(CarFitError) in try store.beginSnapshot(hooks) })
                }
            }
        } catch where error.status == .invalid {
            // The streamed reader refuses a document only when all its records were rejected.
            throw SourceFetch.notDocument(body.url, what: "visits", error)
        }
        if let streamed { return streamed }
        let snapshot = try SourceFetch.document(body, what: "visits", VisitSnapshot.init(document:))
        return try lock.locked { () throws(CarFitError) -> ImportSummary in
            try replace(with: snapshot, commit: commit)
        }
    }

    /// Imports the visits document in the file at `path` as the host's import does, reading it
    /// through a window that moves along the file rather than into memory. A file that cannot
    /// be read is `invalid`, field `file`, with the system's reason. A file that another
    /// process shrinks or rewrites meanwhile is read as it is found: the import fails
    /// (`bad_json`, or `invalid` for a failed read) or stores what was read, whole, never a
    /// part of it. `progress`, given the file's size, may answer a reporter of the bytes read.
    /// `commit` runs in the import's transaction.
    public func importFile(_ path: String, progress: (Int) -> ProgressReporter? = { _ in nil },
                           commit: () throws(CarFitError) -> Void = {}) throws(CarFitError) -> ImportSummary {
        let file = try FileReader(path: path, field: "file")
        let store = visits
        let hooks = outbox.snapshotHooks
        let threads = importThreads
        let reporter = progress(file.count)
        let summary: ImportSummary
        if let streamed = try streamed(commit: commit, { () throws(CarFitError) in
            try VisitDocumentStream.importVisits(
                file: file, threads: threads,
                consumed: { done in reporter?.advance(to: Int64(min(done, file.count))) },
                begin: { () throws(CarFitError) in try store.beginSnapshot(hooks) })
        }) {
            summary = streamed
        } else {
            summary = try importSnapshot(try VisitSnapshot(file: file), commit: commit)
        }
        reporter?.finish()
        return summary
    }

    // MARK: - Day list

    /// What is laid over a day's stored visits on their cards: the washer's changes shown,
    /// the arrivals and departures, the attachment counts, each by visit key.
    public struct DayOverlay {
        public var local: [VisitKey: ShownVisit] = [:]
        public var arrivals: [VisitKey: VisitArrival] = [:]
        public var attachments: [VisitKey: AttachmentCounts] = [:]
        /// Removed with work, and conflicts.
        public var outbox: [VisitKey: CardOutbox] = [:]
    }

    /// Which overlay tables hold anything (one query; an empty table need not be read per day).
    public func presentOverlays() throws(CarFitError) -> DayOverlays {
        try DayOverlays.read(db)
    }

    /// The overlays of the visits starting in `range` (a day's `Clock.dayRange`), those of
    /// `present`'s tables only.
    public func overlay(startingIn range: Range<Int64>, present: DayOverlays = DayOverlays()) throws(CarFitError) -> DayOverlay {
        DayOverlay(local: present.shown ? try outbox.shown(startingIn: range) : [:],
                   arrivals: present.arrivals ? try LocationStore(db).arrivals(startingIn: range) : [:],
                   attachments: present.attachments ? try AttachmentStore(db).counts(startingIn: range) : [:],
                   outbox: present.conflicts || present.removed ? try outbox.cards(startingIn: range, present: present) : [:])
    }

    /// Hands `body` each stored visit starting in `range`, in start order with ties in snapshot
    /// order, optionally only `employeeId`'s; each row is valid only during its call. With
    /// `removed`, the visits a snapshot no longer lists that still have work come too.
    public func forEachVisit(startingIn range: Range<Int64>, employeeId: String? = nil, removed: Bool = false,
                             _ body: (VisitRow) throws(CarFitError) -> Void) throws(CarFitError) {
        try visits.forEachVisit(startingIn: range, employeeId: employeeId, removed: removed, body)
    }

    // MARK: - Plan

    /// The order to drive a day's open visits in, with arrival and departure times. Today's plan
    /// starts from where and when the washer is (`live`).
    public func plan(_ request: PlanRequest) throws(CarFitError) -> DayPlan {
        var plan = request
        var visits = try visitsOn(plan.date, employeeId: plan.employeeId)
        if plan.durations == .learned { visits = try learned(visits) }
        if plan.date == clock.today { try live(&plan, visits: visits) }
        return try DayPlan(request: plan, visits: visits, clock: clock)
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
        return try outbox.shown(try visits.visits(startingIn: range, employeeId: employeeId)
            .filter { clock.localDate($0.start) == date }, startingIn: range)
    }

    /// The cards of the local date `date` as `visits.list` shows them, in its order: the stored
    /// visits and those the planner removed that still have work here (`removed` true), each
    /// with the state and time used the washer's changes show.
    public func cardsOn(_ date: CivilDate, employeeId: String?) throws(CarFitError) -> [(visit: Visit, removed: Bool)] {
        let range = clock.dayRange(for: date)
        let cards = try visits.visitsShown(startingIn: range, employeeId: employeeId).filter { clock.localDate($0.visit.start) == date }
        let shown = try outbox.shown(cards.map(\.visit), startingIn: range)
        return zip(shown, cards).map { ($0, $1.removed) }
    }
}
