@testable import CarFit
import CarFitAPI
import CarFitCore
import CarFitIO
import CarFitServices
import XCTest

/// What a core publishes around its calls: a refresh's `source` event, its in-memory state.
final class CoreEventsTests: XCTestCase {
    private func core() throws -> Core {
        try Core(config: CoreConfig(hour24: true, processors: 1))
    }

    private func events(_ core: Core) throws -> [JSON] {
        guard case .array(let events)? = try core.events.wait(after: 0, timeoutMs: 0).json.objectValue?["events"] else { return [] }
        return events
    }

    private func sourceStatuses(_ core: Core) throws -> [JSON?] {
        try events(core).compactMap(\.objectValue).filter { $0["kind"] == "source" }.map { $0["status"] }
    }

    func testARefreshPublishesHowItEnded() throws {
        let core = try core()
        defer { core.close() }
        func run(_ name: String, maxAge: Int64? = nil,
                 _ attempt: @escaping (RefreshCommit) throws(CarFitError) -> RefreshOutcome<Int>) throws(CarFitError) {
            _ = try core.refresher.run(name, url: "http://127.0.0.1:1/\(name)", maxAge: maxAge, conditional: true) {
                _, _, _, commit throws(CarFitError) in try attempt(commit)
            }
        }
        try run("visits") { commit throws(CarFitError) in
            try commit(nil, nil)
            return .stored(3)
        }
        try run("catalog") { _ throws(CarFitError) in .notModified }
        try run("visits", maxAge: 60) { _ throws(CarFitError) in
            XCTFail("fresh: no request")
            return .notModified
        }
        XCTAssertThrowsError(try run("articles") { _ throws(CarFitError) -> RefreshOutcome<Int> in
            throw CarFitError(.unavailable, "refused")
        })
        XCTAssertThrowsError(try run("catalog") { _ throws(CarFitError) -> RefreshOutcome<Int> in
            throw CarFitError(.invalid, "The request is refused.", field: "maxAgeSeconds")
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
