import XCTest
import CarFitCore
@testable import CarFitStore

/// Each caller of `Database.statement` gets a statement of its own: the same SQL run while a
/// cursor over it is open does not reset that cursor.
final class StatementTests: XCTestCase {
    private func numbers(_ count: Int) throws -> Database {
        let db = try Database(path: ":memory:")
        try db.execute("CREATE TABLE numbers (n INTEGER PRIMARY KEY)")
        for n in 1...count { try db.run("INSERT INTO numbers (n) VALUES (?1)", [.int(Int64(n))]) }
        return db
    }

    func testSameSQLInsideAStepLoopDoesNotResetTheOuterCursor() throws {
        let db = try numbers(3)
        let sql = "SELECT n FROM numbers ORDER BY n"
        let outer = try db.statement(sql)
        var seen: [Int64] = []
        var innerFirst: [Int64] = []
        // Bounded: a cursor reset by the inner query would start over forever.
        while seen.count < 10, try outer.step() {
            seen.append(outer.int(0) ?? -1)
            let inner = try db.statement(sql)
            XCTAssertTrue(try inner.step())
            innerFirst.append(inner.int(0) ?? -1)
        }
        XCTAssertEqual(seen, [1, 2, 3])
        XCTAssertEqual(innerFirst, [1, 1, 1])
    }

    func testQueryOfTheSameSQLInsideAStepLoop() throws {
        let db = try numbers(4)
        let sql = "SELECT n FROM numbers WHERE n >= ?1 ORDER BY n"
        let outer = try db.statement(sql)
        try outer.bind(1, Int64(2))
        var pairs: [[Int64]] = []
        while pairs.count < 10, try outer.step() {
            let n = outer.int(0) ?? -1
            let rest = try db.query(sql, [.int(n)]).compactMap { row -> Int64? in
                if case .int(let v)? = row.first { return v }
                return nil
            }
            pairs.append([n] + rest)
        }
        XCTAssertEqual(pairs, [[2, 2, 3, 4], [3, 3, 4], [4, 4]])
    }

    func testVisitsReadInsideAVisitLoop() throws {
        let db = try Database(path: ":memory:")
        let store = VisitStore(db)
        try store.replaceAll(with: [TestDatabase.visit("a", minutes: 0), TestDatabase.visit("b", minutes: 10),
                                    TestDatabase.visit("c", minutes: 20)])
        let day = Int64(1_599_696_000_000)..<Int64(1_599_782_400_000)
        var outer: [String] = []
        var innerCounts: [Int] = []
        try store.forEachVisit(startingIn: day) { (row) throws(CarFitError) in
            outer.append(String(decoding: row.name, as: UTF8.self))
            guard outer.count < 10 else { throw CarFitError(.internal, "the outer cursor started over") }
            innerCounts.append(try store.visits(startingIn: day).count)
        }
        XCTAssertEqual(outer, ["a", "b", "c"])
        XCTAssertEqual(innerCounts, [3, 3, 3])
    }

    func testReleasedStatementsAreReused() throws {
        let db = try numbers(2)
        let sql = "SELECT count(*) FROM numbers"
        let before = db.idleStatementCount
        XCTAssertEqual(try db.scalarInt(sql), 2)
        XCTAssertEqual(db.idleStatementCount, before + 1)
        XCTAssertEqual(try db.scalarInt(sql), 2)
        XCTAssertEqual(db.idleStatementCount, before + 1, "the idle statement is reused, not prepared again")
        do {
            let a = try db.statement(sql)
            XCTAssertEqual(db.idleStatementCount, before, "held statements are not idle")
            let b = try db.statement(sql)
            XCTAssertTrue(try a.step())
            XCTAssertTrue(try b.step())
        }
        XCTAssertEqual(db.idleStatementCount, before + 2)
    }

    func testReleasedStatementComesBackUnbound() throws {
        let db = try numbers(3)
        let sql = "SELECT count(*) FROM numbers WHERE ?1 IS NULL OR n = ?1"
        do {
            let s = try db.statement(sql)
            try s.bind(1, Int64(2))
            XCTAssertTrue(try s.step())
            XCTAssertEqual(s.int(0), 1)
        }
        let s = try db.statement(sql)
        XCTAssertTrue(try s.step())
        XCTAssertEqual(s.int(0), 3, "no binding carried over from the last holder")
    }

    func testStatementHeldPastCloseFailsCleanly() throws {
        let db = try numbers(1)
        let s = try db.statement("SELECT n FROM numbers")
        db.close()
        XCTAssertThrowsError(try s.step()) { error in
            XCTAssertEqual((error as? CarFitError)?.status, .storage)
        }
        XCTAssertThrowsError(try db.statement("SELECT 1"))
    }
}
