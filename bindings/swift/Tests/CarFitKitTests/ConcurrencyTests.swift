import CarFitKit
import Foundation
import Testing

@Suite struct ConcurrencyTests {
    /// 100 calls at once from 100 tasks, each answered correctly.
    @Test func hundredConcurrentCalls() async throws {
        let core = try Core(configJSON: dayConfig())
        _ = try await core.visitsImport(try resource("visits.json", as: VisitsImportRequest.self))
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

    /// A call that waits in the library (an event wait) does not hold the caller's thread: the
    /// main actor keeps running meanwhile.
    @MainActor @Test func aWaitingCallBlocksNoCallerThread() async throws {
        let core = try Core(configJSON: dayConfig())
        let started = Date()
        async let waited = core.eventsWait(EventsWaitRequest(after: 1_000_000, timeoutMs: 0))
        var ticks = 0
        for _ in 0..<5 {
            ticks += 1
            await Task.yield()
        }
        _ = try await core.call("events.wait", "{\"after\": 0, \"timeoutMs\": 300}")
        _ = try await waited
        #expect(ticks == 5)
        #expect(Date().timeIntervalSince(started) < 5)
    }
}
