import CarFitCore

/// The stored visits snapshot.
public struct VisitStore {
    let db: Database

    public init(_ db: Database) { self.db = db }

    /// What the owner of the washer's work does when a snapshot replaces the stored visits,
    /// inside the snapshot's transaction: `willReplace` before any stored visit goes, `stored`
    /// once the new ones are written (`SyncStore.snapshotHooks`).
    public struct SnapshotHooks {
        public var willReplace: () throws(CarFitError) -> Void
        public var stored: () throws(CarFitError) -> Void

        public init(willReplace: @escaping () throws(CarFitError) -> Void, stored: @escaping () throws(CarFitError) -> Void) {
            self.willReplace = willReplace
            self.stored = stored
        }
    }

    /// Starts writing a new snapshot (see `SnapshotWriter`), `hooks` run in its transaction;
    /// `runBytes` bounds the memory of the rows packed before they are written.
    public func beginSnapshot(_ hooks: SnapshotHooks,
                              runBytes: Int = SnapshotWriter.defaultRunBytes) throws(CarFitError) -> SnapshotWriter {
        try SnapshotWriter(db, hooks: hooks, runBytes: runBytes)
    }

    /// Replaces every stored visit with `visits` in one transaction: on any failure the previous
    /// snapshot stays exactly as it was.
    public func replaceAll(with visits: [Visit], hooks: SnapshotHooks,
                           runBytes: Int = SnapshotWriter.defaultRunBytes) throws(CarFitError) {
        let writer = try SnapshotWriter(db, hooks: hooks, runBytes: runBytes)
        do throws(CarFitError) {
            for v in visits { try writer.append(v) }
            try writer.commit()
        } catch {
            writer.rollback()
            throw error
        }
    }

    /// Writes a new snapshot inside one transaction (`Database.beginTransaction`), so a large
    /// import never holds the whole document. Nothing is visible to other connections until
    /// `commit`; `rollback` (or any failure) leaves the previous snapshot as it was.
    ///
    /// The table is kept in day order, so its rows are written in that order: `append` packs
    /// each record (its card, key and employee, about 130 bytes: `PackedRows`) into memory as
    /// it comes, and the packed rows are sorted by start and written, each table page once,
    /// at `commit`, or earlier whenever they take `runBytes`: a snapshot of any size is written
    /// in runs with the memory of one run at most (each later run is merged into the rows
    /// already written; a document in day order just appends).
    public final class SnapshotWriter: RecordSink {
        private let db: Database
        private let level: Database.Transaction
        private let hooks: SnapshotHooks
        private var open = true
        private var rows = PackedRows()
        /// The record being packed (reused).
        private var scratch: [UInt8] = []
        /// The memory of packed rows past which they are written as a run.
        let runBytes: Int

        /// The memory of the packed rows of one run at most: 32 MiB (about 200,000 visits).
        public static let defaultRunBytes = 32 << 20

        public init(_ db: Database, hooks: SnapshotHooks, runBytes: Int = SnapshotWriter.defaultRunBytes) throws(CarFitError) {
            self.db = db
            self.hooks = hooks
            self.runBytes = runBytes
            level = try db.beginTransaction()
            do throws(CarFitError) {
                try hooks.willReplace()
                try db.execute("DELETE FROM visits")
            } catch {
                db.rollback(level)
                throw error
            }
            scratch.reserveCapacity(512)
        }

        public var count: Int64 { Int64(rows.count) }

        public func append(_ v: Visit) throws(CarFitError) {
            guard open else { throw CarFitError(.internal, "The snapshot was already committed or rolled back.") }
            scratch.removeAll(keepingCapacity: true)
            rows.appendVisitId(v.visitId, &scratch)
            rows.appendEmployeeId(v.employeeId, &scratch)
            VisitCard.encode(v, into: &scratch)
            try rows.append(start: v.start.milliseconds, scratch)
            if rows.runBytes >= runBytes { try write(more: true) }
        }

        public func commit() throws(CarFitError) {
            guard open else { return }
            try write(more: false)
            rows = PackedRows()
            try hooks.stored()
            try db.commit(level)
            open = false
        }

