/// A value bound to or read from a statement.
public enum SQLValue: Sendable, Equatable {
    case null
    case int(Int64)
    case double(Double)
    case text(String)

    public var int: Int64? { if case .int(let i) = self { return i } else { return nil } }
    public var double: Double? {
        switch self {
        case .double(let d): return d
        case .int(let i): return Double(i)
        default: return nil
        }
    }
    public var text: String? { if case .text(let t) = self { return t } else { return nil } }

    public static func opt(_ s: String?) -> SQLValue { s.map(SQLValue.text) ?? .null }
    public static func opt(_ i: Int64?) -> SQLValue { i.map(SQLValue.int) ?? .null }
    public static func opt(_ d: Double?) -> SQLValue { d.map(SQLValue.double) ?? .null }
}

/// One result row, its columns in the statement's order.
public struct SQLRow: Sendable {
    public var values: [SQLValue]
    public init(_ values: [SQLValue]) { self.values = values }
    public subscript(_ i: Int) -> SQLValue { i < values.count ? values[i] : .null }
}

/// Which SQL a store speaks where the two databases differ.
public enum SQLDialect: Sendable {
    case sqlite
    case postgres

    /// `FOR UPDATE` where rows can be locked (PostgreSQL); SQLite's write transaction already
    /// holds the whole database.
    var forUpdate: String { self == .postgres ? " FOR UPDATE" : "" }
}

/// Runs statements inside one transaction. Statements use `?` placeholders.
public protocol SQLExecutor: Sendable {
    func query(_ sql: String, _ binds: [SQLValue]) async throws -> [SQLRow]
}

extension SQLExecutor {
    @discardableResult
    public func run(_ sql: String, _ binds: SQLValue...) async throws -> [SQLRow] { try await query(sql, binds) }
    public func first(_ sql: String, _ binds: SQLValue...) async throws -> SQLRow? { try await query(sql, binds).first }
}

/// A database the store keeps its tables in: SQLite or PostgreSQL.
public protocol SQLDatabase: Sendable {
    var dialect: SQLDialect { get }
    /// Runs `body` in one transaction (a write transaction unless `readOnly`), committed when
    /// it returns and rolled back when it throws. A transaction the database could not
    /// serialize is tried again from the start.
    func transaction<T: Sendable>(readOnly: Bool, _ body: @Sendable (any SQLExecutor) async throws -> T) async throws -> T
    /// Creates or upgrades the tables; safe when several processes do it at once.
    func migrate(_ steps: [String]) async throws
    func close() async
}

/// A failure of the database itself (not of a request).
public struct StoreError: Error, CustomStringConvertible, Sendable {
    public var description: String
    public init(_ description: String) { self.description = description }
}
