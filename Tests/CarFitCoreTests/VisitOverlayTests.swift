import XCTest
@testable import CarFitCore

final class VisitOverlayTests: XCTestCase {
    let t0 = Instant(milliseconds: 1_599_725_100_000)  // 2020-09-10T08:05:00Z

    func at(minutes: Int64, seconds: Int64 = 0) -> Instant {
        Instant(milliseconds: t0.milliseconds + minutes * 60_000 + seconds * 1000)
    }

    func testNoChangesShowTheSnapshot() {
        let overlay = VisitOverlay()
        XCTAssertEqual(overlay.shown(snapshotState: "ToDo", snapshotTimeUsed: 0),
                       ShownVisit(state: "Todo", pending: false, timeUsedMinutes: 0))
        XCTAssertEqual(overlay.shown(snapshotState: "Cancelled", snapshotTimeUsed: nil).color, "#8E8E93")
        XCTAssertTrue(overlay.isEmpty)
    }

    func testAWashersDay() throws {
        var o = VisitOverlay()
        try o.record(.inProgress, at: at(minutes: 0), mutationId: "start", reason: nil, snapshotState: "ToDo", snapshotTimeUsed: 0)
        XCTAssertEqual(o.shown(snapshotState: "ToDo", snapshotTimeUsed: 0),
                       ShownVisit(state: "InProgress", pending: true, timeUsedMinutes: 0))
        XCTAssertEqual(o.shown(snapshotState: "ToDo", snapshotTimeUsed: 0).color, "#F5C709")
        let done = try o.record(.done, at: at(minutes: 41, seconds: 30), mutationId: "done", reason: "ignored",
                                snapshotState: "ToDo", snapshotTimeUsed: 0)
        XCTAssertEqual(done.timeUsedMinutes, 42)
        XCTAssertNil(done.reason)
        XCTAssertEqual(o.shown(snapshotState: "ToDo", snapshotTimeUsed: 0),
                       ShownVisit(state: "Done", pending: true, timeUsedMinutes: 42))
        // Pushed and applied: still shown, no longer pending.
        o.markApplied("start")
        o.markApplied("done")
        XCTAssertEqual(o.shown(snapshotState: "ToDo", snapshotTimeUsed: 0),
                       ShownVisit(state: "Done", pending: false, timeUsedMinutes: 42))
        // The next snapshot is the authority.
        o.snapshotStored(snapshotState: "Done")
        XCTAssertTrue(o.isEmpty)
        XCTAssertEqual(o.shown(snapshotState: "Done", snapshotTimeUsed: 40),
                       ShownVisit(state: "Done", pending: false, timeUsedMinutes: 40))
    }

    func testRefusedChangesChangeNothing() throws {
        var o = VisitOverlay()
        XCTAssertThrowsError(try o.record(.done, at: t0, mutationId: "x", reason: nil, snapshotState: "ToDo", snapshotTimeUsed: nil)) {
            XCTAssertEqual(($0 as? CarFitError)?.message, "A visit in state Todo cannot become Done.")
        }
        XCTAssertTrue(o.isEmpty)
        try o.record(.rejected, at: t0, mutationId: "r", reason: "Nobody home", snapshotState: "ToDo", snapshotTimeUsed: nil)
        XCTAssertEqual(o.changes.last?.reason, "Nobody home")
        // The local state is what the rules look at: Rejected allows nothing.
        XCTAssertThrowsError(try o.record(.todo, at: t0, mutationId: "y", reason: nil, snapshotState: "ToDo", snapshotTimeUsed: nil)) {
            XCTAssertEqual(($0 as? CarFitError)?.message, "A visit in state Rejected cannot become Todo.")
        }
        XCTAssertEqual(o.changes.count, 1)
    }