        /// Writes the packed rows in day order and lets their memory go; `more` when rows may
        /// follow. A row's repetition counts the rows of its pair written by earlier runs.
        private func write(more: Bool) throws(CarFitError) {
            // Rows go in `batch` to a statement (SQLite's work per statement, once per batch),
            // the last ones one by one.
            guard rows.runCount > 0 else { return }
            let batch = SnapshotWriter.batch
            let many = try db.statement(SnapshotWriter.insert(rows: batch))
            defer { many.reset() }
            var pending: [PackedRows.Parts] = []
            pending.reserveCapacity(batch)
            let db = db
            // Rows of this run may be written already: only those of earlier runs are counted.
            try rows.inDayOrder(more: more, earlier: { (start, visitId, runSeq) throws(CarFitError) -> Int64 in
                let s = try db.statement("SELECT count(*) FROM visits WHERE start_ms = ?1 AND seq < ?3 AND visit_id IS ?2")
                defer { s.reset() }
                try s.bind(1, int: start)
                try s.bindStatic(text: visitId, 2)
                try s.bind(3, int: runSeq)
                guard try s.step() else { return 0 }
                return s.int(0) ?? 0
            }) { (start, seq, visitId, repetition, employeeId, card) throws(CarFitError) in
                pending.append(PackedRows.Parts(start: start, seq: seq, visitId: visitId, repetition: repetition,
                                                employeeId: employeeId, card: card))
                guard pending.count == batch else { return }
                many.rewind()
                for (i, row) in pending.enumerated() { try SnapshotWriter.bind(row, at: Int32(6 * i), many) }
                _ = try many.step()
                pending.removeAll(keepingCapacity: true)
            }
            many.reset()
            if !pending.isEmpty {
                let one = try db.statement(SnapshotWriter.insert(rows: 1))
                defer { one.reset() }
                for row in pending {
                    one.rewind()
                    try SnapshotWriter.bind(row, at: 0, one)
                    _ = try one.step()
                }
            }
            rows.releaseRun()
        }

        /// Rows inserted by one statement (`PackedRows.textSlots` at most).
        static let batch = 32

        static func insert(rows: Int) -> String {
            let values = (0..<rows).map { i in
                "(?\(6 * i + 1), ?\(6 * i + 2), ?\(6 * i + 3), ?\(6 * i + 4), ?\(6 * i + 5), ?\(6 * i + 6))"
            }
            return "INSERT INTO visits (start_ms, seq, visit_id, repetition, employee_id, card) VALUES "
                + values.joined(separator: ", ")
        }

        /// Binds `row` to the parameters after `offset` of `s`.
        static func bind(_ row: PackedRows.Parts, at offset: Int32, _ s: Statement) throws(CarFitError) {
            try s.bind(offset + 1, int: row.start)
            try s.bind(offset + 2, int: row.seq)
            try s.bindStatic(text: row.visitId, offset + 3)
            try s.bind(offset + 4, int: row.repetition)
            try s.bindStatic(text: row.employeeId, offset + 5)
            try s.bindStatic(blob: row.card, offset + 6)
        }

        public func rollback() {
            guard open else { return }
            rows = PackedRows()
            db.rollback(level)
            open = false
        }

        deinit { rollback() }
    }

    /// Visits starting in `range` (ms since the epoch), in start order then snapshot order,
    /// optionally only one employee's.
    public func visits(startingIn range: Range<Int64>, employeeId: String? = nil) throws(CarFitError) -> [Visit] {
        let s = try db.statement(VisitStore.listedInRange)
        defer { s.reset() }
        try s.bind(1, range.lowerBound)
        try s.bind(2, range.upperBound)
        try s.bind(3, employeeId)
        var out: [Visit] = []
        while try s.step() { out.append(try VisitStore.visit(s)) }
        return out
    }

    /// The listed visits starting in [?1, ?2), only employee ?3's unless it is null, in start
    /// order then snapshot order; the columns `row(_:)` reads.
    static let listedInRange = """
        SELECT start_ms, visit_id, employee_id, repetition, card
        FROM visits WHERE start_ms >= ?1 AND start_ms < ?2 AND (?3 IS NULL OR employee_id = ?3)
        ORDER BY start_ms, seq
        """

