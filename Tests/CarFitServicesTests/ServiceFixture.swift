import CarFitAPI
import CarFitCore
import CarFitIO
import CarFitServices
import CarFitStore
import Foundation
import XCTest

/// The use-cases' dependencies on an in-memory database with a fixed clock, as a core wires
/// them, without the C boundary.
final class ServiceFixture: Serializer {
    let db: Database
    var clock: Clock
    let session = Session()
    let documents = DocumentCache()
    var calendar: CalendarState
    /// Times the lock was taken by a use-case that takes it itself.
    private(set) var lockCount = 0

    init(now: String = "2020-09-10T07:00:00Z", zone: String = "Europe/Copenhagen") throws {
        db = try Database(path: ":memory:")
        clock = try Clock(zoneName: zone, fixedNow: try XCTUnwrap(Instant(iso: now)))
        calendar = CalendarState(today: try XCTUnwrap(clock.today))
    }

    func locked<Result>(_ body: () throws(CarFitError) -> Result) throws(CarFitError) -> Result {
        lockCount += 1
        return try body()
    }

    var visits: VisitsService { VisitsService(db: db, clock: clock, importThreads: 2) }
    var calendarService: CalendarService {
        CalendarService(db: db, visits: VisitStore(db), clock: clock, firstWeekday: .monday, documents: documents)
    }
    var employees: EmployeesService { EmployeesService(db: db, clock: clock, session: session) }
    var catalog: CatalogService { CatalogService(db: db, clock: clock, session: session, documents: documents) }

    /// A file of examples/data, the project's sample documents.
    static func data(_ name: String) throws -> [UInt8] {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
        return Array(try Data(contentsOf: root.appendingPathComponent("examples/data/\(name)")))
    }

    static func fields(_ text: String) throws(CarFitError) -> Fields {
        let result = Array(text.utf8).withUnsafeBytes { bytes in
            Result { () throws(CarFitError) in try JanssonParser.object(bytes) }
        }
        return try result.get()
    }
}

extension ServiceFixture {
    // The visits operations as the host calls them (through `VisitsAPI`), for the tests of
    // other areas that need stored visits, a changed card or a day's cards.

    /// The visits document `text` imported as a `visits.import` request: its bytes, streamed.
    @discardableResult
    func importVisits(_ text: String) throws(CarFitError) -> JSON {
        let visits = visits
        let result = Array(text.utf8).withUnsafeBytes { bytes in
            Result { () throws(CarFitError) in try VisitsAPI.importVisits(visits, bytes) }
        }
        return try result.get()
    }

    /// `visits.list` of the request `text`, without a calendar selection.
    func list(_ text: String) throws(CarFitError) -> JSONBuffer {
        try VisitsAPI.list(visits, try ServiceFixture.fields(text), selected: [])
    }

    /// `visits.set_state` of the request `text`: `{"visit": card}`.
    func setState(_ text: String) throws(CarFitError) -> JSONBuffer {
        try VisitsAPI.setState(visits, try ServiceFixture.fields(text))
    }

    /// `visits.plan` of the request `text`.
    func plan(_ text: String) throws(CarFitError) -> JSON {
        try VisitsAPI.plan(visits, try ServiceFixture.fields(text))
    }
}

/// Runs `body` and returns the `CarFitError` it throws (fails the test when it throws none).
func refusal(_ body: () throws(CarFitError) -> Void, file: StaticString = #filePath, line: UInt = #line) -> CarFitError? {
    do throws(CarFitError) {
        try body()
        XCTFail("expected a refusal", file: file, line: line)
        return nil
    } catch {
        return error
    }
}
