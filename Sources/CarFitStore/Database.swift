import CSQLite
import CarFitCore

/// A value bound to or read from an SQL statement.
public enum SQLValue: Sendable, Equatable {
    case null
    case int(Int64)
    case double(Double)
    case text(String)
}

/// One SQLite connection through its C API. Not thread-safe by itself: the core serialises
/// access. Every SQLite failure is reported as a `storage` error that names the file and says
/// what the user can do (`StorageFailure`).
///
/// Statements: `statement(_:)` hands each caller a statement of its own. Prepared statements
/// are kept for reuse, but one is handed out again only after the `Statement` that held it is
/// released, so the same SQL run inside a loop over another cursor gets a second prepared
/// statement instead of resetting the first.
///
/// Transactions: whoever needs a group of writes to be atomic opens `transaction` (or
/// `beginTransaction` for one that spans several calls), whatever its caller did. Transactions
/// nest: the outermost is `BEGIN IMMEDIATE` … `COMMIT`, an inner one is a SAVEPOINT released
/// into the outer one, and an inner one that fails rolls back only its own writes. A
/// transaction opened with plain SQL (`execute("BEGIN")`) is refused loudly by the next
/// `transaction`, so the two styles cannot mix silently.
public final class Database {
    private var handle: OpaquePointer?
    /// Prepared statements not held by any `Statement`, by SQL text.
    private var idle: [String: [OpaquePointer]] = [:]
    /// The tables each SQL text that writes writes, as the authorizer named them when it was
    /// first prepared (`ChangeTracker`).
    private var writesBySQL: [String: Set<String>] = [:]
    /// Open transaction levels, outermost first (see `Transaction`).
    private var levels: [Int] = []
    private var nextLevelID = 0
    /// The tables each committed transaction wrote, for the change feed (see `ChangeTracker`).
    private let tracker = ChangeTracker()
    public let path: String
    /// The key the files are encrypted under, nil for a plaintext (or in-memory) database.
    public private(set) var key: EncryptionKey?
    /// The database file (device, inode) this connection opened; nil in memory.
    private var fileIdentity: DatabaseCrypt.Identity?
    /// How long a statement waits for another connection's lock before failing.
    let busyTimeoutMs: Int32
    /// The last SQLite failure reported, to tell it apart from other errors while opening.
    private var lastFailure: StorageFailure?

    /// Idle prepared statements kept per SQL text; more are finalised when released.
    static let idlePerSQL = 4

    /// Opens (creating if absent) the database at `path` (`":memory:"` for a private in-memory
    /// one), waits up to `busyTimeoutMs` for other connections' locks, and migrates the schema.
    /// The file and its companions are its owner's only (`DatabaseFiles`).
    ///
    /// A failure is `storage` with `field` "database" and a message saying what is in the way
    /// (a missing directory, permissions, a read-only file or disk, a file that is not a
    /// database, a full disk, another program's lock).
    ///
    /// With `key`, the file, its WAL and journal and SQLite's temporary files are encrypted
    /// (`DatabaseCrypt`); an encrypted file opened without its key is refused as `unauthorized`
    /// before any file is created or changed.
    public init(path: String, busyTimeoutMs: Int32 = 10_000, key: EncryptionKey? = nil) throws(CarFitError) {
        self.path = path
        self.busyTimeoutMs = busyTimeoutMs
        let vfs = try DatabaseCrypt.vfs(path: path, key: key)
        self.key = vfs == nil ? nil : key
        DatabaseFiles.prepare(path)
        DatabaseCrypt.finishInterrupted(path, key: vfs == nil ? nil : key, vfs: vfs)
        try connect(vfs: vfs)
    }

