import XCTest
import CarFitCore
@testable import CarFitStore

/// Transactions nest: the outermost is BEGIN IMMEDIATE … COMMIT, inner ones are savepoints that
/// fail alone; levels end innermost first; a transaction opened with plain SQL is refused.
final class TransactionTests: XCTestCase {
    private func database() throws -> Database {
        let db = try Database(path: ":memory:")
        try db.execute("CREATE TABLE items (name TEXT PRIMARY KEY)")
        return db
    }

    private func items(_ db: Database) throws -> [String] {
        try db.query("SELECT name FROM items ORDER BY name").compactMap {
            if case .text(let name)? = $0.first { return name }
            return nil
        }
    }

    private func add(_ name: String, _ db: Database) throws(CarFitError) {
        try db.run("INSERT INTO items (name) VALUES (?1)", [.text(name)])
    }

    private func refusal() -> CarFitError { CarFitError(.invalid, "refused by the test") }

    func testCommitsWhenTheBodyReturns() throws {
        let db = try database()
        let result = try db.transaction { () throws(CarFitError) -> Int in
            XCTAssertEqual(db.transactionDepth, 1)
            try add("a", db)
            return 7
        }
        XCTAssertEqual(result, 7)
        XCTAssertEqual(try items(db), ["a"])
        XCTAssertEqual(db.transactionDepth, 0)
    }

    func testRollsBackWhenTheBodyThrows() throws {
        let db = try database()
        try add("kept", db)
        XCTAssertThrowsError(try db.transaction { () throws(CarFitError) in
            try add("a", db)
            try add("b", db)
            throw refusal()
        }) { error in
            XCTAssertEqual((error as? CarFitError)?.message, "refused by the test")
        }
        XCTAssertEqual(try items(db), ["kept"])
        XCTAssertEqual(db.transactionDepth, 0)
    }

    func testFailedInnerTransactionUndoesOnlyItsOwnWrites() throws {
        let db = try database()
        try db.transaction { () throws(CarFitError) in
            try add("a", db)
            do {
                try db.transaction { () throws(CarFitError) in
                    XCTAssertEqual(db.transactionDepth, 2)
                    try add("b", db)
                    try add("a", db) // a duplicate key: the inner level fails
                }
                XCTFail("the duplicate was stored")
            } catch {
                XCTAssertEqual((error as? CarFitError)?.status, .storage)
            }
            XCTAssertEqual(db.transactionDepth, 1)
            try add("c", db)
        }
        XCTAssertEqual(try items(db), ["a", "c"])
    }

    func testCommittedInnerTransactionIsUndoneWithTheOuterOne() throws {
        let db = try database()
        XCTAssertThrowsError(try db.transaction { () throws(CarFitError) in
            try db.transaction { () throws(CarFitError) in
                try db.transaction { () throws(CarFitError) in
                    XCTAssertEqual(db.transactionDepth, 3)
                    try add("deep", db)
                }
                try add("inner", db)
            }
            XCTAssertEqual(try items(db), ["deep", "inner"])
            throw refusal()
        })
        XCTAssertEqual(try items(db), [])
        XCTAssertEqual(db.transactionDepth, 0)
    }

    func testOuterTransactionIsImmediate() throws {
        let path = try TestDatabase.temporaryPath()
        defer { TestDatabase.remove(path) }
        let db = try Database(path: path)
        try db.execute("CREATE TABLE items (name TEXT PRIMARY KEY)")
        let other = try Database(path: path, busyTimeoutMs: 0)
        let level = try db.beginTransaction()
        // BEGIN IMMEDIATE took the write lock before any write: another connection cannot start
        // writing, and does not wait for it with a zero busy timeout.
        XCTAssertThrowsError(try other.run("INSERT INTO items (name) VALUES ('x')")) { error in
            XCTAssertEqual((error as? CarFitError)?.status, .storage)
        }
        try db.commit(level)
        try other.run("INSERT INTO items (name) VALUES ('x')")
        XCTAssertEqual(try items(db), ["x"])
    }

    func testLevelsEndInnermostFirst() throws {
        let db = try database()
        let outer = try db.beginTransaction()
        let inner = try db.beginTransaction()
        XCTAssertEqual([outer.depth, inner.depth], [1, 2])
        XCTAssertThrowsError(try db.commit(outer)) { error in
            XCTAssertEqual((error as? CarFitError)?.status, .internal)
        }
        try add("a", db)
        try db.commit(inner)
        XCTAssertThrowsError(try db.commit(inner), "a level commits once")
        try db.commit(outer)
        XCTAssertEqual(try items(db), ["a"])
        XCTAssertEqual(db.transactionDepth, 0)
    }

    func testOuterRollbackEndsTheLevelsInsideIt() throws {
        let db = try database()
        let outer = try db.beginTransaction()
        try add("a", db)
        let inner = try db.beginTransaction()
        try add("b", db)
        db.rollback(outer)
        XCTAssertEqual(db.transactionDepth, 0)
        XCTAssertThrowsError(try db.commit(inner))
        db.rollback(inner) // harmless: it already ended
        XCTAssertEqual(try items(db), [])
    }

    /// A store that opens its own transaction (PatternStore.add) can be called inside a
    /// caller's: its writes then stand or fall with the caller's.
    func testStoreTransactionsJoinTheCallersTransaction() throws {
        let db = try Database(path: ":memory:")
        let patterns = PatternStore(db)
        try patterns.add([Pattern(imageUrl: "http://example.com/1.png", title: "One", colors: ["112233"])])
        XCTAssertThrowsError(try db.transaction { () throws(CarFitError) in
            try patterns.add([Pattern(imageUrl: "http://example.com/2.png", title: "Two", colors: [])])
            try VisitStore(db).replaceAll(with: [TestDatabase.visit("a")])
            XCTAssertEqual(try patterns.count(), 2)
            throw refusal()
        })
        XCTAssertEqual(try patterns.all().map(\.imageUrl), ["http://example.com/1.png"])
        XCTAssertEqual(try VisitStore(db).count(), 0)

        try db.transaction { () throws(CarFitError) in
            try patterns.add([Pattern(imageUrl: "http://example.com/2.png", title: "Two", colors: [])])
            try VisitStore(db).replaceAll(with: [TestDatabase.visit("a")])
        }
        XCTAssertEqual(try patterns.all().map(\.imageUrl), ["http://example.com/1.png", "http://example.com/2.png"])
        XCTAssertEqual(try VisitStore(db).count(), 1)
    }

    func testTransactionOpenedWithPlainSQLIsRefused() throws {
        let db = try database()
        try db.execute("BEGIN")
        XCTAssertThrowsError(try db.transaction { () throws(CarFitError) in try add("a", db) }) { error in
            XCTAssertEqual((error as? CarFitError)?.status, .internal)
        }
        try db.execute("ROLLBACK")
        try db.transaction { () throws(CarFitError) in try add("a", db) }
        XCTAssertEqual(try items(db), ["a"])
    }
}
