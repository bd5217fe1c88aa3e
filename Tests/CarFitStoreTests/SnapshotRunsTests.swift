import XCTest
import CarFitCore
@testable import CarFitStore

/// A snapshot written in runs (its packed rows past a memory bound written early, each later run
/// merged into the rows already written) stores exactly what one run stores: the same rows in
/// the same order, each with the same seq and repetition.
final class SnapshotRunsTests: XCTestCase {
    /// Every stored column of every row, in the table's order.
    private func table(_ db: Database) throws -> [[SQLValue]] {
        try db.query("SELECT start_ms, seq, visit_id, repetition, employee_id, hex(card) FROM visits ORDER BY start_ms, seq")
    }

    /// The first row where `a` and `b` differ, or nil.
    private func firstDifference(_ a: [[SQLValue]], _ b: [[SQLValue]]) -> String? {
        guard a.count == b.count else { return "\(a.count) rows against \(b.count)" }
        for (i, (x, y)) in zip(a, b).enumerated() where x != y { return "row \(i): \(x.prefix(5)) against \(y.prefix(5))" }
        return nil
    }

    /// `count` records with few starts and few ids, so that pairs (visitId, start) repeat
    /// within a run and across runs; UUIDs, other text and no id; `sorted` in day order.
    private func records(_ count: Int, seed: UInt64, sorted: Bool) -> [Visit] {
        var random = SplitMix64(seed: seed)
        let ids: [String?] = ["0f8e2c1a-9b7d-4e3f-a2b1-c0d9e8f7a6b5", "a", "b", nil, "ffffffff-ffff-ffff-ffff-ffffffffffff", "é"]
        var out = (0..<count).map { i -> Visit in
            let id = Int(random.next() % 3) == 0 ? ids[Int(random.next() % UInt64(ids.count))] : "id-\(random.next() % 5_000)"
            return Visit(visitId: id, employeeId: random.next() % 5 == 0 ? nil : "washer-\(random.next() % 40)",
                         start: Instant(milliseconds: 1_599_696_000_000 + Int64(random.next() % 300) * 60_000),
                         name: "n\(i)", state: "ToDo", expectedTime: nil, tasks: "Wash", taskMinutes: i,
                         address: "Street \(i)", phone: nil, latitude: 55.7, longitude: 12.5)
        }
        if sorted { out.sort { $0.start < $1.start } }
        return out
    }

    func testRunsStoreWhatOneRunStores() throws {
        for (seed, sorted) in [(UInt64(1), false), (2, false), (3, true)] {
            let input = records(20_000, seed: seed, sorted: sorted)
            let whole = try Database(path: ":memory:")
            try VisitStore(whole).replaceAll(with: input, hooks: SyncStore(whole).snapshotHooks)
            let expected = try table(whole)
            XCTAssertEqual(expected.count, input.count)
            // 1 byte: every row a run of its own; 2 MiB: a run every few thousand rows.
            for runBytes in [1, 2 << 20] {
                let runs = try Database(path: ":memory:")
                // Something stored before, which the snapshot replaces.
                try VisitStore(runs).replaceAll(with: Array(input.prefix(50)), hooks: SyncStore(runs).snapshotHooks)
                let subset = runBytes == 1 ? Array(input.prefix(3_000)) : input
                try VisitStore(runs).replaceAll(with: subset, hooks: SyncStore(runs).snapshotHooks, runBytes: runBytes)
                if runBytes == 1 {
                    let one = try Database(path: ":memory:")
                    try VisitStore(one).replaceAll(with: subset, hooks: SyncStore(one).snapshotHooks)
                    let difference = firstDifference(try table(runs), try table(one))
                    XCTAssertNil(difference, "seed \(seed), every row a run")
                } else {
                    XCTAssertNil(firstDifference(try table(runs), expected), "seed \(seed), runs of 2 MiB")
                }
                XCTAssertEqual(try runs.query("PRAGMA integrity_check"), [[.text("ok")]])
            }
        }
    }

    func testWriterCountsEveryRunAndRollsBackThemAll() throws {
        let db = try Database(path: ":memory:")
        let store = VisitStore(db)
        try store.replaceAll(with: Array(records(10, seed: 4, sorted: false)))
        let before = try table(db)
        do {
            let writer = try store.beginSnapshot(SyncStore(db).snapshotHooks, runBytes: 1)
            for visit in records(100, seed: 5, sorted: false) { try writer.append(visit) }
            XCTAssertEqual(writer.count, 100)
            writer.rollback()
        }
        XCTAssertEqual(try table(db), before)
        XCTAssertEqual(db.transactionDepth, 0)
        // A row of a late run that cannot be written: the runs written before it go too.
        try TestDatabase.failInserting(visitNamed: "late", db)
        var input = records(100, seed: 6, sorted: false)
        input.append(TestDatabase.visit("late"))
        XCTAssertThrowsError(try store.replaceAll(with: input, hooks: SyncStore(db).snapshotHooks, runBytes: 1))
        XCTAssertEqual(try table(db), before)
        XCTAssertEqual(db.transactionDepth, 0)
    }

    func testPairFilterHasEveryPairInserted() {
        var filter = PairFilter()
        var random = SplitMix64(seed: 9)
        var pairs: [(Int64, [UInt8]?)] = []
        for _ in 0..<10_000 {
            let id: [UInt8]? = random.next() % 10 == 0 ? nil : Array("id-\(random.next())".utf8)
            pairs.append((Int64(bitPattern: random.next()), id))
        }
        for (start, id) in pairs {
            if let id { id.withUnsafeBytes { filter.insert(start: start, visitId: $0) } } else { filter.insert(start: start, visitId: nil) }
        }
        var falsePositives = 0
        for (start, id) in pairs {
            let has = id.map { id in id.withUnsafeBytes { filter.mayContain(start: start, visitId: $0) } }
                ?? filter.mayContain(start: start, visitId: nil)
            XCTAssertTrue(has)
            let other = Array("other-\(start)".utf8)
            if other.withUnsafeBytes({ filter.mayContain(start: start &+ 1, visitId: $0) }) { falsePositives += 1 }
        }
        // 10,000 pairs in 32 Mi bits, three bits each: about one in a billion pairs not inserted.
        XCTAssertLessThan(falsePositives, 5)
    }
}