    /// Opens the connection to `path` through `vfs` (nil: SQLite's default), sets it up and
    /// migrates the schema; on failure the connection is closed and the error says why.
    private func connect(vfs: String?) throws(CarFitError) {
        var db: OpaquePointer?
        let flags = SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_NOMUTEX
        let rc = sqlite3_open_v2(path, &db, flags, vfs)
        handle = db
        guard rc == SQLITE_OK, let db else {
            let failure = StorageFailure(path: path, code: rc, systemError: db.map { sqlite3_system_errno($0) } ?? 0,
                                         message: db.map { String(cString: sqlite3_errmsg($0)) } ?? "out of memory",
                                         busyTimeoutMs: busyTimeoutMs)
            close()
            if let changed = DatabaseCrypt.changedKey(path, key: key) { throw changed }
            throw failure.openError
        }
        fileIdentity = DatabaseCrypt.identity(path)
        // A commit made while holding the write lock checks that the file is still the one this
        // connection opened: after another core put a copy under a new key in its place (which
        // it does holding that lock), a write to the replaced file would be lost.
        tracker.commitAllowed = fileIdentity == nil ? nil : { [weak self] in self?.isCurrentFile ?? true }
        sqlite3_busy_timeout(db, busyTimeoutMs)
        sqlite3_extended_result_codes(db, 1)
        tracker.install(on: db)
        // The migration that made visit cards calls it; registered before any migration runs.
        _ = VisitCard.registerFunction(on: db)
        do throws(CarFitError) {
            // Reading the schema version makes SQLite read the file: a file that is not a
            // database fails here rather than on first use.
            _ = try scalarInt("PRAGMA user_version")
            // SQLite opens a file it may not write read-only without a word; every write
            // would fail later.
            if sqlite3_db_readonly(db, "main") == 1 {
                let reason = StorageFailure.obstacle(path: path, systemError: 0) ?? .readOnlyFile
                lastFailure = StorageFailure(path: path, reason: reason)
                throw StorageFailure(path: path, reason: reason).error
            }
            if path != ":memory:" && !path.isEmpty {
                try execute("PRAGMA journal_mode=WAL")
                try execute("PRAGMA synchronous=NORMAL")
            }
            try execute("PRAGMA foreign_keys=ON")
            try Schema.migrate(self)
        } catch {
            close()
            if let changed = DatabaseCrypt.changedKey(path, key: key) { throw changed }
            if let failure = lastFailure, error.message == failure.error.message { throw failure.openError }
            var e = error
            if e.field == nil { e.field = "database" }
            e.message = "Cannot open \(StorageFailure.shown(path)): \(e.message)"
            throw e
        }
    }

    deinit { close() }

    /// Whether the file at `path` is still the one this connection opened: false once another
    /// connection put a new file in its place (a change of key).
    public var isCurrentFile: Bool {
        guard let fileIdentity else { return true }
        return DatabaseCrypt.identity(path) == fileIdentity
    }

    /// Puts the database under `newKey` (nil: plaintext): a copy under the new key is built
    /// beside the file, made durable and renamed over it in one step, then this connection
    /// reopens on it. A crash before the rename leaves the old files as they were; after it, the
    /// new ones are complete (a stale WAL of the old key is dropped at the next open). Other
    /// connections to the old file see `isCurrentFile` false from then on.
    public func rekey(to newKey: EncryptionKey?) throws(CarFitError) {
        guard let handle, DatabaseCrypt.isFilePath(path) else {
            throw CarFitError(.invalid, "An in-memory database has no files to encrypt.", field: "key")
        }
        guard levels.isEmpty, sqlite3_get_autocommit(handle) != 0 else {
            throw CarFitError(.internal, "The key cannot change inside a transaction.")
        }
        let vfs = try newKey.map(DatabaseCrypt.vfsName)
        let oldVfs = try key.map(DatabaseCrypt.vfsName)
        // Other connections' writes wait from before the copy's snapshot until the copy is in
        // place, and then find the file replaced (their commit check refuses): none is lost.
        let writers = try DatabaseCrypt.holdWrites(path, vfs: oldVfs, busyTimeoutMs: busyTimeoutMs)
        do throws(CarFitError) {
            try DatabaseCrypt.copy(from: handle, path: path, to: vfs)
        } catch {
            sqlite3_close_v2(writers)
            throw error
        }
        let observer = tracker.observer
        close()
        let placed = DatabaseCrypt.putInPlace(path)
        // Closed after the rename: SQLite sees its file moved and neither checkpoints nor
        // removes the WAL by name (which is now the new file's).
        sqlite3_close_v2(writers)
        if placed { key = newKey }
        // Whether or not the copy was placed, the connection reopens on what is now the file.
        try connect(vfs: placed ? vfs : oldVfs)
        tracker.observer = observer
        if !placed {
            throw CarFitError(.storage, "Cannot change the key of \(StorageFailure.shown(path)): the new copy could not be put in its place.",
                              field: "database")
        }
    }

