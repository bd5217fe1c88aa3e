import CarFitCore
import CarFitHTTP
import CarFitIO
import CarFitNet
import CarFitServices
import CarFitStore
import XCTest

/// The washer's state changes and the outbox, in-process: one transaction per change, the
/// overlay over snapshots, a push to an address that refuses, the status.
final class SyncServiceTests: XCTestCase {
    static let document = #"""
        {"data": [{"visitId": "a", "startTimeUtc": "2020-09-10T08:00:00Z", "visitState": "ToDo", "visitTimeUsed": 12},
                  {"visitId": "a", "startTimeUtc": "2020-09-10T08:00:00Z", "visitState": "Todo"},
                  {"startTimeUtc": "2020-09-10T09:00:00Z", "visitState": "Todo"}]}
        """#

    func load(_ f: ServiceFixture, _ text: String = SyncServiceTests.document) throws {
        _ = try f.importVisits(text)
    }

    func cards(_ f: ServiceFixture) throws -> [JSON] {
        let text = try f.list(#"{"dates": ["2020-09-10"]}"#).bytes
        guard case .success(let json) = JanssonParser.parse(bytes: text),
              case .array(let days)? = json.objectValue?["days"], case .array(let cards)? = days.first?.objectValue?["visits"]
        else { throw CarFitError(.internal, "no cards") }
        return cards
    }

    func change(_ f: ServiceFixture, _ key: String, _ state: String) throws(CarFitError) -> JSON {
        let text = try f.setState(#"{"key": "\#(key)", "state": "\#(state)"}"#).bytes
        guard case .success(let json) = JanssonParser.parse(bytes: text), let card = json.objectValue?["visit"] else {
            throw CarFitError(.internal, "no card")
        }
        return card
    }

    func testRepeatedPairsGetTheirOwnKeysAndTheSourcesTimeUsed() throws {
        let f = try ServiceFixture()
        try load(f)
        let cards = try cards(f)
        let keys = cards.compactMap { $0.objectValue?["key"] }
        XCTAssertEqual(keys, [.string("a|1599724800000|0"), .string("a|1599724800000|1"), .string("~|1599728400000|0")])
        XCTAssertEqual(cards.map { $0.objectValue?["timeUsedMinutes"] }, [12, .null, .null])
        XCTAssertEqual(cards.map { $0.objectValue?["pending"] }, [false, false, false])
    }

    func testAChangeIsItsCardAndItsOutboxEntryInOneTransaction() throws {
        var f = try ServiceFixture()
        try load(f)
        let card = try change(f, "a|1599724800000|1", "InProgress")
        XCTAssertEqual(card.objectValue?["state"], "InProgress")
        XCTAssertEqual(card.objectValue?["stateColor"], "#F5C709")
        XCTAssertEqual(card.objectValue?["pending"], true)
        // The card as its day's list shows it (its distance from the card before it included).
        XCTAssertEqual(card, try cards(f)[1])
        XCTAssertEqual(try SyncStore(f.db).pendingCount(), 1)
        // 12 minutes 30 seconds later, by the core's clock: 13 minutes (half up).
        f.clock = try Clock(zoneName: "Europe/Copenhagen", fixedNow: try XCTUnwrap(Instant(iso: "2020-09-10T07:12:30Z")))
        let done = try change(f, "a|1599724800000|1", "Done")
        XCTAssertEqual(done.objectValue?["timeUsedMinutes"], 13)
        let outbox = try SyncStore(f.db).pending(limit: 10)
        XCTAssertEqual(outbox.map(\.state), [.inProgress, .done])
        XCTAssertEqual(outbox.map(\.timeUsedMinutes), [nil, 13])
        XCTAssertTrue(outbox.allSatisfy { UUIDv4.isValid($0.mutationId) && $0.visitId == "a" })
        // The other record of the pair is untouched.
        XCTAssertEqual(try cards(f).first?.objectValue?["state"], "Todo")
    }

    func testRefusalsChangeNothing() throws {
        let f = try ServiceFixture()
        try load(f)
        XCTAssertEqual(refusal { () throws(CarFitError) in _ = try change(f, "a|1599724800000|0", "Done") }?.status, .conflict)
        XCTAssertEqual(refusal { () throws(CarFitError) in _ = try change(f, "a|1599724800000|5", "InProgress") }?.status, .notFound)
        XCTAssertEqual(refusal { () throws(CarFitError) in _ = try change(f, "nonsense", "InProgress") }?.status, .notFound)
        XCTAssertEqual(refusal { () throws(CarFitError) in _ = try change(f, "a|1599724800000|0", "Started") }?.field, "state")
        let noId = refusal { () throws(CarFitError) in _ = try change(f, "~|1599728400000|0", "InProgress") }
        XCTAssertEqual(noId?.status, .invalid)
        XCTAssertEqual(noId?.field, "key")
        XCTAssertEqual(try SyncStore(f.db).pendingCount(), 0)
        XCTAssertEqual(try cards(f).compactMap { $0.objectValue?["pending"] }, [false, false, false])
    }

    func testSnapshotsKeepPendingWorkAndDropAppliedChangesOnlyOnceStored() throws {
        let f = try ServiceFixture()
        try load(f)
        _ = try change(f, "a|1599724800000|0", "InProgress")
        try load(f)  // the server has not seen it: the card keeps the washer's state
        XCTAssertEqual(try cards(f).first?.objectValue?["state"], "InProgress")
        XCTAssertEqual(try cards(f).first?.objectValue?["pending"], true)
        let sync = SyncStore(f.db)
        let id = try XCTUnwrap(try sync.pending(limit: 1).first?.mutationId)
        _ = try f.db.transaction { () throws(CarFitError) in try sync.record(PushOutcome(applied: [id])) }
        XCTAssertEqual(try cards(f).first?.objectValue?["state"], "InProgress")
        XCTAssertEqual(try cards(f).first?.objectValue?["pending"], false)
        try load(f)  // a snapshot from before the change: from now on the snapshot is the authority
        XCTAssertEqual(try cards(f).first?.objectValue?["state"], "Todo")
        XCTAssertEqual(try f.db.scalarInt("SELECT count(*) FROM local_changes"), 0)
    }

    func testARejectedChangeIsUndoneAndListed() throws {
        let f = try ServiceFixture()
        try load(f)
        _ = try change(f, "a|1599724800000|0", "Rejected")
        let sync = SyncStore(f.db)
        let id = try XCTUnwrap(try sync.pending(limit: 1).first?.mutationId)
        let counts = try f.db.transaction { () throws(CarFitError) in
            try sync.record(PushOutcome(rejected: [PushAnswer.Rejected(mutationId: id, reason: "Too late")]))
        }
        XCTAssertEqual(counts.rejected, 1)
        XCTAssertEqual(try cards(f).first?.objectValue?["state"], "Todo")
        let status = try SyncService(db: f.db, clock: f.clock).status()
        guard case .array(let rejected)? = status.objectValue?["rejected"] else { return XCTFail("no rejected list") }
        XCTAssertEqual(rejected.first?.objectValue?["reason"], "Too late")
        XCTAssertEqual(status.objectValue?["pending"], 0)
    }

    func testAPushThatCannotConnectKeepsEverythingAndBacksOff() throws {
        let f = try ServiceFixture()
        try load(f)
        _ = try change(f, "a|1599724800000|0", "InProgress")
        let service = SyncService(db: f.db, clock: f.clock)
        let lock = PushLock(database: ":memory:")
        let client = HTTPClient(limits: HTTPLimits(timeoutMs: 2000, totalTimeoutMs: 5000))
        let failure = refusal { () throws(CarFitError) in
            _ = try service.push(try ServiceFixture.fields("{}"), source: "http://127.0.0.1:1/u", client: client,
                                 pushLock: lock, waitMs: 1000, lock: f)
        }
        XCTAssertEqual(failure?.status, .unavailable)
        XCTAssertEqual(failure?.extra["reason"], "refused")
        let skipped = try service.push(try ServiceFixture.fields(#"{"ifDue": true}"#), source: "http://127.0.0.1:1/u",
                                       client: client, pushLock: lock, waitMs: 1000, lock: f)
        XCTAssertEqual(skipped.objectValue?["skipped"], "backoff")
        XCTAssertEqual(skipped.objectValue?["pending"], 1)
        let status = try service.status()
        XCTAssertEqual(status.objectValue?["consecutiveFailures"], 1)
        XCTAssertEqual(status.objectValue?["lastError"]?.objectValue?["reason"], "refused")
        XCTAssertEqual(refusal { () throws(CarFitError) in
            _ = try service.push(try ServiceFixture.fields("{}"), source: nil, client: client, pushLock: lock, waitMs: 0, lock: f)
        }?.field, "sources.visitUpdates")
    }

    func testAPushLockIsHeldByOneAtATime() throws {
        let path = NSTemporaryDirectory() + "carfit-lock-\(UUID().uuidString).db"
        defer { unlink(path + "-sync.lock") }
        let a = PushLock(database: path)
        let b = PushLock(database: path)
        let held = try XCTUnwrap(try a.acquire(waitMs: 0))
        XCTAssertNil(try b.acquire(waitMs: 50))
        held.release()
        XCTAssertNotNil(try b.acquire(waitMs: 0))
    }
}
