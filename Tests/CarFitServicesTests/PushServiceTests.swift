@testable import CarFitCore
import CarFitServices
import CarFitStore
import XCTest

/// The rules of a push received, of the device's record and of the notifications, on the
/// service with a refresh the test stands in for.
final class PushServiceTests: XCTestCase {
    func message(_ id: String, _ kind: PushMessage.Kind = .visits, seq: Int64? = nil) -> PushMessage {
        PushMessage(id: id, kind: kind, seq: seq, title: kind == .message ? "T" : nil, body: kind == .message ? "B" : nil)
    }

    func testOnceOnlyGapsAndOrder() throws {
        let f = try ServiceFixture()
        let push = PushService(db: f.db, clock: f.clock)
        var refreshes = 0
        let refresh = { () throws(CarFitError) -> [VisitChange] in
            refreshes += 1
            return []
        }
        let first = try push.receive(message("a", seq: 4), refresh: true, hour24: true, lock: f, refreshVisits: refresh)
        XCTAssertFalse(first.duplicate)
        XCTAssertFalse(first.gap, "none stored yet: no gap")
        XCTAssertTrue(first.refreshed)
        XCTAssertEqual(refreshes, 1)
        let again = try push.receive(message("a", seq: 4), refresh: true, hour24: true, lock: f, refreshVisits: refresh)
        XCTAssertTrue(again.duplicate)
        XCTAssertEqual(refreshes, 1, "a duplicate does nothing else")
        let gap = try push.receive(message("b", .message, seq: 6), refresh: true, hour24: true, lock: f, refreshVisits: refresh)
        XCTAssertTrue(gap.gap)
        XCTAssertEqual(refreshes, 2, "a gap refreshes whatever the kind")
        let late = try push.receive(message("c", .message, seq: 5), refresh: true, hour24: true, lock: f, refreshVisits: refresh)
        XCTAssertFalse(late.gap)
        XCTAssertEqual(refreshes, 2)
        XCTAssertEqual(try push.status().lastSeq, 6)
        _ = try push.receive(message("d", seq: 7), refresh: false, hour24: true, lock: f, refreshVisits: refresh)
        XCTAssertEqual(refreshes, 2, "refresh false never refreshes")
        XCTAssertEqual(try push.status().received, 4)
    }

    func testAFailedRefreshDoesNotFailThePush() throws {
        let f = try ServiceFixture()
        let push = PushService(db: f.db, clock: f.clock)
        let receipt = try push.receive(message("a"), refresh: true, hour24: true, lock: f) { () throws(CarFitError) -> [VisitChange] in
            throw CarFitError(.unavailable, "down")
        }
        XCTAssertFalse(receipt.refreshed)
        XCTAssertEqual(receipt.refreshError?.status, .unavailable)
        XCTAssertEqual(try push.status().received, 1, "the push is recorded")
    }

    func testAnUnknownVisitIsNotFoundAndNotRecorded() throws {
        let f = try ServiceFixture()
        let push = PushService(db: f.db, clock: f.clock)
        let start = try XCTUnwrap(Instant(iso: "2020-09-10T08:00:00Z"))
        let m = PushMessage(id: "v", kind: .visit, visitId: "x", start: start)
        var refreshes = 0
        XCTAssertThrowsError(try push.receive(m, refresh: true, hour24: true, lock: f) { () throws(CarFitError) -> [VisitChange] in
            refreshes += 1
            return []
        }) { error in
            XCTAssertEqual((error as? CarFitError)?.field, "payload.carfit.visitId")
        }
        XCTAssertEqual(refreshes, 1, "refreshed once before giving up")
        XCTAssertEqual(try push.status().received, 0)
    }

    func testTheDeviceRecord() throws {
        let f = try ServiceFixture()
        let push = PushService(db: f.db, clock: f.clock)
        XCTAssertEqual(try push.register(platform: nil, token: nil), PushStore.Device(), "nothing to unregister")
        let d = try push.register(platform: "fcm", token: "t")
        XCTAssertEqual(d.revision, 1)
        XCTAssertTrue(d.pending)
        XCTAssertEqual(try push.register(platform: "fcm", token: "t").revision, 1, "the same record: no change")
        try push.store.acknowledge(1)
        XCTAssertFalse(try push.status().device.pending)
        let gone = try push.register(platform: nil, token: nil)
        XCTAssertEqual(gone.platform, "fcm")
        XCTAssertNil(gone.token)
        XCTAssertTrue(gone.pending)
    }

    func testNotificationsTextAndIds() throws {
        let f = try ServiceFixture()
        let start = try XCTUnwrap(Instant(iso: "2020-09-10T12:30:00Z"))
        let before = try XCTUnwrap(Instant(iso: "2020-09-10T07:05:00Z"))
        let key = VisitKey(visitId: "a|b", start: start)
        let moved = VisitChange(kind: .moved, visitId: "a|b", key: key, name: "Anna", start: start, previousStart: before,
                                latitude: 55.5, longitude: 12.5)
        let n = PushNotification.change(moved, clock: f.clock, hour24: true)
        XCTAssertEqual(n.id, "moved:a|b:2020-09-10T12:30:00Z")
        XCTAssertEqual(n.body, "Anna: 09:05 → 14:30")
        XCTAssertEqual(n.deepLink, "carfit://visit/a%257Cb%7C1599741000000%7C0")
        XCTAssertEqual(PushNotification.change(moved, clock: f.clock, hour24: false).body, "Anna: 09:05 AM → 02:30 PM")
        var removed = moved
        removed.kind = .removed
        XCTAssertNil(PushNotification.change(removed, clock: f.clock, hour24: true).navigation)
        XCTAssertEqual(PushNotification.message(id: "m", title: "T", body: "B").id, "message:m")
    }
}