    /// Finalises the idle statements and closes the connection. Safe to call twice. A
    /// `Statement` still held finalises its own when released (SQLite keeps the connection
    /// until then); stepping it meanwhile fails with a `storage` error.
    public func close() {
        for list in idle.values { for stmt in list { sqlite3_finalize(stmt) } }
        idle.removeAll()
        levels.removeAll()
        tracker.observer = nil
        if let handle {
            tracker.uninstall(from: handle)
            sqlite3_close_v2(handle)
        }
        handle = nil
    }

    /// Whether the connection is closed.
    public var isClosed: Bool { handle == nil }

    /// SQLITE_CONSTRAINT_COMMITHOOK (a macro Swift does not import): the commit hook refused.
    static let commitHookRefused = SQLITE_CONSTRAINT | (2 << 8)

    /// The `storage` error of SQLite's result code `rc` on this connection: what failed and
    /// what the user can do, by `StorageFailure`.
    func error(_ rc: Int32, message: String? = nil) -> CarFitError {
        // The commit check refused: the file was replaced by a copy under another key.
        if rc == Self.commitHookRefused, !isCurrentFile { return DatabaseCrypt.wrongKey(path) }
        let text = message ?? handle.map { String(cString: sqlite3_errmsg($0)) } ?? String(cString: sqlite3_errstr(rc))
        let failure = StorageFailure(path: path, code: rc, systemError: handle.map { sqlite3_system_errno($0) } ?? 0,
                                     message: text, busyTimeoutMs: busyTimeoutMs)
        lastFailure = failure
        return failure.error
    }

    /// Runs one or more statements that return no rows.
    public func execute(_ sql: String) throws(CarFitError) {
        guard let handle else { throw CarFitError(.storage, "The database is closed.") }
        var message: UnsafeMutablePointer<CChar>?
        let before = sqlite3_total_changes64(handle)
        let rc = sqlite3_exec(handle, sql, nil, nil, &message)
        let writes = tracker.takePrepared()
        if rc == SQLITE_OK, !writes.isEmpty, sqlite3_total_changes64(handle) != before {
            tracker.changed(writes, autocommit: sqlite3_get_autocommit(handle) != 0)
        }
        settleCommit()
        if rc != SQLITE_OK {
            let text = message.map { String(cString: $0) }
            sqlite3_free(message)
            throw error(rc, message: text)
        }
    }

    /// A prepared statement of `sql` for this caller alone: an idle one prepared earlier, else a
    /// new one. It goes back to the idle ones, reset and unbound, when the returned `Statement`
    /// is released, never while the caller holds it.
    public func statement(_ sql: String) throws(CarFitError) -> Statement {
        guard let handle else { throw CarFitError(.storage, "The database is closed.") }
        if let stmt = idle[sql]?.popLast() { return Statement(stmt, sql: sql, writes: writesBySQL[sql], database: self) }
        var stmt: OpaquePointer?
        _ = tracker.takePrepared()
        let rc = sqlite3_prepare_v2(handle, sql, -1, &stmt, nil)
        let writes = tracker.takePrepared()
        guard rc == SQLITE_OK, let stmt else {
            sqlite3_finalize(stmt)
            throw error(rc)
        }
        if !writes.isEmpty { writesBySQL[sql] = writes }
        return Statement(stmt, sql: sql, writes: writes.isEmpty ? nil : writes, database: self)
    }

    /// Takes back a prepared statement from a released `Statement`.
    func checkIn(_ stmt: OpaquePointer, sql: String) {
        sqlite3_reset(stmt)
        sqlite3_clear_bindings(stmt)
        func keep(in list: inout [OpaquePointer]) -> Bool {
            guard list.count < Database.idlePerSQL else { return false }
            list.append(stmt)
            return true
        }
        // One lookup of the SQL text: a statement run once per record comes back here each time.
        if handle == nil || !keep(in: &idle[sql, default: []]) { sqlite3_finalize(stmt) }
    }

    /// Prepared statements held for reuse (for tests of the reuse rule).
    var idleStatementCount: Int { idle.values.reduce(0) { $0 + $1.count } }

    /// Runs a statement with arguments and returns every row.
    @discardableResult
    public func query(_ sql: String, _ arguments: [SQLValue] = []) throws(CarFitError) -> [[SQLValue]] {
        let s = try statement(sql)
        defer { s.reset() }
        try s.bind(arguments)
        var rows: [[SQLValue]] = []
        while try s.step() { rows.append(s.row()) }
        return rows
    }

