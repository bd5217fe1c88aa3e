import Foundation
import XCTest

/// The change feed through the real library: each kind of event, their order, the ring and its
/// gap, waiters that hold up no other call, and closing while threads wait.
final class EventsABITests: ABITestCase {
    func sample() throws -> String {
        try String(contentsOf: Repo.fixtures.appendingPathComponent("carfit.json"), encoding: .utf8)
    }

    /// The events after `after`, answered at once.
    func events(_ core: TestCore, after: Int = 0) -> (events: [[String: Any]], last: Int?) {
        let reply = core.call("events.wait", #"{"after": \#(after), "timeoutMs": 0}"#)
        XCTAssertEqual(reply.status, 0, reply.text ?? "")
        return (reply.object["events"] as? [[String: Any]] ?? [], reply.object["last"] as? Int)
    }

    /// A visits document of more than `bytes` bytes: the sample's records repeated.
    func largeVisits(bytes: Int) throws -> String {
        let document = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(try sample().utf8)) as? [String: Any])
        let records = try XCTUnwrap(document["data"] as? [Any])
        let one = try JSONSerialization.data(withJSONObject: records)
        let copies = bytes / one.count + 1
        let many = Array(repeating: records, count: copies).flatMap { $0 }
        let data = try JSONSerialization.data(withJSONObject: ["data": many])
        return String(decoding: data, as: UTF8.self)
    }

    func testCommitsAreChangedEventsWithTheirAreasInOrder() throws {
        let core = try TestCore(lib)
        XCTAssertEqual(events(core).events.count, 0, "a new core has no events")
        XCTAssertEqual(events(core).last, 0)
        XCTAssertEqual(core.call("visits.import", try sample()).status, 0)
        XCTAssertEqual(core.call("employees.create", #"{"pin": "4821", "firstName": "Ada", "lastName": "Lovelace"}"#).status, 0)
        XCTAssertEqual(core.call("visits.list", #"{"dates": ["2020-09-10"]}"#).status, 0) // reads only
        XCTAssertEqual(core.call("session.login", #"{"pin": "4821"}"#).status, 0)
        XCTAssertEqual(core.call("calendar.next", nil).status, 0)
        XCTAssertEqual(core.call("cart.add", #"{"productId": 999}"#).status, 3, "an unknown product: rolled back")

        let (all, last) = events(core)
        XCTAssertEqual(all.map { $0["seq"] as? Int }, Array(1...all.count))
        XCTAssertEqual(last, all.count)
        XCTAssertTrue(all.allSatisfy { $0["kind"] as? String == "changed" && $0["external"] == nil })
        let areas = all.map { $0["areas"] as? [String] ?? [] }
        XCTAssertEqual(areas.first, ["visits", "calendar"])
        XCTAssertEqual(areas.dropFirst().first, ["employees"])
        XCTAssertEqual(areas.last, ["calendar"], "the displayed month moved; the failed cart.add published nothing")
        XCTAssertTrue(areas.contains(["session"]), "\(areas)")
        XCTAssertFalse(areas.contains { $0.contains("cart") }, "\(areas)")

        let later = events(core, after: 2)
        XCTAssertEqual(later.events.map { $0["seq"] as? Int }, Array(3...all.count))
        let none = events(core, after: all.count)
        XCTAssertEqual(none.events.count, 0)
        XCTAssertEqual(none.last, all.count)
    }

    /// A report that completes an arrival commits its changes (the visits and location areas),
    /// then publishes the arrival; the report that leaves publishes the departure; a report that
    /// stores nothing new still moves the position (location only).
    func testArrivalsAndDeparturesFollowTheirCommit() throws {
        let core = try TestCore(lib, config: #"{"now": "2020-09-10T07:00:00Z", "timeZone": "Europe/Copenhagen"}"#)
        XCTAssertEqual(core.call("visits.import", try sample()).status, 0)
        let start = events(core).last ?? 0
        // Mads Kolding's visit of the sample day (Todo) is at 55.7765, 12.5127.
        for (latitude, at) in [(55.7765, "07:00:00"), (55.77651, "07:01:00"), (55.7800, "07:05:00")] {
            let reply = core.call("location.report", #"{"latitude": \#(latitude), "longitude": 12.5127, "accuracyMeters": 5, "at": "2020-09-10T\#(at)Z"}"#)
            XCTAssertEqual(reply.status, 0, reply.text ?? "")
        }
        let feed = events(core, after: start).events
        let kinds = feed.map { $0["kind"] as? String ?? "" }
        XCTAssertEqual(kinds, ["changed", "changed", "arrival", "changed", "departure"])
        XCTAssertEqual(feed[0]["areas"] as? [String], ["location"])
        XCTAssertEqual(feed[1]["areas"] as? [String], ["visits", "location"])
        XCTAssertEqual(feed[2]["key"] as? String, "ec94deca-d66a-4d62-b049-72414870de00|1599729300000|0")
        XCTAssertEqual(feed[2]["at"] as? String, "2020-09-10T07:01:00Z")
        XCTAssertEqual(feed[3]["areas"] as? [String], ["visits", "location"])
        XCTAssertEqual(feed[4]["at"] as? String, "2020-09-10T07:05:00Z")
    }

    func testARequestOutOfRangeIsInvalid() throws {
        let core = try TestCore(lib)
        XCTAssertEqual(core.call("events.wait", #"{"timeoutMs": 60001}"#).field, "timeoutMs")
        XCTAssertEqual(core.call("events.wait", #"{"after": -1, "timeoutMs": 0}"#).field, "after")
        XCTAssertEqual(core.call("events.wait", #"{"after": "1", "timeoutMs": 0}"#).field, "after")
    }

    func testAReaderBehindTheRingGetsAGapFirst() throws {
        let core = try TestCore(lib)
        for i in 0..<1100 { XCTAssertEqual(core.call(i % 2 == 0 ? "calendar.next" : "calendar.previous", nil).status, 0) }
        let behind = events(core, after: 10)
        XCTAssertEqual(behind.events.count, 256)
        XCTAssertEqual(behind.events.first?["kind"] as? String, "gap")
        XCTAssertEqual(behind.events.first?["seq"] as? Int, 1100 - 1024, "the last event lost")
        XCTAssertEqual(behind.events.dropFirst().map { $0["seq"] as? Int }, Array(77...331))
        XCTAssertEqual(behind.last, 331)

        let kept = events(core, after: 1100 - 1024)
        XCTAssertNotEqual(kept.events.first?["kind"] as? String, "gap", "the oldest kept event follows")
        XCTAssertEqual(kept.events.first?["seq"] as? Int, 77)

        // A seq this core never gave (a host that kept its place across a reopen): a gap, then
        // the kept events from the oldest.
        for after in [5000, Int(Int64.max)] {
            let ahead = events(core, after: after)
            XCTAssertEqual(ahead.events.first?["kind"] as? String, "gap")
            XCTAssertEqual(ahead.events.dropFirst().first?["seq"] as? Int, 77)
        }
        let fresh = try TestCore(lib)
        let confused = events(fresh, after: 7)
        XCTAssertEqual(confused.events.map { $0["kind"] as? String }, ["gap"])
        XCTAssertEqual(confused.last, 0)
    }

    func testAWaiterWakesOnACommitAndHoldsUpNoOtherCall() throws {
        let core = try TestCore(lib)
        let started = DispatchSemaphore(value: 0)
        let done = DispatchGroup()
        nonisolated(unsafe) var woken = Reply(-1, nil)
        done.enter()
        Thread.detachNewThread {
            started.signal()
            woken = core.call("events.wait", #"{"after": 0, "timeoutMs": 30000}"#)
            done.leave()
        }
        started.wait()
        usleep(50_000)
        // Calls run while the thread waits (it holds no lock of the core's).
        XCTAssertEqual(core.call("calendar.get", nil).status, 0)
        XCTAssertEqual(core.call("visits.list", #"{"dates": ["2020-09-10"]}"#).status, 0)
        XCTAssertEqual(core.call("visits.import", try sample()).status, 0)
        XCTAssertEqual(done.wait(timeout: .now() + 20), .success, "the waiter was not woken")
        XCTAssertEqual(woken.status, 0, woken.text ?? "")
        let got = woken.object["events"] as? [[String: Any]] ?? []
        XCTAssertEqual(got.first?["areas"] as? [String], ["visits", "calendar"])
        XCTAssertEqual(woken.object["last"] as? Int, got.last?["seq"] as? Int)
    }

    func testClosingWakesEveryWaiterWithMisuse() throws {
        let core = try TestCore(lib)
        let waiters = 4
        let ready = DispatchSemaphore(value: 0)
        let done = DispatchGroup()
        let statuses = NSLock()
        nonisolated(unsafe) var answers: [Reply] = []
        for _ in 0..<waiters {
            done.enter()
            Thread.detachNewThread {
                ready.signal()
                let reply = core.call("events.wait", #"{"after": 0, "timeoutMs": 60000}"#)
                statuses.lock()
                answers.append(reply)
                statuses.unlock()
                done.leave()
            }
        }
        for _ in 0..<waiters { ready.wait() }
        usleep(100_000)
        core.close()
        XCTAssertEqual(done.wait(timeout: .now() + 20), .success, "a waiter still waits after close")
        XCTAssertEqual(answers.count, waiters)
        for reply in answers {
            XCTAssertEqual(reply.status, 8, reply.text ?? "")
            XCTAssertEqual(reply.code, "misuse")
        }
    }

    func testALargeImportReportsItsProgress() throws {
        let core = try TestCore(lib)
        let document = try largeVisits(bytes: 3 << 20)
        let total = document.utf8.count
        XCTAssertEqual(core.call("visits.import", document).status, 0)
        let all = events(core).events
        let progress = all.filter { $0["kind"] as? String == "progress" }
        XCTAssertFalse(progress.isEmpty)
        for event in progress {
            XCTAssertEqual(event["operation"] as? String, "visits.import")
            XCTAssertEqual(event["unit"] as? String, "bytes")
            XCTAssertEqual(event["total"] as? Int, total)
        }
        let done = progress.compactMap { $0["done"] as? Int }
        XCTAssertEqual(done, done.sorted(), "done never goes back")
        XCTAssertEqual(done.last, total, "the last one is complete")
        XCTAssertEqual(done.filter { $0 == total }.count, 1)
        XCTAssertTrue(all.contains { $0["kind"] as? String == "changed" })

        // A small import reports no progress.
        let before = events(core).last ?? 0
        XCTAssertEqual(core.call("visits.import", try sample()).status, 0)
        XCTAssertEqual(events(core, after: before).events.map { $0["kind"] as? String }, ["changed"])
    }

    func testAnotherCoresCommitIsAnExternalChange() throws {
        let path = NSTemporaryDirectory() + "events-\(UUID().uuidString).db"
        defer { for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: path + suffix) } }
        let config = #"{"now": "2020-09-10T07:00:00Z", "timeZone": "Europe/Copenhagen", "database": "\#(path)"}"#
        let watched = try TestCore(lib, config: config)
        let other = try TestCore(lib, config: config)
        let done = DispatchGroup()
        nonisolated(unsafe) var woken = Reply(-1, nil)
        done.enter()
        Thread.detachNewThread {
            woken = watched.call("events.wait", #"{"after": 0, "timeoutMs": 30000}"#)
            done.leave()
        }
        usleep(50_000)
        XCTAssertEqual(other.call("visits.import", try sample()).status, 0)
        XCTAssertEqual(done.wait(timeout: .now() + 20), .success)
        let got = woken.object["events"] as? [[String: Any]] ?? []
        XCTAssertEqual(got.count, 1, woken.text ?? "")
        XCTAssertEqual(got.first?["areas"] as? [String], ["all"])
        XCTAssertEqual(got.first?["external"] as? Bool, true)
        XCTAssertEqual(events(other).events.first?["external"] as? Bool, nil, "its own commit is not external to it")
    }
}
