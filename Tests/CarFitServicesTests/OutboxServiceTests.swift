import CarFitAPI
import CarFitCore
import CarFitHTTP
import CarFitIO
import CarFitNet
import CarFitServices
import CarFitStore
import Foundation
import XCTest

/// Nothing the washer did is lost to the planner's changes: removed visits with work stay on
/// their day, rejected updates stay visible as conflicts until acknowledged; one service owns
/// the outbox.
final class OutboxServiceTests: XCTestCase {
    static let keyA = "a|1599724800000|0"
    static let keyB = "b|1599728400000|0"
    static let both = #"""
        {"data": [{"visitId": "a", "startTimeUtc": "2020-09-10T08:00:00Z", "visitState": "ToDo", "houseOwnerFirstName": "A",
                   "houseOwnerLatitude": 55.7, "houseOwnerLongitude": 12.5},
                  {"visitId": "b", "startTimeUtc": "2020-09-10T09:00:00Z", "visitState": "ToDo", "houseOwnerFirstName": "B",
                   "houseOwnerLatitude": 55.71, "houseOwnerLongitude": 12.5}]}
        """#
    static let onlyB = #"""
        {"data": [{"visitId": "b", "startTimeUtc": "2020-09-10T09:00:00Z", "visitState": "ToDo", "houseOwnerFirstName": "B",
                   "houseOwnerLatitude": 55.71, "houseOwnerLongitude": 12.5}]}
        """#

    func day(_ f: ServiceFixture) throws -> (cards: [JSONObject], summary: JSONObject) {
        let text = try f.list(#"{"dates": ["2020-09-10"]}"#).bytes
        guard case .success(let json) = JanssonParser.parse(bytes: text),
              case .array(let days)? = json.objectValue?["days"], let first = days.first?.objectValue,
              case .array(let cards)? = first["visits"], let summary = first["summary"]?.objectValue
        else { throw CarFitError(.internal, "no day") }
        return (cards.compactMap { $0.objectValue }, summary)
    }

    func card(_ buffer: borrowing JSONBuffer) throws -> JSONObject {
        guard case .success(let json) = JanssonParser.parse(bytes: buffer.bytes), let card = json.objectValue?["visit"]?.objectValue
        else { throw CarFitError(.internal, "no card") }
        return card
    }

    func acknowledge(_ f: ServiceFixture, _ key: String) throws(CarFitError) -> JSONBuffer {
        try VisitsAPI.acknowledge(f.visits, try ServiceFixture.fields(#"{"key": "\#(key)"}"#))
    }

    func pendingIds(_ f: ServiceFixture) throws -> [String] {
        try f.visits.outbox.nextRequest()?.mutationIds ?? []
    }

    func testARemovedVisitWithAPendingUpdateStaysListedUntilAppliedAndTheNextSnapshot() throws {
        let f = try ServiceFixture()
        _ = try f.importVisits(Self.both)
        _ = try f.setState(#"{"key": "\#(Self.keyA)", "state": "InProgress"}"#)
        _ = try f.importVisits(Self.onlyB)
        var listed = try day(f)
        XCTAssertEqual(listed.cards.map { $0["key"] }, [.string(Self.keyA), .string(Self.keyB)])
        XCTAssertEqual(listed.cards.map { $0["removed"] }, [true, false])
        XCTAssertEqual(listed.cards.map { $0["conflict"] }, [.null, .null])
        XCTAssertEqual(listed.cards[0]["state"], "InProgress")
        XCTAssertEqual(listed.cards[0]["pending"], true)
        XCTAssertEqual(listed.cards[0]["name"], "A", "its last known fields")
        XCTAssertEqual(listed.summary["visits"], 2, "it counts in its day's summary")
        XCTAssertNotEqual(listed.cards[1]["distanceMeters"], .null, "the next card measures from it")

        // Applied: still shown until the next snapshot.
        let ids = try pendingIds(f)
        XCTAssertEqual(ids.count, 1)
        let recorded = try f.visits.outbox.recordAnswer(PushOutcome(applied: ids))
        XCTAssertEqual(recorded.applied, 1)
        listed = try day(f)
        XCTAssertEqual(listed.cards.map { $0["removed"] }, [true, false])
        XCTAssertEqual(listed.cards[0]["pending"], false)
        _ = try f.importVisits(Self.onlyB)
        listed = try day(f)
        XCTAssertEqual(listed.cards.map { $0["key"] }, [.string(Self.keyB)])
        XCTAssertEqual(listed.summary["visits"], 1)
    }

    func testARemovedVisitComesBackAsAnOrdinaryCardWhenASnapshotListsItAgain() throws {
        let f = try ServiceFixture()
        _ = try f.importVisits(Self.both)
        _ = try f.setState(#"{"key": "\#(Self.keyA)", "state": "InProgress"}"#)
        _ = try f.importVisits(Self.onlyB)
        // The washer finishes the removed visit: it takes changes while listed.
        let done = try card(try f.setState(#"{"key": "\#(Self.keyA)", "state": "Done"}"#))
        XCTAssertEqual(done["state"], "Done")
        XCTAssertEqual(done["removed"], true)
        _ = try f.importVisits(Self.both)
        let listed = try day(f)
        XCTAssertEqual(listed.cards.map { $0["removed"] }, [false, false])
        XCTAssertEqual(listed.cards[0]["state"], "Done")
        XCTAssertEqual(listed.cards.count, 2)
    }

    func testAVisitWithoutWorkGoesAtOnceAndTakesNoChange() throws {
        let f = try ServiceFixture()
        _ = try f.importVisits(Self.both)
        _ = try f.importVisits(Self.onlyB)
        XCTAssertEqual(try day(f).cards.map { $0["key"] }, [.string(Self.keyB)])
        let error = refusal { () throws(CarFitError) in _ = try f.setState(#"{"key": "\#(Self.keyA)", "state": "InProgress"}"#) }
        XCTAssertEqual(error?.status, .notFound)
    }

    func testARejectedUpdateShowsTheSnapshotsStateAndTheConflictUntilAcknowledged() throws {
        var f = try ServiceFixture()
        _ = try f.importVisits(Self.both)
        _ = try f.setState(#"{"key": "\#(Self.keyA)", "state": "InProgress"}"#)
        f.clock = try Clock(zoneName: "Europe/Copenhagen", fixedNow: try XCTUnwrap(Instant(iso: "2020-09-10T07:25:10Z")), hour24: true)
        _ = try f.setState(#"{"key": "\#(Self.keyA)", "state": "Done"}"#)
        let ids = try pendingIds(f)
        XCTAssertEqual(ids.count, 2)
        // Both rejected by one answer: the conflict is the newest.
        let recorded = try f.visits.outbox.recordAnswer(PushOutcome(rejected: [
            .init(mutationId: ids[0], reason: "Visit moved."), .init(mutationId: ids[1], reason: "Visit cancelled.")]))
        XCTAssertEqual(recorded.rejected, 2)
        XCTAssertEqual(recorded.conflicts, [.conflict(key: Self.keyA, mutationId: ids[0], reason: "Visit moved."),
                                            .conflict(key: Self.keyA, mutationId: ids[1], reason: "Visit cancelled.")])
        let listed = try day(f)
        let a = listed.cards[0]
        XCTAssertEqual(a["state"], "Todo", "the snapshot's state")
        XCTAssertEqual(a["pending"], false)
        XCTAssertEqual(a["removed"], false)
        XCTAssertEqual(a["conflict"], .obj(["mutationId": .string(ids[1]), "state": "Done", "reason": "Visit cancelled.",
                                            "at": "2020-09-10T07:25:10Z", "timeUsedMinutes": 25]))
        XCTAssertEqual(listed.cards[1]["conflict"], .null)
        let status = try SyncService(db: f.db, clock: f.clock).status()
        XCTAssertEqual(status.rejected.map(\.timeUsedMinutes), [nil, 25])

        let acknowledged = try card(try acknowledge(f, Self.keyA))
        XCTAssertEqual(acknowledged["conflict"], .null)
        XCTAssertEqual(acknowledged["key"], .string(Self.keyA))
        XCTAssertEqual(try day(f).cards[0]["conflict"], .null)
        XCTAssertTrue(try pendingIds(f).isEmpty, "an acknowledgement sends nothing")
        let again = refusal { () throws(CarFitError) in _ = try self.acknowledge(f, Self.keyA) }
        XCTAssertEqual(again?.status, .conflict)
        XCTAssertEqual(again?.field, "key")
        let unknown = refusal { () throws(CarFitError) in _ = try self.acknowledge(f, "zz|1|0") }
        XCTAssertEqual(unknown?.status, .notFound)
        let notAKey = refusal { () throws(CarFitError) in _ = try self.acknowledge(f, "not a key") }
        XCTAssertEqual(notAKey?.status, .notFound)
    }

    func testARemovedVisitWithAConflictStaysUntilTheAcknowledgementThenGoesAtOnce() throws {
        let f = try ServiceFixture()
        _ = try f.importVisits(Self.both)
        _ = try f.setState(#"{"key": "\#(Self.keyA)", "state": "InProgress"}"#)
        _ = try f.importVisits(Self.onlyB)
        let ids = try pendingIds(f)
        _ = try f.visits.outbox.recordAnswer(PushOutcome(rejected: [.init(mutationId: ids[0], reason: "Removed by the planner.")]))
        var listed = try day(f)
        XCTAssertEqual(listed.cards.map { $0["removed"] }, [true, false])
        XCTAssertEqual(listed.cards[0]["state"], "Todo")
        XCTAssertEqual(listed.cards[0]["conflict"]?.objectValue?["reason"], "Removed by the planner.")
        // A later snapshot does not settle a conflict.
        _ = try f.importVisits(Self.onlyB)
        XCTAssertEqual(try day(f).cards.count, 2)
        let acknowledged = try card(try acknowledge(f, Self.keyA))
        XCTAssertEqual(acknowledged["removed"], true)
        XCTAssertEqual(acknowledged["conflict"], .null)
        listed = try day(f)
        XCTAssertEqual(listed.cards.map { $0["key"] }, [.string(Self.keyB)])
        XCTAssertEqual(listed.summary["visits"], 1)
        let gone = refusal { () throws(CarFitError) in _ = try self.acknowledge(f, Self.keyA) }
        XCTAssertEqual(gone?.status, .notFound)
    }

    func testARemovedVisitWithAPendingAttachmentStaysUntilTheUploadAndAFailedOneDoesNotCount() throws {
        let f = try ServiceFixture()
        _ = try f.importVisits(Self.both)
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("outbox-attachments-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let attachments = AttachmentsService(db: f.db, clock: f.clock, config: CoreConfig.Attachments(), directory: directory.path)
        let note = try attachments.attach(keyText: Self.keyA, kind: .note, text: "Gate code 1234", file: nil)
        let other = try attachments.attach(keyText: Self.keyB, kind: .note, text: "Dog", file: nil)
        _ = try f.importVisits(#"{"data": []}"#)
        var listed = try day(f)
        XCTAssertEqual(listed.cards.map { $0["removed"] }, [true, true])
        XCTAssertEqual(listed.cards.map { $0["pending"] }, [false, false])
        XCTAssertTrue(try AttachmentStore(f.db).markUploaded(id: note.id))
        try AttachmentStore(f.db).markFailed(id: other.id, reason: "refused")
        listed = try day(f)
        XCTAssertEqual(listed.cards.count, 0, "after the upload the card goes at once; a failed attachment is no work")
    }

    func testTheConflictEventIsPublishedOnceTheAnswerIsCommitted() throws {
        let f = try ServiceFixture()
        _ = try f.importVisits(Self.both)
        _ = try f.setState(#"{"key": "\#(Self.keyA)", "state": "InProgress"}"#)
        _ = try f.setState(#"{"key": "\#(Self.keyB)", "state": "InProgress"}"#)
        let server = try PushServer()
        defer { server.stop() }
        server.then({ seen in
            let ids = seen.mutationIds
            return .answer(200, JSON.obj(["applied": .array([.string(ids[1])]),
                                          "rejected": .array([.obj(["mutationId": .string(ids[0]), "reason": "No."])])]).encoded())
        })
        /// What the change feed heard, and whether the conflict was readable from the database when
        /// each event came (the push runs on this thread: the hook reads as the host would).
        final class Heard: @unchecked Sendable {
            let outbox: OutboxService
            let range: Range<Int64>
            let key: VisitKey
            var events: [Event] = []
            var committed: [Bool] = []
            init(outbox: OutboxService, range: Range<Int64>, key: VisitKey) {
                self.outbox = outbox
                self.range = range
                self.key = key
            }
            func hear(_ event: Event) {
                events.append(event)
                committed.append(((try? outbox.cards(startingIn: range))?[key]?.conflict) != nil)
            }
        }
        let heard = Heard(outbox: f.visits.outbox, range: f.clock.dayRange(for: try XCTUnwrap(f.clock.today)),
                          key: try XCTUnwrap(VisitKey(text: Self.keyA)))
        let setup = PushSetup(visitUpdates: server.url("/updates"), client: HTTPClient(limits: HTTPLimits(timeoutMs: 2000, totalTimeoutMs: 5000)),
                              pushLock: PushLock(database: ":memory:"), waitMs: 1000, publish: { event in heard.hear(event) })
        let summary = try SyncService(db: f.db, clock: f.clock, setup: setup).push(ifDue: false, lock: f)
        XCTAssertEqual(summary.rejected, 1)
        XCTAssertEqual(summary.pushed, 1)
        XCTAssertEqual(heard.events.count, 1)
        guard case .conflict(let key, let id, let reason)? = heard.events.first else { return XCTFail("no conflict event") }
        XCTAssertEqual(key, Self.keyA)
        XCTAssertEqual(reason, "No.")
        XCTAssertEqual(heard.committed, [true], "the conflict was committed when the event was published")
        XCTAssertEqual(try day(f).cards[0]["conflict"]?.objectValue?["mutationId"], .string(id))
    }

    func refusal(_ body: () throws(CarFitError) -> Void) -> CarFitError? {
        do throws(CarFitError) {
            try body()
            return nil
        } catch {
            return error
        }
    }
}
