import CarFitCore
import CarFitSystem
import CarFitStore

/// The washer's work on its way to the server, and the only writer of what keeps it: the outbox
/// (`local_changes`), each changed visit's overlay (`visit_local`), the push's bookkeeping
/// (`sync_state`, `sync_rejected`), the conflicts the server's rejections leave
/// (`visit_conflicts`) and the visits a snapshot no longer lists kept for their work
/// (`visits_removed`). `visits.set_state`, the arrivals that start a visit, a snapshot being
/// stored, the push's answers and failures, and `visits.acknowledge` all go through here.
public struct OutboxService {
    public let db: Database
    public let clock: Clock
    let store: SyncStore
    let visits: VisitStore

    public init(db: Database, clock: Clock) {
        self.db = db
        self.clock = clock
        store = SyncStore(db)
        visits = VisitStore(db)
    }

    /// How long the washer's facts (`FactStore`: starts, finishes, rejections) are kept.
    public var report = ReportConfig()

    /// A change made to a visit: its key and its local day (whose card shows it).
    public struct Change: Sendable, Equatable {
        public var key: VisitKey
        public var date: CivilDate
    }

    private func missing(_ keyText: String) -> CarFitError {
        CarFitError(.notFound, "No stored visit has the key \"\(keyText.prefix(80))\".", field: "key")
    }

    // MARK: The washer's changes

    /// The washer changes the state of the visit `keyText` to `target`, with `reason`. The
    /// change, the card's new state and the outbox entry are one transaction. A visit a snapshot
    /// no longer lists but that is still on its day (it has work) takes changes too. `not_found`
    /// for a key no listed visit has; `invalid` for a visit without a visitId (a reason's length is
    /// the request's, checked at the boundary against the schema) (the update server could not tell which visit changed);
    /// `conflict` for a change the rules refuse (`VisitTransition`).
    public func setState(keyText: String, to target: VisitState, reason: String?) throws(CarFitError) -> Change {
        let notFound = missing(keyText)
        guard let key = VisitKey(text: keyText) else { throw notFound }
        let now = clock.now
        let visits = visits
        let store = store
        let facts = FactStore(db)
        let keepDays = report.keepDays
        try db.transaction { () throws(CarFitError) in
            guard let visit = try visits.visit(key, removed: true) else { throw notFound }
            guard visit.visitId != nil else {
                throw CarFitError(.invalid, "This visit has no visitId, so the update server could not tell which visit changed; its state cannot be set.",
                                  field: "key")
            }
            var overlay = try store.overlay(key)
            var random = KernelRandom()
            let change = try overlay.record(target, at: now, mutationId: UUIDv4.make(using: &random),
                                            reason: reason, snapshotState: visit.state, snapshotTimeUsed: visit.timeUsed)
            try store.append(change, for: key)
            try store.saveOverlay(overlay, for: key)
            try facts.record(key, target, at: now, tasks: visit.plannedTasks, keepDays: keepDays, now: now)
        }
        return try change(key)
    }

    /// An arrival starts the visit `key` as `setState` would: the change to InProgress at the
    /// arrival's instant, its overlay and its outbox entry, inside the caller's transaction (the
    /// location report's). A visit without a visitId (which the update server could not name),
    /// or one the rules do not let start, is left as it is.
    func startOnArrival(_ key: VisitKey, at: Instant) throws(CarFitError) {
        guard let visit = try visits.visit(key), visit.visitId != nil else { return }
        var overlay = try store.overlay(key)
        var random = KernelRandom()
        let change: LocalChange
        do throws(CarFitError) {
            change = try overlay.record(.inProgress, at: at, mutationId: UUIDv4.make(using: &random), reason: nil,
                                        snapshotState: visit.state, snapshotTimeUsed: visit.timeUsed)
        } catch where error.status == .conflict {
            return
        }
        try store.append(change, for: key)
        try store.saveOverlay(overlay, for: key)
        try FactStore(db).record(key, .inProgress, at: at, tasks: visit.plannedTasks, keepDays: report.keepDays, now: clock.now)
    }

    /// The washer acknowledges the conflict of the visit `keyText`: it leaves the card (and a
    /// removed visit with no other work leaves its day). Local only: nothing is sent.
    /// `not_found` for a key no listed visit has; `conflict` (field `key`) for a visit without
    /// a conflict.
    public func acknowledge(keyText: String) throws(CarFitError) -> Change {
        let notFound = missing(keyText)
        guard let key = VisitKey(text: keyText) else { throw notFound }
        let visits = visits
        let store = store
        try db.transaction { () throws(CarFitError) in
            guard try visits.visit(key, removed: true) != nil else { throw notFound }
            guard try store.clearConflict(key) else {
                throw CarFitError(.conflict, "The visit \"\(keyText.prefix(80))\" has no conflict to acknowledge.", field: "key")
            }
        }
        return try change(key)
    }

