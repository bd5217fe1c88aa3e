import CarFitCore

/// The washer's updates as stored: the outbox (`local_changes`, oldest first), each changed
/// visit's overlay as the day query shows it (`visit_local`), the push's bookkeeping
/// (`sync_state`, with the database's client id) and the last rejected changes.
///
/// Every function runs inside the caller's transaction where it writes several rows: a change,
/// its card and its outbox entry are one commit, and so are a push's answer and its effects.
public struct SyncStore {
    let db: Database

    public init(_ db: Database) { self.db = db }

    /// The most rejected changes kept for the status.
    public static let rejectedKept = 100

    // MARK: Overlays

    /// The overlay of the visit `key`: its recorded start and its changes still kept, oldest first.
    public func overlay(_ key: VisitKey) throws(CarFitError) -> VisitOverlay {
        let text = key.text
        var overlay = VisitOverlay()
        let base = try db.statement("SELECT base_started_ms FROM visit_local WHERE visit_key = ?1")
        defer { base.reset() }
        try base.bind(1, text)
        if try base.step() { overlay.baseStartedAt = base.int(0).map(Instant.init(milliseconds:)) }
        let s = try db.statement("""
            SELECT mutation_id, state, at_ms, time_used, reason, status FROM local_changes
            WHERE visit_key = ?1 ORDER BY seq
            """)
        defer { s.reset() }
        try s.bind(1, text)
        while try s.step() {
            guard let id = s.text(0), let state = s.text(1).flatMap(VisitState.init(rawValue:)) else { continue }
            overlay.changes.append(LocalChange(
                mutationId: id, state: state, at: Instant(milliseconds: s.int(2) ?? 0),
                timeUsedMinutes: s.int(3).map { Int(clamping: $0) }, reason: s.text(4),
                status: s.text(5) == LocalChange.Status.applied.rawValue ? .applied : .pending))
        }
        return overlay
    }

    /// Writes what the day query shows of `overlay` for the visit `key` (forgets the visit
    /// when nothing is left to remember). The changes themselves are in `local_changes`.
    public func saveOverlay(_ overlay: VisitOverlay, for key: VisitKey) throws(CarFitError) {
        if overlay.isEmpty {
            try db.run("DELETE FROM visit_local WHERE visit_key = ?1", [.text(key.text)])
            return
        }
        let last = overlay.changes.last
        let used = last.flatMap { $0.state == .done ? $0.timeUsedMinutes : nil }
        try db.run("""
            INSERT OR REPLACE INTO visit_local (visit_key, visit_id, start_ms, repetition, base_started_ms,
                                                shown_state, pending, time_used)
            VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8)
            """, [.text(key.text), key.visitId.map(SQLValue.text) ?? .null, .int(key.start.milliseconds),
                  .int(Int64(key.repetition)), overlay.baseStartedAt.map { .int($0.milliseconds) } ?? .null,
                  last.map { .text($0.state.rawValue) } ?? .null, .int(overlay.isPending ? 1 : 0),
                  used.map { .int(Int64($0)) } ?? .null])
    }

    /// The overlays shown on visits starting in `range` (ms since the epoch), by key: empty (and
    /// one index probe) on a day nobody changed. `timeUsedMinutes` is the local value only
    /// (nil: the snapshot's shows).
    public func shown(startingIn range: Range<Int64>) throws(CarFitError) -> [VisitKey: ShownVisit] {
        let s = try db.statement("""
            SELECT visit_id, start_ms, repetition, shown_state, pending, time_used FROM visit_local
            WHERE start_ms >= ?1 AND start_ms < ?2 AND shown_state IS NOT NULL
            """)
        defer { s.reset() }
        try s.bind(1, range.lowerBound)
        try s.bind(2, range.upperBound)
        var out: [VisitKey: ShownVisit] = [:]
        while try s.step() {
            guard let state = s.text(3) else { continue }
            let key = VisitKey(visitId: s.text(0), start: Instant(milliseconds: s.int(1) ?? 0),
                               repetition: Int(clamping: s.int(2) ?? 0))
            out[key] = ShownVisit(state: state, pending: s.int(4) == 1, timeUsedMinutes: s.int(5).map { Int(clamping: $0) })
        }
        return out
    }

