import CarFitSystem
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
        // An instant without an offset is UTC; an offset is applied.
        XCTAssertEqual(try ArticlesAPI.formatDate(service, try CatalogAPITests.parsed(#"{"date": "2020-03-06T00:05:00", "hour24": true}"#)),
                       .obj(["text": "6 March, 01:05"]))
        XCTAssertEqual(try ArticlesAPI.formatDate(service, try CatalogAPITests.parsed(#"{"date": "2020-06-01T10:00:00+02:00", "hour24": true}"#)),
                       .obj(["text": "1 June, 10:00"]))
        for request in [#"{"date": "16.03.2020"}"#, #"{}"#, #"{"date": 5}"#, #"{"date": null}"#, #"{"date": 1527257580}"#,
                        #"{"date": "25.05.2018 14:13"}"#, #"{"date": "2018-02-30T10:00:00Z"}"#, #"{"date": "2018-05-25T24:00:00Z"}"#,
                        #"{"date": "yesterday"}"#, #"{"date": ""}"#] {
            do throws(CarFitError) {
                _ = try ArticlesAPI.formatDate(service, try CatalogAPITests.parsed(request))
                XCTFail(request)
            } catch {
                XCTAssertEqual(error.status, .invalid, request)
                XCTAssertEqual(error.field, "date", request)
            }
        }
        do throws(CarFitError) {
            _ = try ArticlesAPI.formatDate(service, try CatalogAPITests.parsed(#"{"date": "2020-03-16T11:34:00Z", "hour24": "yes"}"#))
            XCTFail("hour24 \"yes\" was read")
        } catch {
            XCTAssertEqual(error.status, .invalid)
            XCTAssertEqual(error.field, "hour24")
        }
        XCTAssertEqual(try ArticlesAPI.list(service, try CatalogAPITests.parsed("{}")), .obj(["articles": [], "updatedAt": .null]))
    }

    /// The list's published texts in the core's zone, in the core's clock style unless the request names one.
    func testTheListWritesEachPublishedTextInTheRequestsOrTheCoresStyle() throws {
        let db = try Database(path: ":memory:")
        defer { db.close() }
        let clock = try Clock(zoneName: "Europe/Copenhagen", fixedNow: try XCTUnwrap(Instant(iso: "2020-09-10T07:00:00Z")), hour24: false)
        let published = try XCTUnwrap(Instant(iso: "2018-05-25T14:13:00Z"))
        try ArticleStore(db).replaceAll(with: [Article(id: .int(7), title: "Q7", ingress: nil, imageUrl: nil, published: published,
                                                       tags: [.string("news")], content: [])], updatedAt: clock.now)
        let service = ArticlesService(articles: ArticleStore(db), clock: clock)
        let twelve = try ArticlesAPI.list(service, try CatalogAPITests.parsed("{}"))
        XCTAssertEqual(twelve.encoded(),
                       #"{"articles":[{"id":7,"title":"Q7","ingress":null,"imageUrl":null,"dateTime":"2018-05-25T14:13:00Z","published":"25 May 2018, 04:13 PM","tags":["news"],"content":[]}],"updatedAt":"2020-09-10T07:00:00Z"}"#)
        let twentyFour = try ArticlesAPI.list(service, try CatalogAPITests.parsed(#"{"hour24": true}"#))
        guard case .array(let items)? = twentyFour.objectValue?["articles"] else { return XCTFail("no articles") }
        XCTAssertEqual(items.first?.objectValue?["published"], "25 May 2018, 16:13")
    }
}
