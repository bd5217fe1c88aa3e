import CarFitAPI
import CarFitCore
import CarFitIO
import CarFitServices
import CarFitStore
import XCTest

/// The articles' date text request: its date read, refusals naming it.
final class ArticlesAPITests: XCTestCase {
    func testFormatDateReadsAnInstantAndAnswersItsText() throws {
        let db = try Database(path: ":memory:")
        defer { db.close() }
        let clock = try Clock(zoneName: "Europe/Copenhagen", fixedNow: try XCTUnwrap(Instant(iso: "2020-09-10T07:00:00Z")))
        let service = ArticlesService(articles: ArticleStore(db), clock: clock)
        XCTAssertEqual(try ArticlesAPI.formatDate(service, try CatalogAPITests.parsed(#"{"date": "2020-03-16T11:34:00Z", "hour24": false}"#)),
                       .obj(["text": "16 March, 12:34 PM"]))
        for request in [#"{"date": "16.03.2020"}"#, #"{}"#, #"{"date": 5}"#] {
            do throws(CarFitError) {
                _ = try ArticlesAPI.formatDate(service, try CatalogAPITests.parsed(request))
                XCTFail(request)
            } catch {
                XCTAssertEqual(error.status, .invalid, request)
                XCTAssertEqual(error.field, "date", request)
            }
        }
        XCTAssertEqual(try ArticlesAPI.list(service, try CatalogAPITests.parsed("{}")), .obj(["articles": [], "updatedAt": .null]))
    }
}
