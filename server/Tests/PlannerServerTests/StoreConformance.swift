import Foundation
import XCTest
@testable import PlannerServer

/// The rules every store keeps, run against SQLite and PostgreSQL alike
/// (`SQLiteStoreTests`, `PostgresStoreTests`).
struct Conformance {
    let h: Harness
    var store: SQLPlannerStore { h.store }
    var window: ClosedRange<Int64> { (h.clock.now - 7 * 86_400_000)...(h.clock.now + 35 * 86_400_000) }

    func m(_ id: String, _ visit: String?, _ start: String, _ state: VisitState, at: String = "2026-03-02T09:00:00Z",
           used: Int64? = nil) -> Mutation {
        Mutation(mutationId: id, visitId: visit, startMs: Instant.parse(start) ?? 0, state: state,
                 atMs: Instant.parse(at) ?? 0, timeUsedMinutes: used)
    }

    func washersAndTokens() async throws {
        let (ada, token) = try await h.washer("Ada")
        try await assertEqual(await store.washer(tokenHash: PlannerResponder.hash(token)), ada)
        try await assertNil(await store.washer(tokenHash: PlannerResponder.hash("nope")))
        let newToken = PlannerCommand.newToken()
        try await assertEqual(await store.replaceToken(washerId: ada.id, tokenHash: PlannerResponder.hash(newToken)), ada)
        try await assertNil(await store.washer(tokenHash: PlannerResponder.hash(token)), "the old token is revoked")
        try await assertEqual(await store.washer(tokenHash: PlannerResponder.hash(newToken)), ada)
        try await assertNil(await store.replaceToken(washerId: "unknown", tokenHash: "x"))
    }

    func exactlyOnce() async throws {
        let (ada, _) = try await h.washer()
        _ = try await h.visit("v1", washer: ada, start: "2026-03-02T10:00:00Z")
        let start = m("m1", "v1", "2026-03-02T10:00:00Z", .inProgress)
        let first = try await store.applyUpdates(washerId: ada.id, clientId: "c1", mutations: [start], now: h.clock.now)
        XCTAssertEqual(first, [MutationAnswer(mutationId: "m1", reason: nil)])
        // The same id again: its first answer, nothing applied twice (a second InProgress would be refused).
        let again = try await store.applyUpdates(washerId: ada.id, clientId: "c1", mutations: [start, start], now: h.clock.now)
        XCTAssertEqual(again, [MutationAnswer(mutationId: "m1", reason: nil)])
        // A rejection is remembered as well, even after the state would allow it.
        let done = m("m2", "v1", "2026-03-02T10:00:00Z", .done, at: "2026-03-02T10:40:00Z", used: 40)
        let bad = m("m3", "v1", "2026-03-02T10:00:00Z", .inProgress)
        let answers = try await store.applyUpdates(washerId: ada.id, clientId: "c1", mutations: [done, bad], now: h.clock.now)
        XCTAssertEqual(answers[0], MutationAnswer(mutationId: "m2", reason: nil))
        XCTAssertEqual(answers[1].reason, "a visit in state Done cannot become InProgress")
        let resent = try await store.applyUpdates(washerId: ada.id, clientId: "c1", mutations: [bad], now: h.clock.now)
        XCTAssertEqual(resent, [answers[1]])
        let row = try await store.snapshot(washerId: ada.id, window: window).first
        XCTAssertEqual(row?.state, .done)
        XCTAssertEqual(row?.timeUsedMinutes, 40)
        XCTAssertEqual(row?.startedMs, Instant.parse("2026-03-02T09:00:00Z"))
        XCTAssertEqual(row?.finishedMs, Instant.parse("2026-03-02T10:40:00Z"))
    }

    func concurrentResends() async throws {
        let (ada, _) = try await h.washer()
        for i in 0..<10 { _ = try await h.visit("v\(i)", washer: ada, start: "2026-03-02T1\(i % 10):00:00Z") }
        let mutations = (0..<10).map { m("m\($0)", "v\($0)", "2026-03-02T1\($0 % 10):00:00Z", .inProgress) }
        let store = store
        let now = h.clock.now
        let results = try await withThrowingTaskGroup(of: [MutationAnswer].self) { group in
            for _ in 0..<8 {
                group.addTask { try await store.applyUpdates(washerId: ada.id, clientId: "c1", mutations: mutations, now: now) }
            }
            var all: [[MutationAnswer]] = []
            for try await r in group { all.append(r) }
            return all
        }
        // Every request is told every mutation applied; each was applied once (a second apply
        // of InProgress from InProgress would have been rejected in the ledger).
        for r in results { XCTAssertEqual(r.map(\.reason), Array(repeating: nil, count: 10)) }
        let rows = try await store.snapshot(washerId: ada.id, window: window)
        XCTAssertEqual(rows.map(\.state), Array(repeating: .inProgress, count: 10))
    }

