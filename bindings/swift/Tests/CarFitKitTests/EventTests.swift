@testable import CarFitKit
import Foundation
import Testing

@Suite struct EventTests {
    /// The stream starts after the events already published and delivers the next change.
    @Test func startsAfterThePublishedEvents() async throws {
        let core = try Core(configJSON: dayConfig())
        _ = try await core.visitsImport(try resource("carfit.json", as: VisitsImportRequest.self))
        let published = try await core.eventsWait(EventsWaitRequest(after: 0, timeoutMs: 0)).last
        #expect(published >= 1)
        let stream = core.events(areas: ["employees"])
        _ = try await core.calendarNext(CalendarNextRequest())  // "calendar": filtered out
        _ = try await core.employeesCreate(EmployeesCreateRequest(pin: "1234", firstName: "A", lastName: "B"))
        var iterator = stream.makeAsyncIterator()
        let event = try await iterator.next()
        #expect(event?.kind == "changed")
        #expect(event?.areas?.contains("employees") == true)
        #expect((event?.seq ?? 0) > published)
    }

    /// Cancelling the iterating task ends the stream within a second.
    @Test func cancellingEndsTheStreamWithinASecond() async throws {
        let core = try Core(configJSON: dayConfig())
        let stream = core.events()
        let reader = Task { () -> Int in
            var seen = 0
            do { for try await _ in stream { seen += 1 } } catch {}
            return seen
        }
        try await Task.sleep(nanoseconds: 300_000_000)
        let cancelled = Date()
        reader.cancel()
        let seen = await reader.value
        #expect(Date().timeIntervalSince(cancelled) < 1.0)
        #expect(seen == 0)
    }

    /// A reader that fell behind the kept events gets a gap event.
    @Test func aGapArrivesAsAnEvent() async throws {
        let core = try Core(configJSON: dayConfig())
        for _ in 0..<1100 { _ = try await core.calendarNext(CalendarNextRequest()) }
        let answer = try await core.eventsWait(EventsWaitRequest(after: 1, timeoutMs: 0))
        #expect(answer.events.first?.kind == "gap")
    }

    /// With areas, a stream passes the changes naming one of them or "all", and every gap.
    @Test func theAreaFilter() {
        let areas: Set<String> = ["visits"]
        #expect(Core.passes(Event(seq: 1, kind: "gap"), areas))
        #expect(Core.passes(Event(seq: 2, kind: "changed", areas: ["calendar", "visits"]), areas))
        #expect(Core.passes(Event(seq: 3, kind: "changed", areas: ["all"], external: true), areas))
        #expect(!Core.passes(Event(seq: 4, kind: "changed", areas: ["calendar"]), areas))
        #expect(!Core.passes(Event(seq: 5, kind: "source", source: "visits", status: "ok"), areas))
        #expect(Core.passes(Event(seq: 6, kind: "source", source: "visits", status: "ok"), nil))
    }
}