    /// What a snapshot replacing the stored visits does to the washer's work, in its transaction:
    /// the visits with work are kept (`keepVisitsWithWork`), then the overlays and the kept
    /// visits follow the new snapshot (`snapshotStored`).
    public var snapshotHooks: VisitStore.SnapshotHooks {
        let store = self
        return VisitStore.SnapshotHooks(willReplace: { () throws(CarFitError) in try store.keepVisitsWithWork() },
                                        stored: { () throws(CarFitError) in try store.snapshotStored() })
    }

    /// A snapshot has just been written (inside its transaction): each overlay drops the
    /// applied changes before its first pending one, by `VisitOverlay.snapshotStored`. Costs
    /// in proportion to the overlays, not to the snapshot; an overlay with nothing applied and
    /// something pending (the usual outbox of an offline van) stays as it is and is not read.
    func snapshotStored() throws(CarFitError) {
        let rows = try db.query("""
            SELECT visit_key FROM visit_local AS l
            WHERE l.pending = 0
               OR EXISTS (SELECT 1 FROM local_changes AS c WHERE c.visit_key = l.visit_key AND c.status = 'applied')
            """)
        let visits = VisitStore(db)
        for row in rows {
            guard case .text(let text)? = row.first else { continue }
            guard let key = VisitKey(text: text) else {
                try db.run("DELETE FROM visit_local WHERE visit_key = ?1", [.text(text)])
                continue
            }
            var overlay = try overlay(key)
            let before = overlay.changes.count
            overlay.snapshotStored(snapshotState: try visits.visit(key)?.state)
            let dropped = before - overlay.changes.count
            if dropped > 0 {
                try db.run("""
                    DELETE FROM local_changes WHERE seq IN (
                        SELECT seq FROM local_changes WHERE visit_key = ?1 ORDER BY seq LIMIT ?2)
                    """, [.text(text), .int(Int64(dropped))])
            }
            try saveOverlay(overlay, for: key)
        }
        // The removed visits kept: those the new snapshot lists again are its own now; those
        // without work left go.
        try db.run("""
            DELETE FROM visits_removed WHERE EXISTS (
                SELECT 1 FROM visits AS v WHERE v.start_ms = visits_removed.start_ms
                   AND v.visit_id IS visits_removed.visit_id AND v.repetition = visits_removed.repetition)
            """)
        try db.run("DELETE FROM visits_removed WHERE NOT (\(SyncStore.hasWork("visits_removed")))")
    }

    // MARK: Removed visits with work

    /// The SQL condition that the visit whose key is `table.visit_key` has work on this device: an
    /// outbox entry (or an applied change still shown until the next snapshot), an attachment
    /// not yet uploaded, or an unacknowledged conflict.
    public static func hasWork(_ table: String) -> String {
        """
        EXISTS (SELECT 1 FROM local_changes AS w1 WHERE w1.visit_key = \(table).visit_key)
        OR EXISTS (SELECT 1 FROM visit_conflicts AS w2 WHERE w2.visit_key = \(table).visit_key)
        OR EXISTS (SELECT 1 FROM attachments AS w3 WHERE w3.visit_key = \(table).visit_key AND w3.status = 'pending')
        """
    }