    func rejections() async throws {
        let (ada, _) = try await h.washer("Ada")
        let (bob, _) = try await h.washer("Bob")
        _ = try await h.visit("v1", washer: ada, start: "2026-03-02T10:00:00Z")
        _ = try await h.visit("v2", washer: ada, start: "2026-03-02T11:00:00Z")
        _ = try await store.cancelVisit(visitId: "v2", startMs: Instant.parse("2026-03-02T11:00:00Z") ?? 0, now: h.clock.now, window: window)
        let answers = try await store.applyUpdates(washerId: ada.id, clientId: "c1", mutations: [
            m("a", "v1", "2026-03-02T10:00:01Z", .inProgress),
            m("b", nil, "2026-03-02T10:00:00Z", .inProgress),
            m("c", "v2", "2026-03-02T11:00:00Z", .inProgress),
            m("d", "v1", "2026-03-02T10:00:00Z", .done),
            m("e", "v1", "2026-03-02T10:00:00Z", .rejected),
        ], now: h.clock.now)
        XCTAssertEqual(answers.map(\.reason), ["unknown visit", "unknown visit", "cancelled by the planner",
                                               "a visit in state Todo cannot become Done", nil])
        // Another washer's visit is unknown to Bob; Ada's clientId is not Bob's.
        let bobs = try await store.applyUpdates(washerId: bob.id, clientId: "c2", mutations: [m("f", "v1", "2026-03-02T10:00:00Z", .inProgress)],
                                                now: h.clock.now)
        XCTAssertEqual(bobs.map(\.reason), ["unknown visit"])
        do {
            _ = try await store.applyUpdates(washerId: bob.id, clientId: "c1", mutations: [], now: h.clock.now)
            XCTFail("another washer's clientId was taken")
        } catch let refusal as StoreRefusal {
            XCTAssertEqual(refusal, .clientOfAnotherWasher)
        }
        do {
            _ = try await store.addPoints(washerId: bob.id, clientId: "c1", points: [])
            XCTFail("another washer's clientId was taken")
        } catch let refusal as StoreRefusal {
            XCTAssertEqual(refusal, .clientOfAnotherWasher)
        }
    }

    func pointsOnce() async throws {
        let (ada, _) = try await h.washer()
        let p1 = Point(id: "p1", latitude: 55.7, longitude: 12.5, accuracyMeters: 10, atMs: Instant.parse("2026-03-02T09:00:00Z") ?? 0)
        var p2 = p1
        p2.id = "p2"
        p2.atMs += 60_000
        p2.latitude = 55.8
        try await assertEqual(await store.addPoints(washerId: ada.id, clientId: "c1", points: [p2, p1]), ["p2", "p1"])
        try await assertEqual(await store.addPoints(washerId: ada.id, clientId: "c1", points: [p1, p1]), ["p1"])
        let day = try await store.day(range: (h.clock.now - 86_400_000)..<(h.clock.now + 86_400_000))
        XCTAssertEqual(day.first?.lastPosition?.latitude, 55.8, "the newest `at` is the last position")
    }