    public func run(_ sql: String, _ arguments: [SQLValue] = []) throws(CarFitError) {
        let s = try statement(sql)
        defer { s.reset() }
        try s.bind(arguments)
        while try s.step() {}
    }

    public func scalarInt(_ sql: String, _ arguments: [SQLValue] = []) throws(CarFitError) -> Int64? {
        let rows = try query(sql, arguments)
        guard let first = rows.first?.first, case .int(let v) = first else { return nil }
        return v
    }

    /// Called with the names of the tables each committed transaction wrote (never empty),
    /// once the statement that committed has returned; nothing for a rolled-back transaction.
    /// Runs on the thread that committed, which holds the connection.
    public func onCommit(_ observer: ((Set<String>) -> Void)?) {
        tracker.observer = observer
    }

    /// SQLite's count of the rows every statement of this connection changed.
    var totalChanges: Int64 { handle.map { sqlite3_total_changes64($0) } ?? 0 }

    /// A statement that writes `tables` just changed rows (see `ChangeTracker.changed`).
    func changed(_ tables: Set<String>) {
        guard let handle else { return }
        tracker.changed(tables, autocommit: sqlite3_get_autocommit(handle) != 0)
    }

    /// Hands on the tables of a commit made by the statement that just returned.
    @inline(__always)
    func settleCommit() {
        guard tracker.hasCommitted, let handle else { return }
        tracker.settle(autocommit: sqlite3_get_autocommit(handle) != 0)
    }

    /// SQLite's `PRAGMA data_version`: it changes when another connection commits to the
    /// database file, never for this connection's own commits.
    public func dataVersion() throws(CarFitError) -> Int64 {
        let s = try statement("PRAGMA data_version")
        defer { s.reset() }
        guard try s.step(), let version = s.int(0) else { throw CarFitError(.storage, "The database gave no data_version.") }
        return version
    }

    public var changes: Int { handle.map { Int(sqlite3_changes($0)) } ?? 0 }

    /// Changes whenever the stored data may have changed: a write through this connection
    /// (SQLite's total change count) or a commit by any other (`PRAGMA data_version`). Equal
    /// stamps mean nothing was written in between, so results read in between still hold.
    public struct ChangeStamp: Equatable, Sendable {
        let own: Int64
        let others: Int64
    }

    public func changeStamp() throws(CarFitError) -> ChangeStamp {
        guard let handle else { throw CarFitError(.storage, "The database is closed.") }
        let s = try statement("PRAGMA data_version")
        defer { s.reset() }
        guard try s.step(), let others = s.int(0) else { throw CarFitError(.storage, "The database gave no data_version.") }
        return ChangeStamp(own: sqlite3_total_changes64(handle), others: others)
    }
    public var lastInsertRowID: Int64 { handle.map { sqlite3_last_insert_rowid($0) } ?? 0 }

    /// One open transaction level, from `beginTransaction`: commit or roll it back exactly once.
    public struct Transaction: Sendable {
        let id: Int
        /// 1 for the outermost level (`BEGIN IMMEDIATE`), more for SAVEPOINTs inside it.
        public let depth: Int
    }

    /// The number of open transaction levels (0: none).
    public var transactionDepth: Int { levels.count }

    /// Runs `body` in a transaction: committed if it returns, rolled back (leaving the database
    /// as it was before the call) if it throws. Inside another transaction it is a SAVEPOINT:
    /// its writes become part of the outer transaction, or are undone alone if `body` throws.
    public func transaction<T>(_ body: () throws(CarFitError) -> T) throws(CarFitError) -> T {
        let level = try beginTransaction()
        do {
            let result = try body()
            try commit(level)
            return result
        } catch {
            rollback(level)
            throw error
        }
    }