    /// `listedInRange` and the visits a stored snapshot no longer lists that still have work on
    /// this device (`SyncStore.hasWork`), each at its start after the listed visits of the same
    /// start; column 5 is 1 for those.
    static let shownInRange = """
        SELECT start_ms, visit_id, employee_id, repetition, card, 0 AS kept, seq
        FROM visits WHERE start_ms >= ?1 AND start_ms < ?2 AND (?3 IS NULL OR employee_id = ?3)
        UNION ALL
        SELECT start_ms, visit_id, employee_id, repetition, card, 1 AS kept, seq
        FROM visits_removed WHERE start_ms >= ?1 AND start_ms < ?2 AND (?3 IS NULL OR employee_id = ?3)
          AND (\(SyncStore.hasWork("visits_removed")))
        ORDER BY 1, 6, 7
        """

    /// The visits of `shownInRange` (the day list's, the removed ones with work included, in its
    /// order), each with whether it is such a removed one.
    public func visitsShown(startingIn range: Range<Int64>, employeeId: String? = nil) throws(CarFitError) -> [(visit: Visit, removed: Bool)] {
        let s = try db.statement(VisitStore.shownInRange)
        defer { s.reset() }
        try s.bind(1, range.lowerBound)
        try s.bind(2, range.upperBound)
        try s.bind(3, employeeId)
        var out: [(visit: Visit, removed: Bool)] = []
        while try s.step() { out.append((try VisitStore.visit(s), s.int(5) == 1)) }
        return out
    }

    /// The whole visit of the row `s` is on, its planned tasks included.
    static func visit(_ s: Statement) throws(CarFitError) -> Visit {
        var visit = VisitStore.visit(of: try row(s))
        if let blob = s.blob(4), let card = VisitCard.decode(blob) {
            visit.plannedTasks = VisitCard.plannedTasks(card.plannedTasks)
        }
        return visit
    }

    /// Hands `body` each visit starting in `range` (ms since the epoch), in start order then
    /// snapshot order, optionally only one employee's. A row's text is valid only during its call.
    /// With `removed`, the visits a stored snapshot no longer lists that still have work on this
    /// device (`SyncStore.hasWork`) come too, each at its start (after the listed visits of the
    /// same start).
    public func forEachVisit(startingIn range: Range<Int64>, employeeId: String? = nil, removed: Bool = false,
                             _ body: (StoredVisitRow) throws(CarFitError) -> Void) throws(CarFitError) {
        let s = try db.statement(removed ? VisitStore.shownInRange : VisitStore.listedInRange)
        defer { s.reset() }
        try s.bind(1, range.lowerBound)
        try s.bind(2, range.upperBound)
        try s.bind(3, employeeId)
        while try s.step() {
            try body(try VisitStore.row(s))
        }
    }

    /// The visit of the row `s` is on (columns start_ms, visit_id, employee_id, repetition,
    /// card), its text views of the row's bytes.
    static func row(_ s: Statement) throws(CarFitError) -> StoredVisitRow {
        guard let blob = s.blob(4), let card = VisitCard.decode(blob) else {
            throw CarFitError(.storage, "A stored visit is damaged. Import the visits again.")
        }
        return StoredVisitRow(
            visitId: s.utf8(1), employeeId: s.utf8(2),
            start: Instant(milliseconds: s.int(0) ?? 0),
            name: card.name.assumingMemoryBound(to: UInt8.self), state: card.state?.assumingMemoryBound(to: UInt8.self),
            expectedTime: card.expectedTime?.assumingMemoryBound(to: UInt8.self),
            tasks: card.tasks.assumingMemoryBound(to: UInt8.self), taskMinutes: Int(clamping: card.taskMinutes),
            address: card.address.assumingMemoryBound(to: UInt8.self), phone: card.phone?.assumingMemoryBound(to: UInt8.self),
            latitude: card.latitude, longitude: card.longitude,
            timeUsed: card.timeUsed.map { Int(clamping: $0) }, repetition: Int(clamping: s.int(3) ?? 0))
    }

    /// Start instants (ms) of the visits in `range`, for counting visits per local day.
    public func startTimes(in range: Range<Int64>) throws(CarFitError) -> [Int64] {
        let s = try db.statement("SELECT start_ms FROM visits WHERE start_ms >= ?1 AND start_ms < ?2")
        defer { s.reset() }
        try s.bind(1, range.lowerBound)
        try s.bind(2, range.upperBound)
        var out: [Int64] = []
        while try s.step() { if let v = s.int(0) { out.append(v) } }
        return out
    }

