import CPlannerSQLite
import Foundation
import NIOPosix

/// SQLite through the system's libsqlite3: a few connections to one file in WAL mode, each write
/// transaction `BEGIN IMMEDIATE` (one writer at a time across every process on the file, waiting
/// up to the busy timeout), statements run on NIO's thread pool.
public final class SQLiteDatabase: SQLDatabase, @unchecked Sendable {
    public let dialect = SQLDialect.sqlite
    public let path: String
    /// Readers share a few connections; writers take the one writing connection in turn, so
    /// no thread of the pool waits on SQLite's lock for another connection of this process.
    private let readers: SQLiteConnectionPool
    private let writer: SQLiteConnectionPool

    /// Opens (creating) the file; throws `StoreError` when it cannot be opened as a database.
    public init(path: String, readers: Int = 3) throws {
        self.path = path
        writer = SQLiteConnectionPool([try SQLiteConnection(path: path)])
        var made: [SQLiteConnection] = []
        for _ in 0..<max(1, readers) { made.append(try SQLiteConnection(path: path)) }
        self.readers = SQLiteConnectionPool(made)
    }

    public func transaction<T: Sendable>(readOnly: Bool, _ body: @Sendable (any SQLExecutor) async throws -> T) async throws -> T {
        let pool = readOnly ? readers : writer
        let connection = await pool.take()
        defer { Task { await pool.give(connection) } }
        var attempt = 0
        while true {
            attempt += 1
            try await connection.blocking { try $0.exec(readOnly ? "BEGIN" : "BEGIN IMMEDIATE") }
            do {
                let value = try await body(connection)
                try await connection.blocking { try $0.exec("COMMIT") }
                return value
            } catch {
                try? await connection.blocking { try $0.exec("ROLLBACK") }
                if let failure = error as? SQLiteError, failure.isBusy, attempt < 5 { continue }
                throw error
            }
        }
    }

    public func migrate(_ steps: [String]) async throws {
        try await transaction(readOnly: false) { db in
            let version = try await db.first("PRAGMA user_version")?[0].int ?? 0
            guard version < Int64(steps.count) else { return }
            for step in steps[Int(version)...] {
                for statement in step.split(separator: ";") where !statement.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty {
                    try await db.run(String(statement))
                }
            }
            try await db.run("PRAGMA user_version = \(steps.count)")
        }
    }

    public func close() async {
        await readers.closeAll()
        await writer.closeAll()
    }
}

/// A failure SQLite reported.
struct SQLiteError: Error, CustomStringConvertible {
    var code: Int32
    var message: String
    var description: String { "SQLite error \(code): \(message)" }
    var isBusy: Bool { code & 0xFF == SQLITE_BUSY || code & 0xFF == SQLITE_LOCKED }
}

/// Hands connections out one task at a time.
actor SQLiteConnectionPool {
    private var free: [SQLiteConnection]
    private var waiting: [CheckedContinuation<SQLiteConnection, Never>] = []
    private var all: [SQLiteConnection]

    init(_ connections: [SQLiteConnection]) {
        free = connections
        all = connections
    }

    func take() async -> SQLiteConnection {
        if let connection = free.popLast() { return connection }
        return await withCheckedContinuation { waiting.append($0) }
    }

    func give(_ connection: SQLiteConnection) {
        if waiting.isEmpty { free.append(connection) } else { waiting.removeFirst().resume(returning: connection) }
    }

    func closeAll() {
        for connection in all { connection.close() }
        all = []
        free = []
    }
}

/// One connection; used by one task at a time (the pool's rule), its calls made on the thread pool.
final class SQLiteConnection: SQLExecutor, @unchecked Sendable {
    private var handle: OpaquePointer?

    init(path: String) throws {
        var db: OpaquePointer?
        let flags = SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_NOMUTEX
        let rc = sqlite3_open_v2(path, &db, flags, nil)
        guard rc == SQLITE_OK, let db else {
            let message = db.map { String(cString: sqlite3_errmsg($0)) } ?? "cannot open"
            sqlite3_close(db)
            throw StoreError("cannot open the SQLite database \(path): \(message)")
        }
        handle = db
        sqlite3_busy_timeout(db, 10_000)
        do {
            try exec("PRAGMA journal_mode=WAL")
            try exec("PRAGMA synchronous=NORMAL")
            try exec("PRAGMA foreign_keys=ON")
            // A file that is not a database fails here.
            try exec("SELECT count(*) FROM sqlite_master")
        } catch {
            sqlite3_close(db)
            handle = nil
            throw StoreError("cannot use \(path) as a SQLite database: \(error)")
        }
    }

    func close() {
        if let handle { sqlite3_close_v2(handle) }
        handle = nil
    }

    /// Runs `work` on NIO's blocking thread pool.
    func blocking<T: Sendable>(_ work: @escaping @Sendable (SQLiteConnection) throws -> T) async throws -> T {
        try await NIOThreadPool.singleton.runIfActive { try work(self) }
    }

    func exec(_ sql: String) throws {
        _ = try step(sql, [])
    }

    func query(_ sql: String, _ binds: [SQLValue]) async throws -> [SQLRow] {
        try await blocking { try $0.step(sql, binds) }
    }

    private func fail(_ rc: Int32) -> SQLiteError {
        SQLiteError(code: rc, message: handle.map { String(cString: sqlite3_errmsg($0)) } ?? "closed")
    }

    func step(_ sql: String, _ binds: [SQLValue]) throws -> [SQLRow] {
        guard let handle else { throw StoreError("the database is closed") }
        var statement: OpaquePointer?
        var rc = sqlite3_prepare_v2(handle, sql, -1, &statement, nil)
        guard rc == SQLITE_OK, let statement else { throw fail(rc) }
        defer { sqlite3_finalize(statement) }
        let transient = unsafeBitCast(-1, to: sqlite3_destructor_type.self)
        for (i, value) in binds.enumerated() {
            let at = Int32(i + 1)
            switch value {
            case .null: rc = sqlite3_bind_null(statement, at)
            case .int(let v): rc = sqlite3_bind_int64(statement, at, v)
            case .double(let v): rc = sqlite3_bind_double(statement, at, v)
            case .text(let v): rc = sqlite3_bind_text(statement, at, v, -1, transient)
            }
            guard rc == SQLITE_OK else { throw fail(rc) }
        }
        var rows: [SQLRow] = []
        while true {
            rc = sqlite3_step(statement)
            if rc == SQLITE_DONE { break }
            guard rc == SQLITE_ROW else { throw fail(rc) }
            let count = sqlite3_column_count(statement)
            var values: [SQLValue] = []
            values.reserveCapacity(Int(count))
            for c in 0..<count {
                switch sqlite3_column_type(statement, c) {
                case SQLITE_INTEGER: values.append(.int(sqlite3_column_int64(statement, c)))
                case SQLITE_FLOAT: values.append(.double(sqlite3_column_double(statement, c)))
                case SQLITE_NULL: values.append(.null)
                default:
                    if let text = sqlite3_column_text(statement, c) {
                        values.append(.text(String(cString: text)))
                    } else {
                        values.append(.null)
                    }
                }
            }
            rows.append(SQLRow(values))
        }
        return rows
    }
}
