import CarFitKit
import Foundation
import Testing

/// The library carries its own static Swift runtime; this process loads the toolchain's. Both run
/// at once here, under load: threads of the test's own and tasks calling, both sides allocating,
/// events waited for.
@Suite struct RuntimeTests {
    @Test func twoSwiftRuntimesUnderLoad() async throws {
        let core = try Core(configJSON: dayConfig())
        _ = try await core.visitsImport(try resource("carfit.json", as: VisitsImportRequest.self))
        let stream = core.events()
        let reader = Task { () -> Int in
            var seen = 0
            do { for try await _ in stream { seen += 1 } } catch {}
            return seen
        }
        // 8 threads of the test's own, calling synchronously-waited typed calls and allocating.
        let failures = Counter()
        let threads = (0..<8).map { index in
            Thread {
                let semaphore = DispatchSemaphore(value: 0)
                for round in 0..<50 {
                    var junk: [String] = []
                    for i in 0..<200 { junk.append("\(index)-\(round)-\(i)") }
                    let made = junk.count
                    Task {
                        do {
                            let list = try await core.visitsList(VisitsListRequest(dates: ["2020-09-10"]))
                            if list.days.first?.visits.isEmpty != false || made != 200 { failures.add() }
                            _ = try await core.calendarNext(CalendarNextRequest())
                        } catch {
                            failures.add()
                        }
                        semaphore.signal()
                    }
                    semaphore.wait()
                }
            }
        }
        let done = Counter()
        for thread in threads {
            thread.start()
        }
        // Meanwhile, 200 tasks at once.
        try await withThrowingTaskGroup(of: Void.self) { group in
            for i in 0..<200 {
                group.addTask {
                    let month = try await core.calendarMonth(CalendarMonthRequest(year: 2000 + i % 50, month: 1 + i % 12))
                    if month.days.isEmpty { failures.add() }
                    done.add()
                }
            }
            try await group.waitForAll()
        }
        while threads.contains(where: { !$0.isFinished }) { try await Task.sleep(nanoseconds: 10_000_000) }
        try await Task.sleep(nanoseconds: 300_000_000)
        reader.cancel()
        let seen = await reader.value
        #expect(failures.value == 0)
        #expect(done.value == 200)
        #expect(seen >= 400)  // every calendar change was an event
    }
}

final class Counter: @unchecked Sendable {
    private let lock = NSLock()
    private var count = 0
    var value: Int { lock.lock(); defer { lock.unlock() }; return count }
    func add() { lock.lock(); count += 1; lock.unlock() }
}