    /// The stored visit named by `key`, or nil. With `removed`, also a visit a stored snapshot no
    /// longer lists that still has work on this device (as `forEachVisit` lists it).
    public func visit(_ key: VisitKey, removed: Bool = false) throws(CarFitError) -> Visit? {
        let s = try db.statement("""
            SELECT start_ms, visit_id, employee_id, repetition, card
            FROM visits WHERE start_ms = ?2 AND visit_id IS ?1 AND repetition = ?3
            """)
        defer { s.reset() }
        try s.bind(1, key.visitId)
        try s.bind(2, key.start.milliseconds)
        try s.bind(3, Int64(key.repetition))
        if try s.step() { return try VisitStore.visit(s) }
        guard removed else { return nil }
        let kept = try db.statement("""
            SELECT start_ms, visit_id, employee_id, repetition, card
            FROM visits_removed WHERE visit_key = ?1 AND (\(SyncStore.hasWork("visits_removed")))
            """)
        defer { kept.reset() }
        try kept.bind(1, key.text)
        guard try kept.step() else { return nil }
        return try VisitStore.visit(kept)
    }

    /// Hands `body` the kept row of the visit `key` that a snapshot no longer lists, work or no
    /// work (the card it last showed); nothing when none is kept.
    public func forRemovedVisit(_ key: VisitKey, _ body: (StoredVisitRow) throws(CarFitError) -> Void) throws(CarFitError) {
        let s = try db.statement("""
            SELECT start_ms, visit_id, employee_id, repetition, card FROM visits_removed WHERE visit_key = ?1
            """)
        defer { s.reset() }
        try s.bind(1, key.text)
        if try s.step() { try body(try VisitStore.row(s)) }
    }

    /// The occurrences with a visitId starting at `from` (ms since the epoch) or later, with the
    /// card fields the planner's changes compare (`VisitChanges`), in day order.
    public func occurrences(from: Int64) throws(CarFitError) -> [VisitOccurrence] {
        let s = try db.statement("""
            SELECT start_ms, visit_id, repetition, card
            FROM visits WHERE start_ms >= ?1 AND visit_id IS NOT NULL ORDER BY start_ms, seq
            """)
        defer { s.reset() }
        try s.bind(1, from)
        var out: [VisitOccurrence] = []
        while try s.step() {
            guard let id = s.text(1), let blob = s.blob(3), let card = VisitCard.decode(blob) else {
                throw CarFitError(.storage, "A stored visit is damaged. Import the visits again.")
            }
            out.append(VisitOccurrence(
                visitId: id, start: Instant(milliseconds: s.int(0) ?? 0), repetition: Int(clamping: s.int(2) ?? 0),
                name: String(decoding: card.name, as: UTF8.self), address: String(decoding: card.address, as: UTF8.self),
                latitude: card.latitude, longitude: card.longitude,
                expectedTime: card.expectedTime.map { String(decoding: $0, as: UTF8.self) },
                tasks: String(decoding: card.tasks, as: UTF8.self), taskMinutes: Int(clamping: card.taskMinutes),
                plannedTasks: VisitCard.plannedTasks(card.plannedTasks)))
        }
        return out
    }

    /// Whether a snapshot was ever stored in this database (`snapshotStored` was recorded, or
    /// visits are stored from before it was).
    public func hasSnapshot() throws(CarFitError) -> Bool {
        if try db.scalarInt("SELECT count(*) FROM visit_snapshots") ?? 0 > 0 { return true }
        return try db.scalarInt("SELECT EXISTS (SELECT 1 FROM visits)") ?? 0 > 0
    }

    /// Records that a snapshot was stored (once: later calls write nothing).
    public func snapshotStored() throws(CarFitError) {
        try db.run("INSERT OR IGNORE INTO visit_snapshots (id) VALUES (1)")
    }

    public func count() throws(CarFitError) -> Int {
        Int(try db.scalarInt("SELECT count(*) FROM visits") ?? 0)
    }

    /// The visit of a stored row, its text copied out.
    static func visit(of row: StoredVisitRow) -> Visit {
        row.map { String(decoding: $0, as: UTF8.self) }
    }
}

/// One stored visit as read from the store: views of the row's text (nil where a member is
/// null; name, tasks and address never are), valid only while the reader is on that row. The
/// day query writes its cards from it directly (CarFitIO's `VisitRow` is the same type).
public typealias StoredVisitRow = VisitRecord<UnsafeBufferPointer<UInt8>>