    private func change(_ key: VisitKey) throws(CarFitError) -> Change {
        guard let date = clock.localDate(key.start) else {
            throw CarFitError(.internal, "The changed visit has no card on its own day.")
        }
        return Change(key: key, date: date)
    }

    // MARK: Snapshots

    /// What a snapshot replacing the stored visits does to the washer's work, in its
    /// transaction (`VisitStore.beginSnapshot`, `replaceAll`): visits with work stay listed, and
    /// the overlays drop what the snapshot now says.
    public var snapshotHooks: VisitStore.SnapshotHooks { store.snapshotHooks }

    // MARK: Reading

    /// The washer's changes shown on the visits starting in `range`, by key.
    public func shown(startingIn range: Range<Int64>) throws(CarFitError) -> [VisitKey: ShownVisit] {
        try store.shown(startingIn: range)
    }

    /// `visits` (stored visits starting in `range`) each with the state and time used the
    /// washer's changes show.
    public func shown(_ visits: [Visit], startingIn range: Range<Int64>) throws(CarFitError) -> [Visit] {
        let changed = try store.shown(startingIn: range)
        guard !changed.isEmpty else { return visits }
        return visits.map { visit in
            guard let shown = changed[VisitKey(visitId: visit.visitId, start: visit.start, repetition: visit.repetition)]
            else { return visit }
            var local = visit
            local.state = shown.state
            if let used = shown.timeUsedMinutes { local.timeUsed = used }
            return local
        }
    }

    /// What the outbox adds to the cards of the visits starting in `range` that have anything
    /// to add (removed with work, or a conflict), by key; `present` says which tables to read.
    public func cards(startingIn range: Range<Int64>, present: DayOverlays = DayOverlays()) throws(CarFitError) -> [VisitKey: CardOutbox] {
        var out: [VisitKey: CardOutbox] = [:]
        if present.removed {
            for key in try store.removed(startingIn: range) { out[key] = CardOutbox(removed: true) }
        }
        if present.conflicts {
            for (key, conflict) in try store.conflicts(startingIn: range) { out[key, default: CardOutbox()].conflict = conflict }
        }
        return out
    }

    // MARK: The push's bookkeeping

    public func state() throws(CarFitError) -> SyncState { try store.state() }

    public func pendingCount() throws(CarFitError) -> Int { try store.pendingCount() }

    public func rejected() throws(CarFitError) -> [RejectedChange] { try store.rejected() }

    /// The next request of a push: the oldest `PushRequest.maxMutations` pending entries, nil
    /// when none waits.
    public func nextRequest() throws(CarFitError) -> PushRequest? {
        let pending = try store.pending(limit: PushRequest.maxMutations)
        return pending.isEmpty ? nil : PushRequest(clientId: try store.state().clientId, mutations: pending)
    }

    /// Commits an answer (`SyncStore.record`) and the push's success in one transaction; the
    /// answer's conflicts are for the change feed once committed.
    public func recordAnswer(_ outcome: PushOutcome) throws(CarFitError) -> SyncStore.Recorded {
        let store = store
        let now = clock.now
        return try db.transaction { () throws(CarFitError) -> SyncStore.Recorded in
            let recorded = try store.record(outcome)
            var state = try store.state()
            state.succeeded(at: now)
            try store.save(state)
            return recorded
        }
    }

    /// A request of the push was answered (the trail's, the attachments'): the failures and
    /// the backoff are forgotten. Inside the caller's transaction when it has one.
    public func succeeded() throws(CarFitError) {
        let store = store
        let now = clock.now
        try db.transaction { () throws(CarFitError) in
            var state = try store.state()
            state.succeeded(at: now)
            try store.save(state)
        }
    }

    /// A request of the push failed with `error`: a 401 or 403 is recorded as a refusal that
    /// does not grow the backoff, anything else as a failure that sets it.
    public func failed(_ error: CarFitError) throws(CarFitError) {
        let store = store
        let now = clock.now
        try db.transaction { () throws(CarFitError) in
            var state = try store.state()
            if error.status == .unauthorized {
                state.refused(at: now, error: error)
            } else {
                var random = KernelRandom()
                state.failed(at: now, error: error, random: &random)
            }
            try store.save(state)
        }
    }
}