    /// A snapshot is about to replace the stored visits (inside its transaction, before any row
    /// goes): the stored row of each visit with work is kept in `visits_removed`, so that a visit
    /// the new snapshot no longer lists stays on its day (`snapshotStored` then drops the kept
    /// rows the new snapshot lists again, and those without work). Costs in proportion to the
    /// visits with work.
    func keepVisitsWithWork() throws(CarFitError) {
        let rows = try db.query("""
            SELECT visit_key FROM local_changes UNION SELECT visit_key FROM visit_conflicts
            UNION SELECT visit_key FROM attachments WHERE status = 'pending'
            """)
        for row in rows {
            guard case .text(let text)? = row.first, let key = VisitKey(text: text) else { continue }
            try db.run("""
                INSERT OR REPLACE INTO visits_removed (visit_key, start_ms, seq, visit_id, repetition, employee_id, card)
                SELECT ?1, start_ms, seq, visit_id, repetition, employee_id, card FROM visits
                WHERE start_ms = ?2 AND visit_id IS ?3 AND repetition = ?4
                """, [.text(text), .int(key.start.milliseconds), key.visitId.map(SQLValue.text) ?? .null,
                      .int(Int64(key.repetition))])
        }
    }

    /// The keys of the removed visits with work starting in `range` (ms since the epoch).
    public func removed(startingIn range: Range<Int64>) throws(CarFitError) -> Set<VisitKey> {
        let rows = try db.query("""
            SELECT visit_key FROM visits_removed WHERE start_ms >= ?1 AND start_ms < ?2 AND (\(SyncStore.hasWork("visits_removed")))
            """, [.int(range.lowerBound), .int(range.upperBound)])
        var out = Set<VisitKey>()
        for row in rows {
            if case .text(let text)? = row.first, let key = VisitKey(text: text) { out.insert(key) }
        }
        return out
    }

    // MARK: Conflicts

    /// The unacknowledged conflicts of the visits starting in `range`, by key.
    public func conflicts(startingIn range: Range<Int64>) throws(CarFitError) -> [VisitKey: VisitConflict] {
        let s = try db.statement("""
            SELECT visit_key, mutation_id, state, reason, at_ms, time_used FROM visit_conflicts
            WHERE start_ms >= ?1 AND start_ms < ?2
            """)
        defer { s.reset() }
        try s.bind(1, range.lowerBound)
        try s.bind(2, range.upperBound)
        var out: [VisitKey: VisitConflict] = [:]
        while try s.step() {
            guard let text = s.text(0), let key = VisitKey(text: text), let id = s.text(1), let state = s.text(2) else { continue }
            out[key] = VisitConflict(mutationId: id, state: state, reason: s.text(3) ?? "", at: Instant(milliseconds: s.int(4) ?? 0),
                                     timeUsedMinutes: s.int(5).map { Int(clamping: $0) })
        }
        return out
    }

    /// Clears the conflict of the visit `key`; false when it had none.
    public func clearConflict(_ key: VisitKey) throws(CarFitError) -> Bool {
        let had = try db.scalarInt("SELECT count(*) FROM visit_conflicts WHERE visit_key = ?1", [.text(key.text)]) ?? 0
        guard had > 0 else { return false }
        try db.run("DELETE FROM visit_conflicts WHERE visit_key = ?1", [.text(key.text)])
        return true
    }

    // MARK: The outbox

    /// Writes `change` of the visit `key` to the outbox.
    public func append(_ change: LocalChange, for key: VisitKey) throws(CarFitError) {
        try db.run("""
            INSERT INTO local_changes (mutation_id, visit_key, visit_id, start_ms, state, at_ms, time_used, reason, status)
            VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, 'pending')
            """, [.text(change.mutationId), .text(key.text), key.visitId.map(SQLValue.text) ?? .null,
                  .int(key.start.milliseconds), .text(change.state.rawValue), .int(change.at.milliseconds),
                  change.timeUsedMinutes.map { .int(Int64($0)) } ?? .null, change.reason.map(SQLValue.text) ?? .null])
    }

