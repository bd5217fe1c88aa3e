import CarFitCore
import CarFitIO

/// The stored visits snapshot.
public struct VisitStore {
    let db: Database

    public init(_ db: Database) { self.db = db }

    /// Starts writing a new snapshot (see `SnapshotWriter`).
    public func beginSnapshot() throws(CarFitError) -> SnapshotWriter { try SnapshotWriter(db) }

    /// Replaces every stored visit with `visits` in one transaction: on any failure the previous
    /// snapshot stays exactly as it was.
    public func replaceAll(with visits: [Visit]) throws(CarFitError) {
        let writer = try SnapshotWriter(db)
        do throws(CarFitError) {
            for v in visits { try writer.append(v) }
            try writer.commit()
        } catch {
            writer.rollback()
            throw error
        }
    }

    /// Writes a new snapshot record by record inside one transaction (`Database.beginTransaction`),
    /// so a large import never holds the whole document. Nothing is visible to other connections
    /// until `commit`; `rollback` (or any failure) leaves the previous snapshot as it was.
    ///
    /// A large snapshot is written without the visits' indexes, which are built again, sorted,
    /// before the commit: keeping them up to date row by row, in the document's (random) start
    /// order, costs more than building them whole.
    public final class SnapshotWriter: RecordSink {
        private let db: Database
        private let insert: Statement
        private var seq: Int64 = 0
        private let level: Database.Transaction
        private var open = true
        /// The visits' indexes dropped until the commit, with the migrations' text to build them.
        private var droppedIndexes: [(name: String, sql: String)] = []
        /// How often each (visitId, start) pair came so far: the next record's repetition.
        private var repetitions: [Pair: Int] = [:]

        private struct Pair: Hashable {
            var visitId: String?
            var start: Int64
        }

        /// Rows after which the indexes are dropped until the commit.
        static let bulkRows: Int64 = 1_000

        public init(_ db: Database) throws(CarFitError) {
            self.db = db
            level = try db.beginTransaction()
            do throws(CarFitError) {
                try db.execute("DELETE FROM visits")
                insert = try db.statement("""
                    INSERT INTO visits (seq, visit_id, employee_id, start_ms, name, state, expected_time, tasks,
                                        task_minutes, address, phone, latitude, longitude, repetition, time_used)
                    VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14, ?15)
                    """)
            } catch {
                db.rollback(level)
                throw error
            }
        }

        public var count: Int64 { seq }

        public func append(_ v: Visit) throws(CarFitError) {
            insert.reset()
            if seq == SnapshotWriter.bulkRows && droppedIndexes.isEmpty {
                let indexes = try Schema.indexes(on: "visits", db)
                for index in indexes { try db.execute("DROP INDEX \"\(index.name)\"") }
                droppedIndexes = indexes
            }
            try insert.bind(1, seq)
            try insert.bind(2, v.visitId)
            try insert.bind(3, v.employeeId)
            try insert.bind(4, v.start.milliseconds)
            try insert.bind(5, v.name)
            try insert.bind(6, v.state)
            try insert.bind(7, v.expectedTime)
            try insert.bind(8, v.tasks)
            try insert.bind(9, Int64(v.taskMinutes))
            try insert.bind(10, v.address)
            try insert.bind(11, v.phone)
            try insert.bind(12, v.latitude)
            try insert.bind(13, v.longitude)
            let pair = Pair(visitId: v.visitId, start: v.start.milliseconds)
            let repetition = repetitions[pair, default: 0]
            repetitions[pair] = repetition &+ 1
            try insert.bind(14, Int64(repetition))
            try insert.bind(15, v.timeUsed.map(Int64.init))
            _ = try insert.step()
            seq += 1
        }

        public func commit() throws(CarFitError) {
            guard open else { return }
            insert.reset()
            for index in droppedIndexes { try db.execute(index.sql) }
            repetitions = [:]
            try SyncStore(db).snapshotStored()
            try db.commit(level)
            open = false
        }

        public func rollback() {
            guard open else { return }
            insert.reset()
            db.rollback(level)
            open = false
        }

        deinit { rollback() }
    }

    /// Visits starting in `range` (ms since the epoch), in start order then snapshot order,
    /// optionally only one employee's.
    public func visits(startingIn range: Range<Int64>, employeeId: String? = nil) throws(CarFitError) -> [Visit] {
        var out: [Visit] = []
        try forEachVisit(startingIn: range, employeeId: employeeId) { row in out.append(Visit(row: row)) }
        return out
    }

    /// Hands `body` each visit starting in `range` (ms since the epoch), in start order then
    /// snapshot order, optionally only one employee's. A row's text is valid only during its call.
    public func forEachVisit(startingIn range: Range<Int64>, employeeId: String? = nil,
                             _ body: (VisitRow) throws(CarFitError) -> Void) throws(CarFitError) {
        let s = try db.statement("""
            SELECT visit_id, employee_id, start_ms, name, state, expected_time, tasks, task_minutes,
                   address, phone, latitude, longitude, time_used, repetition
            FROM visits WHERE start_ms >= ?1 AND start_ms < ?2 AND (?3 IS NULL OR employee_id = ?3)
            ORDER BY start_ms, seq
            """)
        defer { s.reset() }
        try s.bind(1, range.lowerBound)
        try s.bind(2, range.upperBound)
        try s.bind(3, employeeId)
        let none = UnsafeBufferPointer<UInt8>(start: nil, count: 0)
        while try s.step() {
            try body(VisitRow(
                visitId: s.utf8(0), employeeId: s.utf8(1),
                start: Instant(milliseconds: s.int(2) ?? 0),
                name: s.utf8(3) ?? none, state: s.utf8(4), expectedTime: s.utf8(5),
                tasks: s.utf8(6) ?? none, taskMinutes: Int(s.int(7) ?? 0),
                address: s.utf8(8) ?? none, phone: s.utf8(9),
                latitude: s.double(10), longitude: s.double(11),
                timeUsed: s.int(12).map { Int(clamping: $0) }, repetition: Int(clamping: s.int(13) ?? 0)))
        }
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

    /// The stored visit named by `key`, or nil.
    public func visit(_ key: VisitKey) throws(CarFitError) -> Visit? {
        let s = try db.statement("""
            SELECT visit_id, employee_id, start_ms, name, state, expected_time, tasks, task_minutes,
                   address, phone, latitude, longitude, time_used, repetition
            FROM visits WHERE visit_id IS ?1 AND start_ms = ?2 AND repetition = ?3
            """)
        defer { s.reset() }
        try s.bind(1, key.visitId)
        try s.bind(2, key.start.milliseconds)
        try s.bind(3, Int64(key.repetition))
        guard try s.step() else { return nil }
        return Visit(visitId: s.text(0), employeeId: s.text(1), start: Instant(milliseconds: s.int(2) ?? 0),
                     name: s.text(3) ?? "", state: s.text(4), expectedTime: s.text(5), tasks: s.text(6) ?? "",
                     taskMinutes: Int(clamping: s.int(7) ?? 0), address: s.text(8) ?? "", phone: s.text(9),
                     latitude: s.double(10), longitude: s.double(11),
                     timeUsed: s.int(12).map { Int(clamping: $0) }, repetition: Int(clamping: s.int(13) ?? 0))
    }

    public func count() throws(CarFitError) -> Int {
        Int(try db.scalarInt("SELECT count(*) FROM visits") ?? 0)
    }
}
