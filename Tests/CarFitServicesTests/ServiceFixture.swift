import CarFitSystem
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

    init(now: String = "2020-09-10T07:00:00Z", zone: String = "Europe/Copenhagen", hour24: Bool = true) throws {
        db = try Database(path: ":memory:")
        clock = try Clock(zoneName: zone, fixedNow: try XCTUnwrap(Instant(iso: now)), hour24: hour24)
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
    var transactions: TransactionsService { TransactionsService(transactions: TransactionStore(db)) }
    var articles: ArticlesService { ArticlesService(articles: ArticleStore(db), clock: clock) }

    // MARK: - Imports from documents
    //
    // Every test that needs a back end's document goes through one of these, one per area, so a
    // change of an import's entry point is mended here.

    /// What an import kept and what it rejected, each rejection as "index field" ("3 -" without a field).
    struct Imported: Equatable {
        var imported: Int
        var rejected: [String]
    }

    static func rejections(_ rejected: [Rejection]) -> [String] { rejected.map { "\($0.index) \($0.field ?? "-")" } }

    /// Imports a catalog document (either shape) into the catalog.
    @discardableResult
    func importCatalog(json text: String) throws(CarFitError) -> Imported {
        let batch = try CatalogImport(document: try ServiceFixture.fields(text))
        try catalog.importCatalog(batch)
        return Imported(imported: batch.accepted.count, rejected: ServiceFixture.rejections(batch.rejected))
    }

    /// Imports a transactions document.
    @discardableResult
    func importTransactions(json text: String) throws(CarFitError) -> Imported {
        let batch = try TransactionBatch(document: try ServiceFixture.fields(text))
        try transactions.importTransactions(batch)
        return Imported(imported: batch.records.count, rejected: ServiceFixture.rejections(batch.rejected))
    }

    /// Imports an articles document (a snapshot).
    @discardableResult
    func importArticles(json text: String) throws(CarFitError) -> Imported {
        let answer = try articles.importArticles(try ArticleSnapshot(document: try ServiceFixture.fields(text)))
        return Imported(imported: answer.imported, rejected: ServiceFixture.rejections(answer.rejected))
    }

    /// Imports a patterns document (a bare array or `{"patterns": [...]}`) into `images`' pool;
    /// answers the import's document.
    @discardableResult
    static func importPatterns(_ images: ImagesService, json bytes: [UInt8]) throws(CarFitError) -> JSON {
        let read = bytes.withUnsafeBytes { raw in Result { () throws(CarFitError) in try PatternImport(request: raw) } }
        let answer = try images.importPatterns(try read.get())
        return .obj(["imported": .int(answer.imported), "pool": .int(answer.pool), "rejected": .array(answer.rejected.map { r in
            .obj(["index": .int(r.index), "field": .str(r.field), "message": .string(r.message)])
        })])
    }

    /// A file of examples/data as text.
    static func text(_ name: String) throws -> String {
        String(decoding: try data(name), as: UTF8.self)
    }

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