    func pushesQueued() async throws {
        let (ada, _) = try await h.washer("Ada")
        let (bob, _) = try await h.washer("Bob")
        try await store.registerDevice(washerId: ada.id, clientId: "ada-phone", platform: "fcm", token: "t1", now: h.clock.now)
        try await store.registerDevice(washerId: ada.id, clientId: "ada-old", platform: "fcm", token: nil, now: h.clock.now)
        try await store.registerDevice(washerId: bob.id, clientId: "bob-phone", platform: "apns", token: "t2", now: h.clock.now)
        _ = try await h.visit("v1", washer: ada, start: "2026-03-02T10:00:00Z")
        // Far outside the window: no push.
        _ = try await h.visit("v2", washer: ada, start: "2026-09-02T10:00:00Z")
        // Handed over: both washers.
        _ = try await store.updateVisit(visitId: "v1", startMs: Instant.parse("2026-03-02T10:00:00Z") ?? 0, now: h.clock.now, window: window) {
            var v = $0
            v.washerId = bob.id
            return v
        }
        // Moved into the window from outside: pushes.
        _ = try await store.updateVisit(visitId: "v2", startMs: Instant.parse("2026-09-02T10:00:00Z") ?? 0, now: h.clock.now, window: window) {
            var v = $0
            v.startMs = Instant.parse("2026-03-03T10:00:00Z") ?? 0
            return v
        }
        let adas = try await store.pushes(washerId: ada.id)
        XCTAssertEqual(adas.map(\.seq), [1, 2, 3])
        XCTAssertEqual(Set(adas.map(\.clientId)), ["ada-phone"], "an unregistered device gets none")
        XCTAssertEqual(adas.map(\.state), ["queued", "queued", "queued"])
        try await assertEqual(await store.pushes(washerId: bob.id).map(\.seq), [1])
        // The queue gives each device its lowest seq only, and a leased push to no one else.
        let claimed = try await store.claimDue(platforms: ["fcm", "apns"], now: h.clock.now, limit: 10, leaseMillis: 30_000)
        XCTAssertEqual(Set(claimed.map { "\($0.clientId):\($0.seq)" }), ["ada-phone:1", "bob-phone:1"])
        XCTAssertEqual(claimed.first { $0.clientId == "bob-phone" }?.deviceToken, "t2")
        try await assertEqual(await store.claimDue(platforms: ["fcm", "apns"], now: h.clock.now, limit: 10, leaseMillis: 30_000), [])
        try await assertEqual(await store.claimDue(platforms: ["fcm"], now: h.clock.now + 30_001, limit: 10, leaseMillis: 30_000).map(\.seq),
                       [1], "an expired lease is taken again")
        let first = try XCTUnwrap(claimed.first { $0.clientId == "ada-phone" })
        try await store.markSent(id: first.id, attempts: 1)
        let next = try await store.claimDue(platforms: ["fcm"], now: h.clock.now + 60_002, limit: 10, leaseMillis: 30_000)
        XCTAssertEqual(next.map(\.seq), [2])
        try await store.markRetry(id: next[0].id, attempts: 1, notBefore: h.clock.now + 120_000, lastError: "HTTP 503")
        try await assertEqual(await store.claimDue(platforms: ["fcm"], now: h.clock.now + 60_003, limit: 10, leaseMillis: 30_000), [],
                       "seq 3 waits behind seq 2's backoff")
        try await store.markDropped(id: next[0].id, attempts: 2, lastError: "HTTP 400 INVALID_ARGUMENT")
        let third = try await store.claimDue(platforms: ["fcm"], now: h.clock.now + 60_004, limit: 10, leaseMillis: 30_000)
        XCTAssertEqual(third.map(\.seq), [3])
        try await store.dropDevice(pushId: third[0].id, attempts: 1, lastError: "HTTP 404 UNREGISTERED")
        let listed = try await store.pushes(washerId: ada.id)
        XCTAssertEqual(listed.map(\.state), ["sent", "dropped", "dropped"])
        XCTAssertEqual(listed.map(\.lastError), [nil, "HTTP 400 INVALID_ARGUMENT", "HTTP 404 UNREGISTERED"])
        XCTAssertEqual(listed.map(\.attempts), [1, 2, 1])
        // Registered again: seq goes on.
        try await store.registerDevice(washerId: ada.id, clientId: "ada-phone", platform: "fcm", token: "t3", now: h.clock.now)
        _ = try await store.cancelVisit(visitId: "v2", startMs: Instant.parse("2026-03-03T10:00:00Z") ?? 0, now: h.clock.now, window: window)
        try await assertEqual(await store.pushes(washerId: ada.id).map(\.seq), [1, 2, 3, 4])
        // Unregistered by the washer: its queue is dropped.
        try await store.registerDevice(washerId: ada.id, clientId: "ada-phone", platform: "fcm", token: nil, now: h.clock.now)
        try await assertEqual(await store.pushes(washerId: ada.id).last?.state, "dropped")
    }