    /// Opens a transaction level for work that spans several calls (`transaction` is the
    /// closure form): `BEGIN IMMEDIATE` when none is open, else a SAVEPOINT.
    public func beginTransaction() throws(CarFitError) -> Transaction {
        guard let handle else { throw CarFitError(.storage, "The database is closed.") }
        if levels.isEmpty {
            guard sqlite3_get_autocommit(handle) != 0 else {
                throw CarFitError(.internal, "A transaction was opened on the database without Database.transaction; nested transactions must go through it.")
            }
            try execute("BEGIN IMMEDIATE")
        } else {
            // SQLite ends the whole transaction on some failures (disk full, I/O error): then
            // there is nothing left to nest in, and writing on would autocommit.
            guard sqlite3_get_autocommit(handle) == 0 else {
                throw StorageFailure(path: path, reason: .other(
                    "an earlier failure (such as a full disk) ended the change in progress, so nothing was saved. Try again"
                )).error
            }
            try execute("SAVEPOINT \(Database.savepoint(nextLevelID))")
        }
        let level = Transaction(id: nextLevelID, depth: levels.count + 1)
        nextLevelID &+= 1
        levels.append(level.id)
        return level
    }

    /// Commits `level`: `COMMIT` for the outermost, else releases its SAVEPOINT into the level
    /// around it. Only the innermost open level can be committed; a level already rolled back
    /// (by an outer rollback) or committed is refused.
    public func commit(_ level: Transaction) throws(CarFitError) {
        guard levels.last == level.id else {
            throw CarFitError(.internal, levels.contains(level.id)
                ? "A transaction was committed while a transaction inside it was still open."
                : "A transaction was committed after it had ended.")
        }
        if levels.count == 1 {
            try execute("COMMIT")
        } else {
            try execute("RELEASE \(Database.savepoint(level.id))")
        }
        levels.removeLast()
    }

    /// Rolls `level` back, with every level still open inside it: `ROLLBACK` for the outermost,
    /// else back to its SAVEPOINT (which is then released). A level that already ended is left
    /// alone, so rolling back twice is harmless.
    public func rollback(_ level: Transaction) {
        guard let index = levels.firstIndex(of: level.id) else { return }
        if index == 0 {
            try? execute("ROLLBACK")
        } else {
            let name = Database.savepoint(level.id)
            try? execute("ROLLBACK TO \(name); RELEASE \(name)")
        }
        levels.removeSubrange(index...)
    }

    static func savepoint(_ id: Int) -> String { "carfit_level_\(id)" }
}

/// A prepared statement held by one caller. Binding indices start at 1, columns at 0, as in
/// SQLite. Released, it goes back to its database for reuse; text read with `utf8` is valid
/// only while the statement is held and not stepped or reset.
public final class Statement {
    private var stmt: OpaquePointer?
    private let sql: String
    /// The tables the statement writes (nil: a read).
    private let writes: Set<String>?
    private let database: Database

    init(_ stmt: OpaquePointer, sql: String, writes: Set<String>?, database: Database) {
        self.stmt = stmt
        self.sql = sql
        self.writes = writes
        self.database = database
    }

    deinit {
        if let stmt { database.checkIn(stmt, sql: sql) }
    }

    public func reset() {
        sqlite3_reset(stmt)
        sqlite3_clear_bindings(stmt)
    }

    public func bind(_ arguments: [SQLValue]) throws(CarFitError) {
        for (i, value) in arguments.enumerated() { try bind(Int32(i + 1), value) }
    }

    public func bind(_ index: Int32, _ value: SQLValue) throws(CarFitError) {
        let rc: Int32
        switch value {
        case .null: rc = sqlite3_bind_null(stmt, index)
        case .int(let v): rc = sqlite3_bind_int64(stmt, index, v)
        case .double(let v): rc = sqlite3_bind_double(stmt, index, v)
        case .text(let v): rc = sqlite3_bind_text(stmt, index, v, -1, cf_sqlite_transient())
        }
        guard rc == SQLITE_OK else { throw database.error(rc) }
    }

    public func bind(_ index: Int32, _ value: String?) throws(CarFitError) {
        try bind(index, value.map(SQLValue.text) ?? .null)
    }

    public func bind(_ index: Int32, _ value: Int64?) throws(CarFitError) {
        try bind(index, value.map(SQLValue.int) ?? .null)
    }

    public func bind(_ index: Int32, _ value: Double?) throws(CarFitError) {
        try bind(index, value.map(SQLValue.double) ?? .null)
    }

