import XCTest
import CarFitCore
@testable import CarFitStore

/// Snapshots replace the stored visits whole or not at all, stored in day order whatever the
/// order they came in, each with its repetition.
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

    func testFailingLargeSnapshotLeavesThePreviousRows() throws {
        let db = try Database(path: ":memory:")
        let store = VisitStore(db)
        try store.replaceAll(with: visits(3, prefix: "old"))
        let count = 5_000
        // A row inside a statement of many rows, and one of the last rows, inserted one by one.
        for failing in [100, count - 1] {
            try TestDatabase.failInserting(visitNamed: "new\(failing)", db)
            XCTAssertThrowsError(try store.replaceAll(with: visits(count, prefix: "new")))
            XCTAssertEqual(try TestDatabase.visitNames(db), ["old0", "old1", "old2"])
            XCTAssertEqual(try TestDatabase.visitIndexes(db), [])
            try db.execute("DROP TRIGGER fail_visit")
        }
        try store.replaceAll(with: visits(count, prefix: "new"))
        XCTAssertEqual(try VisitStore(db).count(), count)
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

    func testLargeSnapshotIsStoredInDayOrder() throws {
        let db = try Database(path: ":memory:")
        let count = 5_000
        // Reversed, and every start twice: the second of each pair keeps its place after the first.
        var input: [Visit] = []
        for visit in visits(count, prefix: "v").reversed() {
            input.append(visit)
            var twin = visit
            twin.name += "-twin"
            input.append(twin)
        }
        try VisitStore(db).replaceAll(with: input)
        XCTAssertEqual(try VisitStore(db).count(), 2 * count)
        let names = try TestDatabase.visitNames(db)
        XCTAssertEqual(names.prefix(4), ["v0", "v0-twin", "v1", "v1-twin"])
        XCTAssertEqual(names.count, 2 * count)
        let stored = try VisitStore(db).visits(startingIn: Int64.min..<Int64.max)
        XCTAssertEqual(stored.map(\.repetition).prefix(4), [0, 1, 0, 1])
        XCTAssertEqual(try db.query("PRAGMA integrity_check"), [[.text("ok")]])
    }

    func testNegativeZeroIsStoredAsZero() throws {
        let db = try Database(path: ":memory:")
        var visit = TestDatabase.visit("zero")
        visit.latitude = -0.0
        visit.longitude = -0.0
        try VisitStore(db).replaceAll(with: [visit])
        let stored = try VisitStore(db).visits(startingIn: Int64.min..<Int64.max)
        XCTAssertEqual(stored.first?.latitude?.sign, .plus)
        XCTAssertEqual(stored.first?.longitude?.sign, .plus)
    }

    func testIdsOfEveryShapeComeBackAsGiven() throws {
        let db = try Database(path: ":memory:")
        // UUIDs in lower case are kept packed, others as text; more employees than are kept once.
        let ids: [String?] = ["0f8e2c1a-9b7d-4e3f-a2b1-c0d9e8f7a6b5", "0F8E2C1A-9B7D-4E3F-A2B1-C0D9E8F7A6B5",
                              "0f8e2c1a-9b7d-4e3f-a2b1-c0d9e8f7a6bg", "0f8e2c1a09b7d-4e3f-a2b1-c0d9e8f7a6b5", "",
                              nil, "ffffffff-ffff-ffff-ffff-ffffffffffff", "00000000-0000-0000-0000-000000000000", "é"]
        let count = 5_000
        let input = (0..<count).map { i in
            Visit(visitId: ids[i % ids.count], employeeId: i % 7 == 0 ? nil : "washer-\(i % 4_500)",
                  start: Instant(milliseconds: 1_599_696_000_000 + Int64(i % 50) * 60_000), name: "n\(i)", state: nil,
                  expectedTime: nil, tasks: "", taskMinutes: i, address: "", phone: nil, latitude: nil, longitude: nil)
        }
        try VisitStore(db).replaceAll(with: input)
        let stored = try VisitStore(db).visits(startingIn: Int64.min..<Int64.max)
        let expected = input.enumerated().sorted { ($0.element.start, $0.offset) < ($1.element.start, $1.offset) }
        XCTAssertEqual(stored.map(\.visitId), expected.map(\.element.visitId))
        XCTAssertEqual(stored.map(\.employeeId), expected.map(\.element.employeeId))
        XCTAssertEqual(stored.map(\.name), expected.map(\.element.name))
        let one = try VisitStore(db).visits(startingIn: Int64.min..<Int64.max, employeeId: "washer-4001")
        XCTAssertEqual(one.map(\.name), ["n4001"])
    }

    func testRepetitionsCountEachKeyAtOneStart() throws {
        let db = try Database(path: ":memory:")
        // 40 records at one start: ids a, b, a, nil, b, a, nil, ... (more than a small group).
        let ids: [String?] = (0..<40).map { i in [Optional("a"), "b", "a", nil][i % 4] }
        let input = ids.enumerated().map { i, id in
            Visit(visitId: id, employeeId: nil, start: Instant(milliseconds: 1_599_696_000_000), name: "n\(i)", state: nil,
                  expectedTime: nil, tasks: "", taskMinutes: 0, address: "", phone: nil, latitude: nil, longitude: nil)
        }
        for records in [input, Array(input.prefix(8))] {
            try VisitStore(db).replaceAll(with: records)
            let stored = try VisitStore(db).visits(startingIn: Int64.min..<Int64.max)
            XCTAssertEqual(stored.map(\.name), records.map(\.name))
            var seen: [String?: Int] = [:]
            let expected = records.map { v -> Int in
                defer { seen[v.visitId, default: 0] += 1 }
                return seen[v.visitId, default: 0]
            }
            XCTAssertEqual(stored.map(\.repetition), expected)
            for visit in stored {
                let key = VisitKey(visitId: visit.visitId, start: visit.start, repetition: visit.repetition)
                XCTAssertEqual(try VisitStore(db).visit(key), visit)
            }
        }
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
