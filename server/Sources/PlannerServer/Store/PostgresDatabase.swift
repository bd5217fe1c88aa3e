import Foundation
import Logging
import NIOCore
import PostgresNIO

/// PostgreSQL through PostgresNIO: a pool of connections (`PostgresClient`, run as a service by
/// the caller), each transaction at READ COMMITTED with the rows it changes locked
/// (`SELECT … FOR UPDATE`); a deadlock or serialization failure runs the transaction again.
public final class PostgresDatabase: SQLDatabase, @unchecked Sendable {
    public let dialect = SQLDialect.postgres
    public let client: PostgresClient
    let logger: Logger

    /// A client for `postgres://user:password@host:port/name` (or `postgresql://`); nil when
    /// the URL is not one. The password never appears in errors or logs.
    public static func configuration(url: String) -> PostgresClient.Configuration? {
        guard let parts = URLComponents(string: url), parts.scheme == "postgres" || parts.scheme == "postgresql",
              let host = parts.host, !host.isEmpty, let user = parts.user, !user.isEmpty else { return nil }
        let name = parts.path.hasPrefix("/") ? String(parts.path.dropFirst()) : parts.path
        var config = PostgresClient.Configuration(host: host, port: parts.port ?? 5432, username: user,
                                                  password: parts.password,
                                                  database: name.isEmpty ? nil : name, tls: .disable)
        config.options.connectTimeout = .seconds(5)
        config.options.maximumConnections = 10
        return config
    }

    private let running: Task<Void, Never>

    /// Starts the client's connection pool; `close()` stops it.
    public init(configuration: PostgresClient.Configuration, logger: Logger) {
        self.logger = logger
        let client = PostgresClient(configuration: configuration, backgroundLogger: logger)
        self.client = client
        running = Task { await client.run() }
    }

    /// Connects once and disconnects, within `seconds`: throws `StoreError` when the server
    /// cannot be reached or refuses the login (the pool itself would keep retrying).
    public static func probe(_ config: PostgresClient.Configuration, logger: Logger, seconds: Int64 = 10) async throws {
        guard let host = config.host else { return }
        let connection = PostgresConnection.Configuration(host: host, port: config.port ?? 5432, username: config.username,
                                                          password: config.password, database: config.database, tls: .disable)
        try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask {
                do {
                    let c = try await PostgresConnection.connect(configuration: connection, id: 0, logger: logger)
                    try await c.close()
                } catch let error as PSQLError {
                    throw StoreError("cannot reach PostgreSQL at \(host): \(error.serverInfo?[.message] ?? "\(error.code)")")
                } catch {
                    throw StoreError("cannot reach PostgreSQL at \(host)")
                }
            }
            group.addTask {
                try await Task.sleep(for: .seconds(seconds))
                throw StoreError("PostgreSQL at \(host) did not answer within \(seconds) s")
            }
            try await group.next()
            group.cancelAll()
        }
    }

    public func transaction<T: Sendable>(readOnly: Bool, _ body: @Sendable (any SQLExecutor) async throws -> T) async throws -> T {
        var attempt = 0
        while true {
            attempt += 1
            do {
                return try await client.withConnection { connection in
                    let executor = PostgresExecutor(connection: connection, logger: logger)
                    try await connection.query("BEGIN", logger: logger)
                    do {
                        let value = try await body(executor)
                        try await connection.query("COMMIT", logger: logger)
                        return value
                    } catch {
                        _ = try? await connection.query("ROLLBACK", logger: logger)
                        throw error
                    }
                }
            } catch let error as PSQLError {
                let state = error.serverInfo?[.sqlState]
                // serialization_failure, deadlock_detected, unique_violation of a concurrent insert
                if attempt < 5, state == "40001" || state == "40P01" || state == "23505" { continue }
                throw StoreError("PostgreSQL: \(error.serverInfo?[.message] ?? "\(error.code)")")
            }
        }
    }

    public func migrate(_ steps: [String]) async throws {
        try await transaction(readOnly: false) { db in
            // One migrating process at a time; the others find the tables made.
            try await db.run("SELECT pg_advisory_xact_lock(7262031)")
            try await db.run("CREATE TABLE IF NOT EXISTS planner_schema (version BIGINT NOT NULL)")
            let version = try await db.first("SELECT max(version) FROM planner_schema")?[0].int ?? 0
            guard version < Int64(steps.count) else { return }
            for step in steps[Int(version)...] {
                for statement in step.split(separator: ";") where !statement.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty {
                    try await db.run(String(statement))
                }
            }
            try await db.run("INSERT INTO planner_schema (version) VALUES (?)", .int(Int64(steps.count)))
        }
    }

    public func close() async {
        running.cancel()
    }
}

/// Statements of one transaction on one connection; `?` placeholders become `$1`, `$2`, ….
struct PostgresExecutor: SQLExecutor, @unchecked Sendable {
    let connection: PostgresConnection
    let logger: Logger

    static func numbered(_ sql: String) -> String {
        var out = ""
        var n = 0
        for c in sql {
            if c == "?" {
                n += 1
                out += "$\(n)"
            } else {
                out.append(c)
            }
        }
        return out
    }

    func query(_ sql: String, _ binds: [SQLValue]) async throws -> [SQLRow] {
        var bindings = PostgresBindings(capacity: binds.count)
        for value in binds {
            switch value {
            case .null: bindings.appendNull()
            case .int(let i): try bindings.append(i)
            case .double(let d): try bindings.append(d)
            case .text(let t): try bindings.append(t)
            }
        }
        let rows = try await connection.query(PostgresQuery(unsafeSQL: Self.numbered(sql), binds: bindings), logger: logger)
        var out: [SQLRow] = []
        for try await row in rows {
            var values: [SQLValue] = []
            for cell in row {
                if cell.bytes == nil {
                    values.append(.null)
                    continue
                }
                switch cell.dataType {
                case .int8: values.append(.int(try cell.decode(Int64.self)))
                case .int4: values.append(.int(Int64(try cell.decode(Int32.self))))
                case .int2: values.append(.int(Int64(try cell.decode(Int16.self))))
                case .float8: values.append(.double(try cell.decode(Double.self)))
                case .bool: values.append(.int(try cell.decode(Bool.self) ? 1 : 0))
                default: values.append(.text(try cell.decode(String.self)))
                }
            }
            out.append(SQLRow(values))
        }
        return out
    }
}
