import CarFitSystem
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

    /// A push service of `f`'s database sending the updates to `url`.
    func pusher(_ f: ServiceFixture, to url: String?, client: HTTPClient? = nil, lock: PushLock? = nil,
                clock: Clock? = nil, waitMs: Int = 1000) -> SyncService {
        SyncService(db: f.db, clock: clock ?? f.clock,
                    setup: PushSetup(visitUpdates: url, client: client ?? HTTPClient(limits: HTTPLimits(timeoutMs: 2000, totalTimeoutMs: 5000)),
                                     pushLock: lock ?? PushLock(database: ":memory:"), waitMs: waitMs))
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

    /// Each of the four states to each of the four: an allowed change is the card's new state,
    /// pending, and one outbox entry; a refused one is a conflict naming both states that leaves
    /// the card and the outbox as they were.
    func testEveryPairOfStatesThroughTheService() throws {
        let states = ["Todo", "InProgress", "Done", "Rejected"]
        let allowed: Set<String> = ["Todo>InProgress", "Todo>Rejected", "InProgress>Done", "InProgress>Rejected", "InProgress>Todo"]
        var changed = 0
        for start in states {
            for target in states {
                let f = try ServiceFixture()
                try load(f, #"{"data": [{"visitId": "a", "startTimeUtc": "2020-09-10T08:00:00Z", "visitState": "\#(start)"}]}"#)
                let key = "a|1599724800000|0"
                if allowed.contains("\(start)>\(target)") {
                    let card = try change(f, key, target)
                    XCTAssertEqual(card.objectValue?["state"], .string(target), "\(start) -> \(target)")
                    XCTAssertEqual(card.objectValue?["pending"], true, "\(start) -> \(target)")
                    XCTAssertEqual(try SyncStore(f.db).pendingCount(), 1, "\(start) -> \(target)")
                    changed += 1
                } else {
                    let error = refusal { () throws(CarFitError) in _ = try change(f, key, target) }
                    XCTAssertEqual(error?.status, .conflict, "\(start) -> \(target)")
                    XCTAssertTrue(error?.message.contains(start) == true && error?.message.contains(target) == true,
                                  error?.message ?? "")
                    let card = try cards(f).first?.objectValue
                    XCTAssertEqual(card?["state"], .string(start), "\(start) -> \(target)")
                    XCTAssertEqual(card?["pending"], false, "\(start) -> \(target)")
                    XCTAssertEqual(try SyncStore(f.db).pendingCount(), 0, "\(start) -> \(target)")
                }
            }
        }
        XCTAssertEqual(changed, allowed.count)
    }

    /// The areas the change feed names for each commit: an import is a change of the visits and
    /// the calendar's counts; a washer's change one of the visits and the outbox, not of the
    /// calendar (its counts do not follow states).
    func testTheAreasAnImportAndAChangeCommit() throws {
        let f = try ServiceFixture()
        var commits: [[String]] = []
        f.db.onCommit { tables in commits.append(StoredAreas.areas(of: tables)) }
        defer { f.db.onCommit(nil) }
        try load(f)
        XCTAssertEqual(commits.filter { !$0.isEmpty }, [["visits", "calendar"]])
        commits = []
        _ = try change(f, "a|1599724800000|0", "InProgress")
        XCTAssertEqual(commits.filter { !$0.isEmpty }, [["visits", "outbox"]])
        commits = []
        XCTAssertEqual(refusal { () throws(CarFitError) in _ = try change(f, "a|1599724800000|0", "InProgress") }?.status, .conflict)
        XCTAssertEqual(commits.filter { !$0.isEmpty }, [], "a refused change commits nothing")
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
        XCTAssertEqual(status.rejected.map(\.reason), ["Too late"])
        XCTAssertEqual(status.rejected.first?.mutationId, id)
        XCTAssertEqual(status.rejected.first?.visitId, "a")
        XCTAssertEqual(status.rejected.first?.state, "Rejected")
        XCTAssertEqual(status.pending, 0)
    }

    func testAPushThatCannotConnectKeepsEverythingAndBacksOff() throws {
        let f = try ServiceFixture()
        try load(f)
        _ = try change(f, "a|1599724800000|0", "InProgress")
        let service = pusher(f, to: "http://127.0.0.1:1/u")
        let failure = refusal { () throws(CarFitError) in _ = try service.push(ifDue: false, lock: f) }
        XCTAssertEqual(failure?.status, .unavailable)
        XCTAssertEqual(failure?.reason, "refused")
        let skipped = try service.push(ifDue: true, lock: f)
        XCTAssertEqual(skipped.skipped.map { if case .backoff = $0 { true } else { false } }, true)
        XCTAssertEqual(skipped.pending, 1)
        let status = try service.status()
        XCTAssertEqual(status.state.consecutiveFailures, 1)
        XCTAssertEqual(status.state.lastError?.reason, "refused")
        XCTAssertEqual(refusal { () throws(CarFitError) in
            _ = try SyncService(db: f.db, clock: f.clock).push(ifDue: false, lock: f)
        }?.field, "sources.visitUpdates")
        XCTAssertEqual(refusal { () throws(CarFitError) in _ = try pusher(f, to: nil).push(ifDue: false, lock: f) }?.field,
                       "sources.visitUpdates")
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

/// The push's rules against a scripted loopback server: what is sent, what each answer does to
/// the outbox, the backoff, `ifDue`, a 401, answers that are not answers.
extension SyncServiceTests {
    /// A fixture with the document loaded and one change of each record of the pair `a`.
    func changed() throws -> ServiceFixture {
        let f = try ServiceFixture()
        try load(f)
        _ = try change(f, "a|1599724800000|0", "InProgress")
        _ = try change(f, "a|1599724800000|1", "Rejected")
        return f
    }

    func testAPushSendsTheOutboxOldestFirstWithTheClientIdAndCommitsTheAnswer() throws {
        let f = try changed()
        let server = try PushServer()
        defer { server.stop() }
        let outbox = try SyncStore(f.db).pending(limit: 10)
        let clientId = try SyncStore(f.db).state().clientId
        server.then(PushServer.applyAll)
        let summary = try pusher(f, to: server.url("/updates")).push(ifDue: false, lock: f)
        XCTAssertEqual(summary, PushSummary(pushed: 2, rejected: 0, pending: 0))
        let sent = try XCTUnwrap(server.requests.first)
        XCTAssertEqual(server.requests.count, 1)
        XCTAssertEqual(sent.method, "POST")
        XCTAssertEqual(sent.path, "/updates")
        XCTAssertEqual(sent.json, .obj([
            "clientId": .string(clientId),
            "mutations": [
                .obj(["mutationId": .string(outbox[0].mutationId), "visitId": "a", "startTimeUtc": "2020-09-10T08:00:00Z",
                      "state": "InProgress", "at": "2020-09-10T07:00:00Z", "timeUsedMinutes": nil, "reason": nil]),
                .obj(["mutationId": .string(outbox[1].mutationId), "visitId": "a", "startTimeUtc": "2020-09-10T08:00:00Z",
                      "state": "Rejected", "at": "2020-09-10T07:00:00Z", "timeUsedMinutes": nil, "reason": nil]),
            ],
        ]))
        XCTAssertTrue(UUIDv4.isValid(clientId))
        let status = try pusher(f, to: nil).status()
        XCTAssertEqual(status.pending, 0)
        XCTAssertEqual(status.state.lastSuccessAt, f.clock.now)
        XCTAssertNil(status.state.lastError)
        // An empty outbox makes no request.
        XCTAssertEqual(try pusher(f, to: server.url("/updates")).push(ifDue: false, lock: f), PushSummary())
        XCTAssertEqual(server.requests.count, 1)
    }

    func testALostAnswerResendsTheSameIdsAndEachChangeIsAppliedOnce() throws {
        let f = try changed()
        let server = try PushServer()
        defer { server.stop() }
        let service = pusher(f, to: server.url("/u"))
        server.then(.hangUp)
        let lost = refusal { () throws(CarFitError) in _ = try service.push(ifDue: false, lock: f) }
        XCTAssertEqual(lost?.status, .unavailable)
        XCTAssertEqual(lost?.reason, "no_response")
        XCTAssertEqual(try SyncStore(f.db).pendingCount(), 2)
        // The answer names one id applied, another the request did not send, and leaves the
        // second unnamed: one leaves the outbox, the ghost changes nothing, the push stops.
        server.then({ seen in
            .answer(200, #"{"applied": ["\#(seen.mutationIds[0])", "ghost"], "rejected": [{"mutationId": "other", "reason": "x"}]}"#)
        })
        XCTAssertEqual(try service.push(ifDue: false, lock: f), PushSummary(pushed: 1, rejected: 0, pending: 1))
        server.then(PushServer.applyAll)
        XCTAssertEqual(try service.push(ifDue: false, lock: f), PushSummary(pushed: 1, rejected: 0, pending: 0))
        let ids = server.requests.map(\.mutationIds)
        XCTAssertEqual(ids.count, 3)
        XCTAssertEqual(ids[0], ids[1], "the lost request is sent again with the same ids")
        XCTAssertEqual(ids[2], [ids[0][1]], "only the unnamed entry is sent again")
        XCTAssertEqual(try f.db.scalarInt("SELECT count(*) FROM local_changes WHERE status = 'pending'"), 0)
    }

    func testARejectionUndoesTheChangeAndIsListedWithItsReason() throws {
        let f = try ServiceFixture()
        try load(f)
        _ = try change(f, "a|1599724800000|0", "InProgress")
        let server = try PushServer()
        defer { server.stop() }
        server.then({ seen in
            .answer(200, #"{"applied": [], "rejected": [{"mutationId": "\#(seen.mutationIds[0])", "reason": "Reassigned."}]}"#)
        })
        XCTAssertEqual(try pusher(f, to: server.url("/u")).push(ifDue: false, lock: f), PushSummary(pushed: 0, rejected: 1, pending: 0))
        XCTAssertEqual(try cards(f).first?.objectValue?["state"], "Todo")
        let status = try pusher(f, to: nil).status()
        XCTAssertEqual(status.rejected.map(\.reason), ["Reassigned."])
        XCTAssertEqual(status.rejected.first?.start, Instant(milliseconds: 1_599_724_800_000))
        XCTAssertEqual(status.rejected.first?.at, f.clock.now)
    }

    func testFailuresBackOffIfDuePushesAndASuccessForgetsThem() throws {
        let f = try changed()
        let server = try PushServer()
        defer { server.stop() }
        let lock = PushLock(database: ":memory:")
        server.then(.answer(500, "{}"))
        let failed = refusal { () throws(CarFitError) in _ = try pusher(f, to: server.url("/u"), lock: lock).push(ifDue: false, lock: f) }
        XCTAssertEqual(failed?.status, .unavailable)
        XCTAssertEqual(failed?.reason, "http_status")
        XCTAssertEqual(failed?.httpStatus, 500)
        XCTAssertEqual(failed?.cause, CarFitError.Cause(reason: "http_status", httpStatus: 500))
        var state = try SyncStore(f.db).state()
        XCTAssertEqual(state.consecutiveFailures, 1)
        XCTAssertEqual(state.lastError, SyncFailure(reason: "http_status", message: failed?.message ?? "", at: f.clock.now, httpStatus: 500))
        let next = try XCTUnwrap(state.nextAttemptAt)
        XCTAssertTrue((800...1200).contains(next.milliseconds - f.clock.now.milliseconds), "1 s ± 20%")
        // ifDue during the backoff: no request, the instant it is due.
        let skipped = try pusher(f, to: server.url("/u"), lock: lock).push(ifDue: true, lock: f)
        XCTAssertEqual(skipped, PushSummary(pending: 2, skipped: .backoff(until: next)))
        XCTAssertEqual(server.requests.count, 1)
        // A push without ifDue always tries: the second failure doubles the wait.
        server.then(.answer(503, ""))
        _ = refusal { () throws(CarFitError) in _ = try pusher(f, to: server.url("/u"), lock: lock).push(ifDue: false, lock: f) }
        state = try SyncStore(f.db).state()
        XCTAssertEqual(state.consecutiveFailures, 2)
        let second = try XCTUnwrap(state.nextAttemptAt).milliseconds - f.clock.now.milliseconds
        XCTAssertTrue((1600...2400).contains(second), "2 s ± 20%")
        // Once the backoff is over an ifDue push tries; its success forgets the failures.
        let later = try Clock(zoneName: "Europe/Copenhagen", fixedNow: Instant(milliseconds: f.clock.now.milliseconds + 2_401))
        server.then(PushServer.applyAll)
        XCTAssertEqual(try pusher(f, to: server.url("/u"), lock: lock, clock: later).push(ifDue: true, lock: f),
                       PushSummary(pushed: 2, rejected: 0, pending: 0))
        state = try SyncStore(f.db).state()
        XCTAssertEqual(state.consecutiveFailures, 0)
        XCTAssertNil(state.nextAttemptAt)
        XCTAssertNil(state.lastError)
        XCTAssertEqual(state.lastSuccessAt, later.now)
    }

    func testAnIfDuePushSkipsWhileAnotherPushRunsAndOneWithoutWaitsThenFails() throws {
        let f = try changed()
        let lock = PushLock(database: ":memory:")
        let held = try XCTUnwrap(try lock.acquire(waitMs: 0))
        defer { held.release() }
        let service = pusher(f, to: "http://127.0.0.1:1/u", lock: lock, waitMs: 50)
        XCTAssertEqual(try service.push(ifDue: true, lock: f), PushSummary(pending: 2, skipped: .busy))
        let busy = refusal { () throws(CarFitError) in _ = try service.push(ifDue: false, lock: f) }
        XCTAssertEqual(busy?.status, .unavailable)
        XCTAssertEqual(busy?.reason, "busy")
        XCTAssertEqual(try SyncStore(f.db).state().consecutiveFailures, 0, "a busy push is no failure of the server")
    }

    func testA401IsRecordedWithoutBackoffAndStopsIfDuePushesUntilATokenIsSet() throws {
        let f = try changed()
        let server = try PushServer()
        defer { server.stop() }
        let client = HTTPClient(limits: HTTPLimits(timeoutMs: 2000, totalTimeoutMs: 5000))
        let service = pusher(f, to: server.url("/u"), client: client)
        server.then(.answer(401, ""))
        let refused = refusal { () throws(CarFitError) in _ = try service.push(ifDue: false, lock: f) }
        XCTAssertEqual(refused?.status, .unauthorized)
        XCTAssertEqual(refused?.reason, "unauthorized")
        XCTAssertEqual(refused?.httpStatus, 401)
        XCTAssertEqual(refused?.details.url, server.url("/u"))
        let state = try SyncStore(f.db).state()
        XCTAssertEqual(state.consecutiveFailures, 0)
        XCTAssertNil(state.nextAttemptAt)
        XCTAssertEqual(state.lastError?.reason, "unauthorized")
        XCTAssertEqual(state.lastError?.httpStatus, 401)
        XCTAssertEqual(try service.push(ifDue: true, lock: f), PushSummary(pending: 2, skipped: .unauthorized))
        XCTAssertEqual(server.requests.count, 1)
        client.auth.set(AuthCredentials(token: "t"))
        server.then(PushServer.applyAll)
        XCTAssertEqual(try service.push(ifDue: true, lock: f), PushSummary(pushed: 2, rejected: 0, pending: 0))
        XCTAssertEqual(server.requests.count, 2)
    }

    func testAnAnswerThatIsNoAnswerKeepsEveryEntryPendingAndCountsAsAFailure() throws {
        let f = try changed()
        let server = try PushServer()
        defer { server.stop() }
        let bodies = ["", "not json", "[]", #"{"applied": []}"#, #"{"applied": [1], "rejected": []}"#,
                      #"{"applied": [], "rejected": [{"reason": "r"}]}"#]
        for (n, body) in bodies.enumerated() {
            server.then(.answer(200, body))
            let error = refusal { () throws(CarFitError) in _ = try pusher(f, to: server.url("/u")).push(ifDue: false, lock: f) }
            XCTAssertEqual(error?.status, .unavailable, body)
            XCTAssertEqual(error?.reason, "malformed", body)
            XCTAssertEqual(error?.details.url, server.url("/u"), body)
            XCTAssertEqual(try SyncStore(f.db).pendingCount(), 2, body)
            XCTAssertEqual(try SyncStore(f.db).state().consecutiveFailures, n + 1, body)
            XCTAssertEqual(try SyncStore(f.db).state().lastError?.reason, "malformed", body)
        }
        // One id both applied and rejected: the server's intent is unknown, so nothing is taken.
        server.then({ seen in
            let id = seen.mutationIds[0]
            return .answer(200, #"{"applied": ["\#(id)"], "rejected": [{"mutationId": "\#(id)", "reason": "r"}]}"#)
        })
        let both = refusal { () throws(CarFitError) in _ = try pusher(f, to: server.url("/u")).push(ifDue: false, lock: f) }
        XCTAssertEqual(both?.reason, "malformed")
        XCTAssertEqual(try SyncStore(f.db).pendingCount(), 2)
    }

    /// The one classification of the network's failures: a refresh and a push given the same
    /// URL fail with the same status and reason.
    func testARefreshAndAPushClassifyTheSameFailureAlike() throws {
        let f = try changed()
        let server = try PushServer()
        defer { server.stop() }
        let client = HTTPClient(limits: HTTPLimits(timeoutMs: 2000, totalTimeoutMs: 5000))
        func both(_ url: String, _ reply: PushServer.Reply? = nil) -> (refresh: CarFitError?, push: CarFitError?) {
            if let reply { server.then(reply) }
            let refresh = refusal { () throws(CarFitError) in _ = try f.visits.refresh(url: url, http: client, lock: f) }
            if let reply { server.then(reply) }
            let push = refusal { () throws(CarFitError) in _ = try pusher(f, to: url, client: client).push(ifDue: false, lock: f) }
            return (refresh, push)
        }
        let cases: [(url: String, reply: PushServer.Reply?, status: CarFitCore.Status, reason: String, httpStatus: Int?)] = [
            ("ftp://127.0.0.1/x", nil, .invalid, "not_http", nil),
            ("http://127.0.0.1:1/x", nil, .unavailable, "refused", nil),
            (server.url("/x"), .answer(500, "{}"), .unavailable, "http_status", 500),
        ]
        for c in cases {
            let (refresh, push) = both(c.url, c.reply)
            for error in [refresh, push] {
                XCTAssertEqual(error?.status, c.status, c.url)
                XCTAssertEqual(error?.reason, c.reason, c.url)
                XCTAssertEqual(error?.details.url, c.url, c.url)
                XCTAssertEqual(error?.httpStatus, c.httpStatus, c.url)
                XCTAssertEqual(error?.cause?.reason, c.reason, c.url)
            }
            XCTAssertEqual(refresh?.field, c.status == .invalid ? "sources.visits" : nil)
            XCTAssertEqual(push?.field, c.status == .invalid ? "sources.visitUpdates" : nil)
        }
    }
}

private extension JSON {
    var stringText: String? { if case .string(let s) = self { return s }; return nil }
}
