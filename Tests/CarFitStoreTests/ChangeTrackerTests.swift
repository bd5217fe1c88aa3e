import XCTest
import CarFitCore
@testable import CarFitStore

/// The tables a committed transaction wrote reach the commit observer; a rolled-back one
/// reports nothing; every table of the schema has its areas.
final class ChangeTrackerTests: XCTestCase {
    /// A database whose commits are recorded, each as its tables, sorted.
    private func recorded() throws -> (Database, () -> [[String]]) {
        let db = try Database(path: ":memory:")
        var commits: [[String]] = []
        db.onCommit { commits.append($0.sorted()) }
        return (db, { commits })
    }

    func testEveryTableOfTheMigrationsHasItsAreas() throws {
        let db = try Database(path: ":memory:")
        let tables = try db.query("SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'")
            .compactMap { row -> String? in if case .text(let name)? = row.first { return name } else { return nil } }
        XCTAssertFalse(tables.isEmpty)
        XCTAssertEqual(Set(tables), Set(StoredAreas.byTable.keys), "a table without areas, or areas of a table that is gone")
        for (table, areas) in StoredAreas.byTable {
            XCTAssertFalse(areas.isEmpty, table)
            XCTAssertTrue(Set(areas).isSubset(of: StoredAreas.areas), table)
        }
    }

    func testAreasFollowTheTablesInTheFeedsOrder() {
        XCTAssertEqual(StoredAreas.areas(of: ["transactions", "visits"]), ["visits", "calendar", "transactions", "insights"])
        XCTAssertEqual(StoredAreas.areas(of: ["cart_lines", "orders", "order_lines"]), ["cart", "orders"])
        XCTAssertEqual(StoredAreas.areas(of: ["visits", "a_table_of_tomorrow"]), ["all"])
        XCTAssertEqual(StoredAreas.areas(of: []), [])
    }

    func testACommittedTransactionReportsItsTablesOnce() throws {
        let (db, commits) = try recorded()
        try db.transaction { () throws(CarFitError) in
            try db.run("INSERT INTO patterns (image_url, colors) VALUES ('http://x/a.png', '')")
            try db.run("INSERT INTO patterns (image_url, colors) VALUES ('http://x/b.png', '')")
            try db.run("INSERT INTO meta (key, value) VALUES ('k', 'v')")
            XCTAssertEqual(commits(), [], "nothing before the commit")
        }
        XCTAssertEqual(commits(), [["meta", "patterns"]])
    }

    func testAStatementOutsideATransactionReportsItsCommit() throws {
        let (db, commits) = try recorded()
        try db.run("INSERT INTO meta (key, value) VALUES ('k', 'v')")
        try db.run("UPDATE meta SET value = 'w'")
        XCTAssertEqual(commits(), [["meta"], ["meta"]])
        _ = try db.query("SELECT * FROM meta")
        XCTAssertEqual(commits().count, 2, "a read commits nothing")
    }

    func testARolledBackTransactionReportsNothing() throws {
        let (db, commits) = try recorded()
        XCTAssertThrowsError(try db.transaction { () throws(CarFitError) in
            try db.run("INSERT INTO meta (key, value) VALUES ('k', 'v')")
            throw CarFitError(.invalid, "no")
        })
        XCTAssertEqual(commits(), [])
        try db.run("INSERT INTO patterns (image_url, colors) VALUES ('http://x/a.png', '')")
        XCTAssertEqual(commits(), [["patterns"]], "the rolled-back table does not come back later")
    }

    func testClearingATableIsSeenThoughSQLiteReportsNoRows() throws {
        let (db, commits) = try recorded()
        try db.run("INSERT INTO patterns (image_url, colors) VALUES ('http://x/a.png', '')")
        try db.transaction { () throws(CarFitError) in try db.execute("DELETE FROM patterns") }
        XCTAssertEqual(commits(), [["patterns"], ["patterns"]])
        XCTAssertEqual(try db.scalarInt("SELECT count(*) FROM patterns"), 0)
    }

    func testAStatementThatChangesNothingReportsNothing() throws {
        let (db, commits) = try recorded()
        try db.run("INSERT INTO meta (key, value) VALUES ('k', 'v')")
        XCTAssertEqual(commits(), [["meta"]])
        // Prepared for the first time here (the authorizer names the table), run without a row.
        try db.run("DELETE FROM meta WHERE key = ?1", [.text("none")])
        try db.run("UPDATE meta SET value = 'w' WHERE key = ?1", [.text("none")])
        try db.run("INSERT OR IGNORE INTO meta (key, value) VALUES ('k', 'x')")
        try db.execute("DELETE FROM patterns")
        try db.transaction { () throws(CarFitError) in
            try db.run("DELETE FROM visits WHERE start_ms < ?1", [.int(0)])
            try db.execute("DELETE FROM order_lines")
        }
        XCTAssertEqual(commits(), [["meta"]], "no row changed: no commit reported")
        // The same statements when they change rows.
        try db.run("DELETE FROM meta WHERE key = ?1", [.text("k")])
        XCTAssertEqual(commits(), [["meta"], ["meta"]])
    }

    func testWritesToATableWithoutRowidAreReported() throws {
        let (db, commits) = try recorded()
        // SQLite's update hook says nothing of a WITHOUT ROWID table (visits is one).
        let insert = "INSERT INTO visits (start_ms, seq, visit_id, repetition, employee_id, card) VALUES (?1, ?2, 'v', 0, NULL, x'00')"
        try db.run(insert, [.int(1_000), .int(1)])
        try db.transaction { () throws(CarFitError) in try db.run(insert, [.int(2_000), .int(2)]) }
        try db.run("UPDATE visits SET employee_id = 'e' WHERE seq = ?1", [.int(2)])
        try db.run("DELETE FROM visits WHERE seq = ?1", [.int(1)])
        XCTAssertEqual(commits(), [["visits"], ["visits"], ["visits"], ["visits"]])
        try db.run("UPDATE visits SET employee_id = 'e' WHERE seq = ?1", [.int(9)])
        XCTAssertEqual(commits().count, 4, "no row of visits changed")
    }

    func testAnInnerLevelsWritesAreReportedWithTheOuterCommit() throws {
        let (db, commits) = try recorded()
        try db.transaction { () throws(CarFitError) in
            try db.run("INSERT INTO meta (key, value) VALUES ('k', 'v')")
            try db.transaction { () throws(CarFitError) in
                try db.run("INSERT INTO patterns (image_url, colors) VALUES ('http://x/a.png', '')")
            }
            XCTAssertEqual(commits(), [], "a released savepoint is no commit")
        }
        XCTAssertEqual(commits(), [["meta", "patterns"]])
    }

    func testAnotherConnectionsCommitChangesTheDataVersion() throws {
        let path = try TestDatabase.temporaryPath()
        defer { TestDatabase.remove(path) }
        let (db, commits) = try { () throws -> (Database, () -> [[String]]) in
            let db = try Database(path: path)
            var commits: [[String]] = []
            db.onCommit { commits.append($0.sorted()) }
            return (db, { commits })
        }()
        let other = try Database(path: path)
        let before = try db.dataVersion()
        try db.run("INSERT INTO meta (key, value) VALUES ('own', 'v')")
        XCTAssertEqual(try db.dataVersion(), before, "its own commit")
        try other.run("INSERT INTO meta (key, value) VALUES ('other', 'v')")
        XCTAssertNotEqual(try db.dataVersion(), before)
        XCTAssertEqual(commits(), [["meta"]], "another connection's commit is not this one's")
    }
}