    /// The oldest `limit` pending entries, oldest first.
    public func pending(limit: Int) throws(CarFitError) -> [OutboxMutation] {
        let s = try db.statement("""
            SELECT seq, mutation_id, visit_id, start_ms, state, at_ms, time_used, reason FROM local_changes
            WHERE status = 'pending' ORDER BY seq LIMIT ?1
            """)
        defer { s.reset() }
        try s.bind(1, Int64(max(0, limit)))
        var out: [OutboxMutation] = []
        while try s.step() {
            guard let id = s.text(1), let state = s.text(4).flatMap(VisitState.init(rawValue:)) else { continue }
            out.append(OutboxMutation(sequence: s.int(0) ?? 0, mutationId: id, visitId: s.text(2),
                                      start: Instant(milliseconds: s.int(3) ?? 0), state: state,
                                      at: Instant(milliseconds: s.int(5) ?? 0),
                                      timeUsedMinutes: s.int(6).map { Int(clamping: $0) }, reason: s.text(7)))
        }
        return out
    }

    /// How many entries wait in the outbox.
    public func pendingCount() throws(CarFitError) -> Int {
        Int(clamping: try db.scalarInt("SELECT count(*) FROM local_changes WHERE status = 'pending'") ?? 0)
    }

    /// What recording a push's answer did: how many entries were applied and rejected, and the
    /// conflict each rejection left on its visit's card (request order), for the change feed.
    public struct Recorded: Sendable, Equatable {
        public var applied = 0
        public var rejected = 0
        /// One `Event.conflict` per rejected entry.
        public var conflicts: [Event] = []

        public init() {}
    }

    /// Applies a push's answer: applied entries leave the outbox (their change stays shown until
    /// the next snapshot), rejected ones are undone, listed and kept as their visit's conflict
    /// (the last one rejected replaces an earlier one); the others stay pending. An id no
    /// longer pending here (another core already took its answer) changes nothing.
    public func record(_ outcome: PushOutcome) throws(CarFitError) -> Recorded {
        var recorded = Recorded()
        for id in outcome.applied {
            let entry = try pendingEntry(id)
            guard entry.isPending else { continue }
            try db.run("UPDATE local_changes SET status = 'applied' WHERE mutation_id = ?1", [.text(id)])
            if let key = entry.key {
                var overlay = try overlay(key)
                overlay.markApplied(id)
                try saveOverlay(overlay, for: key)
            }
            recorded.applied += 1
        }
        for rejection in outcome.rejected {
            let entry = try pendingEntry(rejection.mutationId)
            guard entry.isPending else { continue }
            let reason = String(rejection.reason.prefix(2000))
            try db.run("""
                INSERT INTO sync_rejected (mutation_id, visit_id, start_ms, state, reason, at_ms, time_used)
                SELECT mutation_id, visit_id, start_ms, state, ?2, at_ms, time_used FROM local_changes WHERE mutation_id = ?1
                """, [.text(rejection.mutationId), .text(reason)])
            try db.run("""
                INSERT OR REPLACE INTO visit_conflicts (visit_key, start_ms, mutation_id, state, reason, at_ms, time_used)
                SELECT visit_key, start_ms, mutation_id, state, ?2, at_ms, time_used FROM local_changes WHERE mutation_id = ?1
                """, [.text(rejection.mutationId), .text(reason)])
            if let text = try db.query("SELECT visit_key FROM local_changes WHERE mutation_id = ?1",
                                       [.text(rejection.mutationId)]).first?.first, case .text(let keyText) = text {
                recorded.conflicts.append(.conflict(key: keyText, mutationId: rejection.mutationId, reason: reason))
            }
            try db.run("DELETE FROM local_changes WHERE mutation_id = ?1", [.text(rejection.mutationId)])
            if let key = entry.key {
                var overlay = try overlay(key)
                overlay.undo(rejection.mutationId)
                try saveOverlay(overlay, for: key)
            }
            recorded.rejected += 1
        }
        if recorded.rejected > 0 {
            try db.run("""
                DELETE FROM sync_rejected WHERE seq <= (SELECT seq FROM sync_rejected ORDER BY seq DESC LIMIT 1 OFFSET ?1)
                """, [.int(Int64(SyncStore.rejectedKept))])
        }
        return recorded
    }

