import XCTest
import CarFitCore
@testable import CarFitStore

/// The schema's migrations: a new file gets the latest schema, an older one is brought up to
/// it with its rows kept, a newer one is refused and left as it was.
final class MigrationTests: XCTestCase {
    private let tables = ["article_blocks", "article_tags", "articles", "attachments", "cart_lines", "employees", "local_changes", "login_guard", "meta", "order_lines", "orders", "patterns", "products", "push_received", "push_state", "road_arrivals", "road_dwell", "road_points", "road_state", "source_state", "sync_rejected", "sync_state", "transactions", "visit_conflicts", "visit_fact_tasks", "visit_facts", "visit_local", "visit_snapshots", "visits", "visits_removed"]
    private let indexes = ["articles_by_published", "attachments_by_start", "attachments_by_visit", "attachments_pending", "local_changes_by_key", "local_changes_pending", "orders_by_employee", "road_arrivals_by_start", "road_points_pending", "transactions_by_category", "visit_conflicts_by_start", "visit_facts_by_start", "visit_local_by_start", "visits_removed_by_start"]

    private func names(_ db: Database, type: String) throws -> [String] {
        try db.query("SELECT name FROM sqlite_master WHERE type = ?1 AND name NOT LIKE 'sqlite_%' ORDER BY name",
                     [.text(type)]).compactMap {
            if case .text(let name)? = $0.first { return name }
            return nil
        }
    }

    func testFreshDatabaseGetsTheLatestSchema() throws {
        let db = try Database(path: ":memory:")
        XCTAssertEqual(Schema.currentVersion, 15)
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
        // the visit keys and the outbox, migration 11 made the table one in day order with cards.
        XCTAssertEqual(try names(db, type: "index"), indexes)
        XCTAssertEqual(try TestDatabase.visitNames(db), ["Kept"])
        let day = Int64(1_599_696_000_000)..<Int64(1_599_782_400_000)
        XCTAssertEqual(try VisitStore(db).visits(startingIn: day).map(\.visitId), ["a"])
    }

    func testVersion10VisitsKeepEveryFieldAsCards() throws {
        let path = try TestDatabase.temporaryPath()
        defer { TestDatabase.remove(path) }
        let day: Int64 = 1_599_696_000_000
        do {
            let db = try Database(path: path)
            for table in tables { try db.execute("DROP TABLE \(table)") }
            for sql in Schema.migrations.prefix(10) { try db.execute(sql) }
            try db.execute("PRAGMA user_version = 10")
            try db.run("""
                INSERT INTO visits (seq, visit_id, employee_id, start_ms, name, state, expected_time, tasks, task_minutes,
                                    address, phone, latitude, longitude, repetition, time_used)
                VALUES (0, 'b', 'e1', ?1 + 60000, 'Søren Ærø 🚗', 'Done', '08:00/10:00', 'Vask, Fælgrens', 65,
                        'Nørregade 1, 2100 København Ø', '+4512345678', 55.712345, 12.5, 0, 45),
                       (1, NULL, NULL, ?1, '', NULL, NULL, '', 0, '', NULL, NULL, NULL, 0, NULL),
                       (2, 'b', 'e2', ?1 + 60000, 'Twin', 'ToDo', NULL, 'Wash', -3, 'Street', NULL, -0.0, 180, 1, NULL),
                       (3, 'c', 'e1', ?1, 'Only latitude', 'Whatever', '', 'Wash', 30, 'Street', '', 12, NULL, 0, 0)
                """, [.int(day)])
            db.close()
        }
        let db = try Database(path: path)
        XCTAssertEqual(try db.scalarInt("PRAGMA user_version"), Schema.currentVersion)
        XCTAssertEqual(try names(db, type: "index"), indexes)
        let stored = try VisitStore(db).visits(startingIn: day..<(day + 86_400_000))
        XCTAssertEqual(stored, [
            Visit(visitId: nil, employeeId: nil, start: Instant(milliseconds: day), name: "", state: nil, expectedTime: nil,
                  tasks: "", taskMinutes: 0, address: "", phone: nil, latitude: nil, longitude: nil, timeUsed: nil),
            Visit(visitId: "c", employeeId: "e1", start: Instant(milliseconds: day), name: "Only latitude", state: "Whatever",
                  expectedTime: "", tasks: "Wash", taskMinutes: 30, address: "Street", phone: "", latitude: 12,
                  longitude: nil, timeUsed: 0),
            Visit(visitId: "b", employeeId: "e1", start: Instant(milliseconds: day + 60000), name: "Søren Ærø 🚗",
                  state: "Done", expectedTime: "08:00/10:00", tasks: "Vask, Fælgrens", taskMinutes: 65,
                  address: "Nørregade 1, 2100 København Ø", phone: "+4512345678", latitude: 55.712345, longitude: 12.5,
                  timeUsed: 45),
            Visit(visitId: "b", employeeId: "e2", start: Instant(milliseconds: day + 60000), name: "Twin", state: "ToDo",
                  expectedTime: nil, tasks: "Wash", taskMinutes: -3, address: "Street", phone: nil, latitude: -0.0,
                  longitude: 180, timeUsed: nil, repetition: 1),
        ])
        // A zero is +0, as SQLite's REAL column held it.
        XCTAssertEqual(stored[3].latitude?.sign, .plus)
        XCTAssertEqual(try VisitStore(db).visit(VisitKey(visitId: "b", start: Instant(milliseconds: day + 60000), repetition: 1))?.name,
                       "Twin")
        XCTAssertEqual(try VisitStore(db).visits(startingIn: day..<(day + 86_400_000), employeeId: "e1").map(\.name),
                       ["Only latitude", "Søren Ærø 🚗"])
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