    func testDoneWithoutARecordedStartHasNoTimeUsed() throws {
        var o = VisitOverlay()
        let done = try o.record(.done, at: t0, mutationId: "d", reason: nil, snapshotState: "InProgress", snapshotTimeUsed: 7)
        XCTAssertNil(done.timeUsedMinutes)
        XCTAssertEqual(o.shown(snapshotState: "InProgress", snapshotTimeUsed: 7).timeUsedMinutes, 7)
    }

    func testAnUndoneStartForgetsItsTime() throws {
        var o = VisitOverlay()
        try o.record(.inProgress, at: at(minutes: 0), mutationId: "s1", reason: nil, snapshotState: "ToDo", snapshotTimeUsed: nil)
        try o.record(.todo, at: at(minutes: 5), mutationId: "u", reason: nil, snapshotState: "ToDo", snapshotTimeUsed: nil)
        XCTAssertNil(o.startedAt)
        try o.record(.inProgress, at: at(minutes: 10), mutationId: "s2", reason: nil, snapshotState: "ToDo", snapshotTimeUsed: nil)
        let done = try o.record(.done, at: at(minutes: 30), mutationId: "d", reason: nil, snapshotState: "ToDo", snapshotTimeUsed: nil)
        XCTAssertEqual(done.timeUsedMinutes, 20)
    }

    func testAStartSurvivesTheSnapshotThatConfirmsIt() throws {
        var o = VisitOverlay()
        try o.record(.inProgress, at: at(minutes: 0), mutationId: "s", reason: nil, snapshotState: "ToDo", snapshotTimeUsed: nil)
        o.markApplied("s")
        o.snapshotStored(snapshotState: "InProgress")
        XCTAssertTrue(o.changes.isEmpty)
        XCTAssertEqual(o.startedAt, at(minutes: 0))
        let done = try o.record(.done, at: at(minutes: 25), mutationId: "d", reason: nil, snapshotState: "InProgress", snapshotTimeUsed: nil)
        XCTAssertEqual(done.timeUsedMinutes, 25)
        // A snapshot where the planner moved the visit back forgets the start.
        var other = VisitOverlay(baseStartedAt: at(minutes: 0))
        other.snapshotStored(snapshotState: "ToDo")
        XCTAssertTrue(other.isEmpty)
    }

    func testSnapshotsNeverOverwritePendingWork() throws {
        var o = VisitOverlay()
        try o.record(.inProgress, at: t0, mutationId: "s", reason: nil, snapshotState: "ToDo", snapshotTimeUsed: nil)
        o.snapshotStored(snapshotState: "ToDo")
        XCTAssertEqual(o.shown(snapshotState: "ToDo", snapshotTimeUsed: nil), ShownVisit(state: "InProgress", pending: true, timeUsedMinutes: nil))
        // An applied change after a pending one waits for it.
        try o.record(.done, at: at(minutes: 3), mutationId: "d", reason: nil, snapshotState: "ToDo", snapshotTimeUsed: nil)
        o.markApplied("d")
        o.snapshotStored(snapshotState: "Done")
        XCTAssertEqual(o.changes.map(\.mutationId), ["s", "d"])
        o.markApplied("s")
        o.snapshotStored(snapshotState: "Done")
        XCTAssertTrue(o.isEmpty)
    }

    func testARejectedChangeIsUndone() throws {
        var o = VisitOverlay()
        try o.record(.inProgress, at: t0, mutationId: "s", reason: nil, snapshotState: "ToDo", snapshotTimeUsed: 0)
        try o.record(.done, at: at(minutes: 9), mutationId: "d", reason: nil, snapshotState: "ToDo", snapshotTimeUsed: 0)
        o.markApplied("s")
        XCTAssertTrue(o.undo("d"))
        XCTAssertFalse(o.undo("d"))
        XCTAssertFalse(o.markApplied("nope"))
        XCTAssertEqual(o.shown(snapshotState: "ToDo", snapshotTimeUsed: 0), ShownVisit(state: "InProgress", pending: false, timeUsedMinutes: 0))
        XCTAssertTrue(o.undo("s"))
        XCTAssertEqual(o.shown(snapshotState: "ToDo", snapshotTimeUsed: 0), ShownVisit(state: "Todo", pending: false, timeUsedMinutes: 0))
    }

