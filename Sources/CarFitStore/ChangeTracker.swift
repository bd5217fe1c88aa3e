import CSQLite
#if canImport(Glibc)
import Glibc
#endif

/// Collects the tables a connection's transaction writes, through SQLite's hooks, and hands
/// them to `observer` once the transaction has committed: the source of the change feed's
/// `changed` events, derived from what was written rather than from a list kept per operation.
///
/// - The update hook names each table a row was inserted into, updated or deleted from (a
///   pointer comparison skips the name's conversion for the rows after the first of a table).
/// - The hook says nothing of a `DELETE` without `WHERE` (SQLite's truncate optimisation) nor of
///   any write to a `WITHOUT ROWID` table. For those the authorizer names the tables a statement
///   inserts into, updates or deletes from while it is prepared (`takePrepared`), and the
///   database reports them (`changed`) after each run of the statement that changed rows
///   (SQLite's total change count moved): a statement that changes nothing reports nothing.
/// - The commit hook moves the collected tables aside; they are handed on once the statement
///   that committed has returned and the connection is out of its transaction (a `COMMIT` that
///   failed and left the transaction open puts them back). The rollback hook drops them: a
///   rolled-back transaction publishes nothing. A savepoint rolled back inside a transaction
///   that commits is not told apart: its tables are reported with the rest.
///
/// Used by the thread that holds the connection (the core's lock serialises it).
final class ChangeTracker {
    /// Receives the names of the tables a committed transaction wrote (never empty).
    var observer: ((Set<String>) -> Void)?
    /// Asked as each transaction is about to commit, holding the database's write lock: false
    /// turns the commit into a rollback (the file was replaced under the connection).
    var commitAllowed: (() -> Bool)?
    private var pending: Set<String> = []
    /// The tables the statements prepared since the last `takePrepared` write.
    private var prepared: Set<String> = []
    private var committing: Set<String> = []
    /// The table name SQLite passed last: the same table's rows pass the same pointer.
    private var lastTable: UnsafePointer<CChar>?

    /// Installs the hooks on `handle`; `uninstall` removes them before the connection closes.
    func install(on handle: OpaquePointer) {
        let context = Unmanaged.passUnretained(self).toOpaque()
        sqlite3_update_hook(handle, { context, _, _, table, _ in
            guard let context, let table else { return }
            Unmanaged<ChangeTracker>.fromOpaque(context).takeUnretainedValue().wrote(table)
        }, context)
        sqlite3_set_authorizer(handle, { context, action, table, _, _, _ in
            if action == SQLITE_DELETE || action == SQLITE_INSERT || action == SQLITE_UPDATE, let context, let table {
                Unmanaged<ChangeTracker>.fromOpaque(context).takeUnretainedValue().prepares(table)
            }
            return SQLITE_OK
        }, context)
        _ = sqlite3_commit_hook(handle, { context in
            guard let context else { return 0 }
            let tracker = Unmanaged<ChangeTracker>.fromOpaque(context).takeUnretainedValue()
            // Non-zero turns the commit into a rollback (SQLite's SQLITE_CONSTRAINT_COMMITHOOK).
            if let allowed = tracker.commitAllowed, !allowed() { return 1 }
            tracker.committed()
            return 0
        }, context)
        _ = sqlite3_rollback_hook(handle, { context in
            guard let context else { return }
            Unmanaged<ChangeTracker>.fromOpaque(context).takeUnretainedValue().rolledBack()
        }, context)
    }

    func uninstall(from handle: OpaquePointer) {
        sqlite3_update_hook(handle, nil, nil)
        sqlite3_set_authorizer(handle, nil, nil)
        _ = sqlite3_commit_hook(handle, nil, nil)
        _ = sqlite3_rollback_hook(handle, nil, nil)
    }

    private func wrote(_ table: UnsafePointer<CChar>) {
        if table == lastTable { return }
        lastTable = table
        // SQLite's own tables (the schema, statistics) are not stored data.
        if strncmp(table, "sqlite_", 7) == 0 { return }
        pending.insert(String(cString: table))
    }

    /// A statement that writes `table` is being prepared. The name is the parser's, not the
    /// table's: it is not remembered as `lastTable`.
    private func prepares(_ table: UnsafePointer<CChar>) {
        if strncmp(table, "sqlite_", 7) == 0 { return }
        prepared.insert(String(cString: table))
    }

    /// The tables the statements prepared since the last call write (emptied).
    func takePrepared() -> Set<String> {
        defer { prepared.removeAll() }
        return prepared
    }

    /// A statement that writes `tables` changed rows. `autocommit`: the connection is out of a
    /// transaction after it, so the statement committed its own (its tables go with that
    /// commit); else they go with the transaction's.
    func changed(_ tables: Set<String>, autocommit: Bool) {
        if autocommit {
            committing.formUnion(tables)
        } else {
            pending.formUnion(tables)
        }
    }

    private func committed() {
        committing.formUnion(pending)
        pending.removeAll(keepingCapacity: true)
        lastTable = nil
    }

    private func rolledBack() {
        pending.removeAll(keepingCapacity: true)
        committing.removeAll(keepingCapacity: true)
        lastTable = nil
    }

    /// Whether a commit's tables wait to be handed on.
    var hasCommitted: Bool { !committing.isEmpty }

    /// Called after a statement that committed returns: hands on what a commit wrote once the connection
    /// is out of its transaction (`autocommit`), else keeps it for the transaction's next commit.
    func settle(autocommit: Bool) {
        let tables = committing
        committing.removeAll(keepingCapacity: true)
        if autocommit {
            observer?(tables)
        } else {
            pending.formUnion(tables)
        }
    }
}