    /// Binds UTF-8 text (NULL for nil) that SQLite does not copy: `text` must stay valid and
    /// unchanged until the statement is reset or bound again.
    func bindStatic(text: UnsafeRawBufferPointer?, _ index: Int32) throws(CarFitError) {
        guard (text?.count ?? 0) <= Int(Int32.max) else { throw database.error(SQLITE_TOOBIG, message: String(cString: sqlite3_errstr(SQLITE_TOOBIG))) }
        let rc: Int32
        if let text, let base = text.baseAddress {
            rc = sqlite3_bind_text(stmt, index, base.assumingMemoryBound(to: CChar.self), Int32(text.count), nil)
        } else if text != nil {
            // Empty text needs a pointer of its own (SQLite reads a null one as NULL).
            rc = sqlite3_bind_text(stmt, index, "", 0, cf_sqlite_transient())
        } else {
            rc = sqlite3_bind_null(stmt, index)
        }
        guard rc == SQLITE_OK else { throw database.error(rc) }
    }

    /// Binds a blob that SQLite does not copy (as `bindStatic(text:_:)`).
    func bindStatic(blob: UnsafeRawBufferPointer, _ index: Int32) throws(CarFitError) {
        guard blob.count <= Int(Int32.max) else { throw database.error(SQLITE_TOOBIG, message: String(cString: sqlite3_errstr(SQLITE_TOOBIG))) }
        let rc = blob.baseAddress.map { sqlite3_bind_blob(stmt, index, $0, Int32(blob.count), nil) }
            ?? sqlite3_bind_zeroblob(stmt, index, 0)
        guard rc == SQLITE_OK else { throw database.error(rc) }
    }

    func bind(_ index: Int32, int value: Int64) throws(CarFitError) {
        let rc = sqlite3_bind_int64(stmt, index, value)
        guard rc == SQLITE_OK else { throw database.error(rc) }
    }

    /// Resets the statement to run again, keeping its bindings.
    func rewind() {
        sqlite3_reset(stmt)
    }

    /// Advances; true when a row is available.
    public func step() throws(CarFitError) -> Bool {
        guard !database.isClosed else { throw CarFitError(.storage, "The database is closed.") }
        // A statement that writes reports its tables when it changed rows (`ChangeTracker`).
        let before = writes == nil ? 0 : database.totalChanges
        let rc = sqlite3_step(stmt)
        if let writes, rc == SQLITE_ROW || rc == SQLITE_DONE, database.totalChanges != before { database.changed(writes) }
        database.settleCommit()
        switch rc {
        case SQLITE_ROW: return true
        case SQLITE_DONE: return false
        default: throw database.error(rc)
        }
    }

    public var columnCount: Int32 { sqlite3_column_count(stmt) }

    public func value(_ column: Int32) -> SQLValue {
        switch sqlite3_column_type(stmt, column) {
        case SQLITE_INTEGER: return .int(sqlite3_column_int64(stmt, column))
        case SQLITE_FLOAT: return .double(sqlite3_column_double(stmt, column))
        case SQLITE_NULL: return .null
        default: return .text(text(column) ?? "")
        }
    }

    public func text(_ column: Int32) -> String? {
        utf8(column).map { String(decoding: $0, as: UTF8.self) }
    }

    /// The column's text as SQLite holds it (nil for NULL), valid until the statement steps,
    /// resets or reads the column as another type.
    public func utf8(_ column: Int32) -> UnsafeBufferPointer<UInt8>? {
        // One sqlite3_column_* call per column, then the value's own accessors (which skip the
        // per-call error bookkeeping): the connection is used by one thread at a time.
        guard let value = sqlite3_column_value(stmt, column), let p = sqlite3_value_text(value) else { return nil }
        return UnsafeBufferPointer(start: p, count: Int(sqlite3_value_bytes(value)))
    }

    /// The column's bytes as a blob (nil for NULL), valid as `utf8`'s.
    func blob(_ column: Int32) -> UnsafeRawBufferPointer? {
        guard let value = sqlite3_column_value(stmt, column), sqlite3_value_type(value) != SQLITE_NULL else { return nil }
        let p = sqlite3_value_blob(value)
        return UnsafeRawBufferPointer(start: p, count: Int(sqlite3_value_bytes(value)))
    }

    public func int(_ column: Int32) -> Int64? {
        guard let value = sqlite3_column_value(stmt, column), sqlite3_value_type(value) != SQLITE_NULL else { return nil }
        return sqlite3_value_int64(value)
    }

    public func double(_ column: Int32) -> Double? {
        guard let value = sqlite3_column_value(stmt, column), sqlite3_value_type(value) != SQLITE_NULL else { return nil }
        return sqlite3_value_double(value)
    }

    public func row() -> [SQLValue] { (0..<columnCount).map(value) }
}
