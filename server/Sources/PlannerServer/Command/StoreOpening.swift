import Foundation
import Logging

/// The database a `--database` URL names.
public enum DatabaseURL: Sendable, Equatable {
    case sqlite(path: String)
    case postgres(url: String)

    /// `sqlite:PATH`, `postgres://…` or `postgresql://…`; nil for anything else.
    public init?(_ text: String) {
        if text.hasPrefix("sqlite:") {
            let path = String(text.dropFirst("sqlite:".count))
            guard !path.isEmpty else { return nil }
            self = .sqlite(path: path)
        } else if text.hasPrefix("postgres://") || text.hasPrefix("postgresql://") {
            guard PostgresDatabase.configuration(url: text) != nil else { return nil }
            self = .postgres(url: text)
        } else {
            return nil
        }
    }

    /// The attachments' default directory: `planner-files` beside a SQLite database; none for
    /// PostgreSQL (several machines need one shared place, so it is named).
    public var defaultFiles: String? {
        guard case .sqlite(let path) = self else { return nil }
        let directory = (path as NSString).deletingLastPathComponent
        return ((directory.isEmpty ? "." : directory) as NSString).appendingPathComponent("planner-files")
    }

    /// Opens the store and migrates it; throws `StoreError` (whose text never holds a password).
    public func open(logger: Logger = Logger(label: "carfit-planner")) async throws -> SQLPlannerStore {
        let database: any SQLDatabase
        switch self {
        case .sqlite(let path):
            database = try SQLiteDatabase(path: path)
        case .postgres(let url):
            guard let config = PostgresDatabase.configuration(url: url) else { throw StoreError("not a PostgreSQL URL") }
            try await PostgresDatabase.probe(config, logger: logger)
            database = PostgresDatabase(configuration: config, logger: logger)
        }
        let store = SQLPlannerStore(db: database)
        do {
            try await store.migrate()
        } catch {
            await store.close()
            throw StoreError("cannot open the database: \(Self.safe(error))")
        }
        return store
    }

    /// An error's text without anything that could be a secret from the URL.
    static func safe(_ error: any Error) -> String {
        if let store = error as? StoreError { return store.description }
        return String(describing: type(of: error))
    }
}
