@testable import CarFit
import CarFitCore
import XCTest

/// What a core publishes around its calls: a refresh's `source` event, its in-memory state.
final class CoreEventsTests: XCTestCase {
    private func core() throws -> Core {
        try Core(config: CoreConfig(hour24: true, processors: 1))
    }

    private func events(_ core: Core) throws -> [JSON] {
        guard case .array(let events)? = try core.events.wait(after: 0, timeoutMs: 0).objectValue?["events"] else { return [] }
        return events
    }

    private func sourceStatuses(_ core: Core) throws -> [JSON?] {
        try events(core).compactMap(\.objectValue).filter { $0["kind"] == "source" }.map { $0["status"] }
    }

    func testARefreshPublishesHowItEnded() throws {
        let core = try core()
        defer { core.close() }
        _ = try core.refreshing("visits") { () throws(CarFitError) in .obj(["imported": 3]) }
        _ = try core.refreshing("catalog") { () throws(CarFitError) in .obj(["imported": 0, "notModified": true]) }
        _ = try core.refreshing("articles") { () throws(CarFitError) in .obj(["imported": 0, "fresh": true]) }
        XCTAssertThrowsError(try core.refreshing("articles") { () throws(CarFitError) -> JSON in
            throw CarFitError(.unavailable, "refused")
        })
        XCTAssertThrowsError(try core.refreshing("catalog") { () throws(CarFitError) -> JSON in
            throw CarFitError(.invalid, "No catalog source is configured.", field: "sources.catalog")
        })
        XCTAssertEqual(try sourceStatuses(core), ["ok", "not_modified", "failed"],
                       "no event when no request was made, nor for a request refused before the network")
        let sources = try events(core).compactMap { $0.objectValue?["source"] }
        XCTAssertEqual(sources, ["visits", "catalog", "articles"])
    }

    func testALoginAndACalendarMoveArePublished() throws {
        let core = try core()
        defer { core.close() }
        try core.serialized { () throws(CarFitError) in core.session.employeeId = 7 }
        try core.serialized { () throws(CarFitError) in core.calendarState.next() }
        try core.serialized { () throws(CarFitError) in core.session.employeeId = 7 } // no change
        let areas = try events(core).map { $0.objectValue?["areas"] }
        XCTAssertEqual(areas, [.array(["session"]), .array(["calendar"])])
    }

    func testAProgressReporterPublishesTheCompleteCountLast() throws {
        let core = try core()
        defer { core.close() }
        XCTAssertNil(core.progress("visits.import", total: 1 << 20), "1 MiB is not reported")
        let reporter = try XCTUnwrap(core.progress("visits.import", total: 2 << 20))
        reporter.advance(to: 5)
        reporter.advance(to: 6) // within 100 ms of the last: skipped
        reporter.advance(to: 3 << 20) // past the total: not yet complete
        reporter.finish()
        reporter.finish()
        let done = try events(core).compactMap { $0.objectValue?["done"] }
        XCTAssertEqual(done.first, .int(5))
        XCTAssertEqual(done.last, .int(2 << 20))
        XCTAssertEqual(done.filter { $0 == .int(2 << 20) }.count, 1)
        XCTAssertFalse(done.contains(.int(6)))
    }
}