    func seqAcrossConcurrentChanges() async throws {
        let (ada, _) = try await h.washer()
        try await store.registerDevice(washerId: ada.id, clientId: "phone", platform: "fcm", token: "t", now: h.clock.now)
        let store = store
        let now = h.clock.now
        let window = window
        var record = try sampleRecords()[0]
        for key in PlannerResponder.keyMembers { record[key] = nil }
        let base = record
        try await withThrowingTaskGroup(of: Void.self) { group in
            for i in 0..<20 {
                group.addTask {
                    let row = VisitRow(visitId: "v\(i)", startMs: now + Int64(i) * 3_600_000, washerId: ada.id, record: base, state: .todo)
                    _ = try await store.createVisit(row, now: now, window: window)
                }
            }
            try await group.waitForAll()
        }
        try await assertEqual(await store.pushes(washerId: ada.id).map(\.seq).sorted(), Array(1...20))
    }

    func plannerVisits() async throws {
        let (ada, _) = try await h.washer()
        let v = try await h.visit("v1", washer: ada, start: "2026-03-02T10:00:00Z")
        do {
            _ = try await store.createVisit(v, now: h.clock.now, window: window)
            XCTFail("a visit planned twice")
        } catch let refusal as StoreRefusal {
            guard case .conflict = refusal else { return XCTFail("\(refusal)") }
        }
        var other = v
        other.washerId = "nobody"
        other.startMs += 1
        do {
            _ = try await store.createVisit(other, now: h.clock.now, window: window)
            XCTFail("a visit for no washer")
        } catch let refusal as StoreRefusal {
            XCTAssertEqual(refusal, .invalid(field: "homeBobEmployeeId", message: "homeBobEmployeeId names no washer."))
        }
        _ = try await store.cancelVisit(visitId: "v1", startMs: v.startMs, now: h.clock.now, window: window)
        try await assertEqual(await store.snapshot(washerId: ada.id, window: window), [])
        do {
            _ = try await store.cancelVisit(visitId: "v1", startMs: v.startMs, now: h.clock.now, window: window)
            XCTFail("cancelled twice")
        } catch let refusal as StoreRefusal {
            guard case .notFound = refusal else { return XCTFail("\(refusal)") }
        }
        // Planned again after its cancellation.
        _ = try await store.createVisit(v, now: h.clock.now, window: window)
        try await assertEqual(await store.snapshot(washerId: ada.id, window: window).count, 1)
    }

    func migrationsTwice() async throws {
        try await store.migrate()
        try await store.migrate()
        let (ada, _) = try await h.washer()
        try await assertEqual(await store.washer(id: ada.id), ada)
    }
}

final class SQLiteStoreTests: XCTestCase, @unchecked Sendable {
    func suite() async throws -> Conformance { Conformance(h: try await Harness.make(.sqlite)) }
    func testWashersAndTokens() async throws { try await suite().washersAndTokens() }
    func testExactlyOnce() async throws { try await suite().exactlyOnce() }
    func testConcurrentResends() async throws { try await suite().concurrentResends() }
    func testRejections() async throws { try await suite().rejections() }
    func testPointsOnce() async throws { try await suite().pointsOnce() }
    func testPushesQueued() async throws { try await suite().pushesQueued() }
    func testSeqAcrossConcurrentChanges() async throws { try await suite().seqAcrossConcurrentChanges() }
    func testPlannerVisits() async throws { try await suite().plannerVisits() }
    func testMigrationsTwice() async throws { try await suite().migrationsTwice() }
}

final class PostgresStoreTests: XCTestCase, @unchecked Sendable {
    func suite() async throws -> Conformance {
        try XCTSkipUnless(PostgresCluster.available, "PostgreSQL 15 is not installed (scripts/ensure-deps test installs it)")
        return Conformance(h: try await Harness.make(.postgres))
    }
    func testWashersAndTokens() async throws { try await suite().washersAndTokens() }
    func testExactlyOnce() async throws { try await suite().exactlyOnce() }
    func testConcurrentResends() async throws { try await suite().concurrentResends() }
    func testRejections() async throws { try await suite().rejections() }
    func testPointsOnce() async throws { try await suite().pointsOnce() }
    func testPushesQueued() async throws { try await suite().pushesQueued() }
    func testSeqAcrossConcurrentChanges() async throws { try await suite().seqAcrossConcurrentChanges() }
    func testPlannerVisits() async throws { try await suite().plannerVisits() }
    func testMigrationsTwice() async throws { try await suite().migrationsTwice() }
}