    /// Random days of one visit: changes, pushes answered in every way (applied, rejected, not
    /// named, lost), snapshots. A model server applies each mutation id once by the same rules.
    /// Invariants: pending exactly while some change is unconfirmed; the server never applies an
    /// id twice; once everything is pushed and a snapshot stored, the card shows the server's
    /// state.
    func testRandomInterleavingsConverge() throws {
        for seed in 0..<300 as Range<UInt64> {
            var random = CarFitCore.SplitMix64(seed: seed)
            var serverState = "ToDo"
            var serverAnswers: [String: Bool] = [:]  // id -> applied
            var applications: [String: Int] = [:]
            var snapshot = serverState
            var overlay = VisitOverlay()
            var outbox: [LocalChange] = []
            var clock = t0
            var ids = 0

            func serverHandle(_ change: LocalChange) -> Bool {
                if let earlier = serverAnswers[change.mutationId] { return earlier }
                let ok = VisitTransition.allows(from: VisitState(source: serverState), to: change.state)
                    && random.below(10) != 0  // the server sometimes refuses for its own reasons
                if ok {
                    serverState = change.state.rawValue
                    applications[change.mutationId, default: 0] += 1
                }
                serverAnswers[change.mutationId] = ok
                return ok
            }

            func push(lossy: Bool) {
                let sent = outbox
                var answered: [(String, Bool)] = []
                for change in sent { answered.append((change.mutationId, serverHandle(change))) }
                if lossy {
                    switch random.below(3) {
                    case 0: return  // the answer was lost: everything stays pending
                    case 1: answered = Array(answered.prefix(random.below(answered.count + 1)))  // names only some
                    default: break
                    }
                }
                for (id, ok) in answered {
                    outbox.removeAll { $0.mutationId == id }
                    if ok { overlay.markApplied(id) } else { XCTAssertTrue(overlay.undo(id)) }
                }
            }

            for _ in 0..<random.below(25) {
                clock = Instant(milliseconds: clock.milliseconds + Int64(random.below(3_600_000)))
                switch random.below(4) {
                case 0, 1:
                    let target = VisitState.allCases[random.below(4)]
                    ids += 1
                    let shown = overlay.shown(snapshotState: snapshot, snapshotTimeUsed: nil).state
                    do {
                        let change = try overlay.record(target, at: clock, mutationId: "m\(ids)", reason: "r",
                                                        snapshotState: snapshot, snapshotTimeUsed: nil)
                        XCTAssertTrue(VisitTransition.allows(from: shown.flatMap(VisitState.init(source:)), to: target))
                        outbox.append(change)
                    } catch {
                        XCTAssertFalse(VisitTransition.allows(from: shown.flatMap(VisitState.init(source:)), to: target))
                    }
                case 2:
                    push(lossy: true)
                default:
                    snapshot = serverState
                    overlay.snapshotStored(snapshotState: snapshot)
                }
                XCTAssertEqual(overlay.isPending, !outbox.isEmpty, "seed \(seed)")
                XCTAssertEqual(overlay.shown(snapshotState: snapshot, snapshotTimeUsed: nil).pending, !outbox.isEmpty)
            }
            var rounds = 0
            while !outbox.isEmpty, rounds < 100 {
                push(lossy: false)
                rounds += 1
            }
            XCTAssertTrue(outbox.isEmpty)
            snapshot = serverState
            overlay.snapshotStored(snapshotState: snapshot)
            XCTAssertTrue(overlay.changes.isEmpty, "seed \(seed)")
            XCTAssertEqual(overlay.shown(snapshotState: snapshot, snapshotTimeUsed: nil).state,
                           VisitState.display(serverState), "seed \(seed)")
            XCTAssertTrue(applications.values.allSatisfy { $0 == 1 }, "seed \(seed)")
        }
    }
}
