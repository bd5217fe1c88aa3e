import XCTest
import CarFitCore
@testable import CarFitStore

/// The schema's migrations: a new file gets the latest schema, an older one is brought up to
/// it with its rows kept, a newer one is refused and left as it was.
final class MigrationTests: XCTestCase {
    private let tables = ["articles", "attachments", "cart_lines", "employees", "local_changes", "login_guard", "meta", "order_lines",
                          "orders", "patterns", "products", "road_arrivals", "road_dwell", "road_points", "road_state", "source_state",
                          "sync_rejected", "sync_state", "transactions", "visit_local", "visits"]
    private let indexes = ["articles_by_published", "attachments_by_start", "attachments_by_visit", "attachments_pending",
                           "local_changes_by_key", "local_changes_pending", "orders_by_employee", "road_arrivals_by_start",
                           "road_points_pending", "transactions_by_category", "visit_local_by_start", "visits_by_day", "visits_by_key"]

    private func names(_ db: Database, type: String) throws -> [String] {
        try db.query("SELECT name FROM sqlite_master WHERE type = ?1 AND name NOT LIKE 'sqlite_%' ORDER BY name",
                     [.text(type)]).compactMap {
            if case .text(let name)? = $0.first { return name }
            return nil
        }
    }

    func testFreshDatabaseGetsTheLatestSchema() throws {
        let db = try Database(path: ":memory:")
        XCTAssertEqual(Schema.currentVersion, 10)
        XCTAssertEqual(try db.scalarInt("PRAGMA user_version"), Schema.currentVersion)
        XCTAssertEqual(try names(db, type: "table"), tables)
        XCTAssertEqual(try names(db, type: "index"), indexes)
        // The database's client id, made once by the migration: a version 4 UUID.
        let client = try db.query("SELECT client_id FROM sync_state")
        guard case .text(let id)? = client.first?.first else { return XCTFail("no client id") }
        XCTAssertTrue(UUIDv4.isValid(id), id)
    }

    func testOlderSchemaIsMigratedAndKeepsItsRows() throws {
        let path = try TestDatabase.temporaryPath()
        defer { TestDatabase.remove(path) }
        // A file as the first release wrote it: migration 1 only, with one visit.
        do {
            let db = try Database(path: path)
            for table in tables { try db.execute("DROP TABLE \(table)") }
            try db.execute(Schema.migrations[0])
            try db.execute("PRAGMA user_version = 1")
            try db.run("""
                INSERT INTO visits (seq, visit_id, start_ms, name, tasks, task_minutes, address)
                VALUES (0, 'a', 1599696000000, 'Kept', 'Wash', 30, 'Street 1')
                """)
            XCTAssertEqual(try names(db, type: "index"), ["visits_by_start"])
            db.close()
        }
        let db = try Database(path: path)
        XCTAssertEqual(try db.scalarInt("PRAGMA user_version"), Schema.currentVersion)
        XCTAssertEqual(try names(db, type: "table"), tables)
        // Migration 6 replaced the first visits index with the covering one, migration 7 added
        // the visit keys and the outbox.
        XCTAssertEqual(try names(db, type: "index"), indexes)
        XCTAssertEqual(try TestDatabase.visitNames(db), ["Kept"])
        let day = Int64(1_599_696_000_000)..<Int64(1_599_782_400_000)
        XCTAssertEqual(try VisitStore(db).visits(startingIn: day).map(\.visitId), ["a"])
    }

    func testNewerSchemaIsRefusedAndLeftAsItWas() throws {
        let path = try TestDatabase.temporaryPath()
        defer { TestDatabase.remove(path) }
        do {
            let db = try Database(path: path)
            try db.execute("PRAGMA user_version = \(Schema.currentVersion + 1)")
            db.close()
        }
        XCTAssertThrowsError(try Database(path: path)) { error in
            guard let error = error as? CarFitError else { return XCTFail("\(error)") }
            XCTAssertEqual(error.status, .storage)
            XCTAssertEqual(error.field, "database")
            XCTAssertTrue(error.message.contains("newer libcarfit"), error.message)
        }
        // Still the newer version: nothing was migrated down or over it. (Reading it back through
        // a core would refuse again, so the raw header field is checked: user_version is the
        // big-endian 32-bit integer at offset 60.)
        let header = try Data(contentsOf: URL(fileURLWithPath: path)).prefix(64)
        let version = header.suffix(4).reduce(Int64(0)) { $0 << 8 | Int64($1) }
        XCTAssertEqual(version, Schema.currentVersion + 1)
    }

    func testNegativeSchemaVersionIsRefused() throws {
        let path = try TestDatabase.temporaryPath()
        defer { TestDatabase.remove(path) }
        do {
            let db = try Database(path: path)
            try db.execute("PRAGMA user_version = -1")
            db.close()
        }
        XCTAssertThrowsError(try Database(path: path)) { error in
            XCTAssertEqual((error as? CarFitError)?.status, .storage)
        }
    }
}