    /// Whether an entry of that id is pending, and its visit's key. A key whose text no longer
    /// parses (a damaged row) still lets the answer take the entry out of the outbox, so a push
    /// cannot send it for ever; only the overlay, which it cannot find, is left as it is.
    func pendingEntry(_ mutationId: String) throws(CarFitError) -> (isPending: Bool, key: VisitKey?) {
        let rows = try db.query("SELECT visit_key FROM local_changes WHERE mutation_id = ?1 AND status = 'pending'",
                                [.text(mutationId)])
        guard let row = rows.first else { return (false, nil) }
        guard case .text(let text)? = row.first else { return (true, nil) }
        return (true, VisitKey(text: text))
    }

    /// The last rejected changes, oldest first.
    public func rejected() throws(CarFitError) -> [RejectedChange] {
        let rows = try db.query("""
            SELECT mutation_id, visit_id, start_ms, state, reason, at_ms, time_used FROM sync_rejected ORDER BY seq
            """)
        return rows.map { row in
            func text(_ i: Int) -> String? { if i < row.count, case .text(let t) = row[i] { return t }; return nil }
            func instant(_ i: Int) -> Instant? {
                if i < row.count, case .int(let ms) = row[i] { return Instant(milliseconds: ms) }
                return nil
            }
            var used: Int?
            if row.count > 6, case .int(let minutes) = row[6] { used = Int(clamping: minutes) }
            return RejectedChange(mutationId: text(0), visitId: text(1), start: instant(2), state: text(3),
                                  reason: text(4), at: instant(5), timeUsedMinutes: used)
        }
    }

    // MARK: Bookkeeping

    /// The push's bookkeeping row.
    public func state() throws(CarFitError) -> SyncState {
        let rows = try db.query("""
            SELECT client_id, last_attempt_ms, last_success_ms, consecutive_failures, next_attempt_ms,
                   last_error_reason, last_error_message, last_error_at, last_error_http_status
            FROM sync_state WHERE id = 1
            """)
        guard let row = rows.first, row.count == 9, case .text(let client) = row[0] else {
            throw CarFitError(.storage, "The database has no sync state row.")
        }
        func ms(_ v: SQLValue) -> Instant? { if case .int(let i) = v { return Instant(milliseconds: i) }; return nil }
        var state = SyncState(clientId: client)
        state.lastAttemptAt = ms(row[1])
        state.lastSuccessAt = ms(row[2])
        if case .int(let n) = row[3] { state.consecutiveFailures = Int(clamping: n) }
        state.nextAttemptAt = ms(row[4])
        // A failure whose columns do not tell one (a damaged row) reads as no failure.
        if case .text(let reason) = row[5], case .text(let message) = row[6], case .text(let atText) = row[7],
           let at = Instant(iso: atText) {
            var status: Int?
            if case .int(let n) = row[8] { status = Int(clamping: n) }
            state.lastError = SyncFailure(reason: reason, message: message, at: at, httpStatus: status)
        }
        return state
    }

    /// Writes the bookkeeping row's changing members.
    public func save(_ state: SyncState) throws(CarFitError) {
        func ms(_ i: Instant?) -> SQLValue { i.map { .int($0.milliseconds) } ?? .null }
        let error = state.lastError
        try db.run("""
            UPDATE sync_state SET last_attempt_ms = ?1, last_success_ms = ?2, consecutive_failures = ?3,
                                  next_attempt_ms = ?4, last_error_reason = ?5, last_error_message = ?6,
                                  last_error_at = ?7, last_error_http_status = ?8 WHERE id = 1
            """, [ms(state.lastAttemptAt), ms(state.lastSuccessAt), .int(Int64(state.consecutiveFailures)),
                  ms(state.nextAttemptAt), error.map { .text($0.reason) } ?? .null, error.map { .text($0.message) } ?? .null,
                  error.map { .text($0.at.iso) } ?? .null, error?.httpStatus.map { .int(Int64($0)) } ?? .null])
    }
}
