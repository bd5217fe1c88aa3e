import XCTest
import CarFitCore
@testable import CarFitStore

/// Snapshots replace the stored visits whole or not at all, and a large one puts back exactly
/// the indexes the migrations made.
final class SnapshotTests: XCTestCase {
    private func visits(_ count: Int, prefix: String) -> [Visit] {
        (0..<count).map { TestDatabase.visit("\(prefix)\($0)", minutes: Int64($0)) }
    }

    func testSnapshotReplacesThePreviousOne() throws {
        let db = try Database(path: ":memory:")
        let store = VisitStore(db)
        try store.replaceAll(with: visits(3, prefix: "old"))
        try store.replaceAll(with: visits(2, prefix: "new"))
        XCTAssertEqual(try TestDatabase.visitNames(db), ["new0", "new1"])
        XCTAssertEqual(db.transactionDepth, 0)
    }

    func testFailingSnapshotLeavesThePreviousRows() throws {
        let db = try Database(path: ":memory:")
        let store = VisitStore(db)
        try store.replaceAll(with: visits(3, prefix: "old"))
        try TestDatabase.failInserting(visitNamed: "new1", db)
        XCTAssertThrowsError(try store.replaceAll(with: visits(2, prefix: "new"))) { error in
            XCTAssertEqual((error as? CarFitError)?.status, .storage)
        }
        XCTAssertEqual(try TestDatabase.visitNames(db), ["old0", "old1", "old2"])
        XCTAssertEqual(db.transactionDepth, 0)
        // The connection is usable afterwards.
        try store.replaceAll(with: visits(1, prefix: "next"))
        XCTAssertEqual(try TestDatabase.visitNames(db), ["next0"])
    }

    func testFailingLargeSnapshotLeavesThePreviousRowsAndIndexes() throws {
        let db = try Database(path: ":memory:")
        let store = VisitStore(db)
        let indexes = try TestDatabase.visitIndexes(db)
        XCTAssertEqual(indexes.count, 2)
        try store.replaceAll(with: visits(3, prefix: "old"))
        // Past the point where the writer drops the indexes.
        let count = Int(VisitStore.SnapshotWriter.bulkRows) + 10
        try TestDatabase.failInserting(visitNamed: "new\(count - 1)", db)
        XCTAssertThrowsError(try store.replaceAll(with: visits(count, prefix: "new")))
        XCTAssertEqual(try TestDatabase.visitNames(db), ["old0", "old1", "old2"])
        XCTAssertEqual(try TestDatabase.visitIndexes(db), indexes)
    }

    func testAbandonedWriterRollsBack() throws {
        let db = try Database(path: ":memory:")
        let store = VisitStore(db)
        try store.replaceAll(with: visits(2, prefix: "old"))
        do {
            let writer = try store.beginSnapshot()
            try writer.append(TestDatabase.visit("dropped"))
            XCTAssertEqual(writer.count, 1)
        }
        XCTAssertEqual(try TestDatabase.visitNames(db), ["old0", "old1"])
        XCTAssertEqual(db.transactionDepth, 0)
    }

    func testLargeSnapshotRebuildsTheMigrationsIndexes() throws {
        let db = try Database(path: ":memory:")
        let indexes = try TestDatabase.visitIndexes(db)
        let count = Int(VisitStore.SnapshotWriter.bulkRows) * 2
        try VisitStore(db).replaceAll(with: visits(count, prefix: "v").reversed())
        XCTAssertEqual(try TestDatabase.visitIndexes(db), indexes)
        XCTAssertEqual(try VisitStore(db).count(), count)
        XCTAssertEqual(try db.query("PRAGMA integrity_check"), [[.text("ok")]])
    }

    func testSnapshotNestsInsideAnOuterTransaction() throws {
        let db = try Database(path: ":memory:")
        let store = VisitStore(db)
        try store.replaceAll(with: visits(2, prefix: "old"))
        struct Abandon: Error {}
        XCTAssertThrowsError(try db.transaction { () throws(CarFitError) in
            try store.replaceAll(with: visits(1, prefix: "inner"))
            XCTAssertEqual(try TestDatabase.visitNames(db), ["inner0"])
            throw CarFitError(.invalid, "abandoned by the test")
        })
        XCTAssertEqual(try TestDatabase.visitNames(db), ["old0", "old1"])
    }
}
