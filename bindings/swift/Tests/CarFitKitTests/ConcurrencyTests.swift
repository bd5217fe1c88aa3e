import CarFitKit
import Foundation
import Testing

@Suite struct ConcurrencyTests {
    /// 100 calls at once from 100 tasks, each answered correctly.
    @Test func hundredConcurrentCalls() async throws {
        let core = try Core(configJSON: dayConfig())
        _ = try await core.visitsImport(try resource("carfit.json", as: VisitsImportRequest.self))
        let dates = ["2020-09-10", "2020-09-11", "2020-09-30"]
        let counts = try await withThrowingTaskGroup(of: (String, Int).self) { group in
            for i in 0..<100 {
                let date = dates[i % dates.count]
                group.addTask {
                    let list = try await core.visitsList(VisitsListRequest(dates: [date]))
                    return (date, list.days.first?.visits.count ?? -1)
                }
            }
            var found: [String: Set<Int>] = [:]
            for try await (date, count) in group { found[date, default: []].insert(count) }
            return found
        }
        #expect(counts.count == 3)
        for (_, seen) in counts { #expect(seen.count == 1 && (seen.first ?? 0) > 0) }
    }

    /// Calls waiting in the library hold none of the cooperative pool's threads: with 16 event
    /// waits of 600 ms in flight (more than the pool has threads), a task on the pool still runs at once.
    @Test func waitingCallsHoldNoPoolThread() async throws {
        let core = try Core(configJSON: dayConfig())
        let latest = try await core.eventsWait(EventsWaitRequest(after: 0, timeoutMs: 0)).last
        let waits = Task {
            try await withThrowingTaskGroup(of: Int.self) { group in
                for _ in 0..<16 {
                    group.addTask { try await core.eventsWait(EventsWaitRequest(after: latest, timeoutMs: 600)).events.count }
                }
                return try await group.reduce(0, +)
            }
        }
        try await Task.sleep(nanoseconds: 100_000_000)  // the waits are in the library now
        let asked = Date()
        let answer = await Task.detached { 6 * 7 }.value
        let took = Date().timeIntervalSince(asked)
        #expect(answer == 42)
        #expect(took < 0.4, "a pool task waited \(took) s behind calls in the library")
        #expect(try await waits.value == 0)
    }
}
