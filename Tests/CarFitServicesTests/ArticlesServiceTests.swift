import CarFitCore
import CarFitIO
import CarFitNet
import CarFitServices
import CarFitStore
import XCTest

final class ArticlesServiceTests: XCTestCase {
    func testImportStoresTheSnapshotAndTheListReadsItBack() throws {
        let f = try ServiceFixture()
        let service = ArticlesService(articles: ArticleStore(f.db), clock: f.clock)
        let document = try ServiceFixture.data("articles.json")
        let response = try service.importArticles(try ArticleSnapshot(document: try document.withUnsafeBytes { bytes throws(CarFitError) in
            try JanssonParser.object(bytes)
        }))
        XCTAssertEqual(response.imported, 9)
        XCTAssertEqual(response.updatedAt.iso, "2020-09-10T07:00:00Z")
        let list = try service.list()
        XCTAssertEqual(list.articles.count, 9)
        XCTAssertEqual(list.updatedAt?.iso, "2020-09-10T07:00:00Z")
        // Newest first; the source's 25.05.2018 14:13 UTC is 16:13 in Copenhagen, another year.
        let newest = try XCTUnwrap(list.articles.first)
        XCTAssertEqual(newest.published.iso, "2018-05-25T14:13:00Z")
        XCTAssertEqual(ArticleDate.listText(newest.published, clock: f.clock, hour24: true), "25 May 2018, 16:13")
    }

    func testARefusedDocumentOrRefreshKeepsTheStoredArticles() throws {
        let f = try ServiceFixture()
        let service = ArticlesService(articles: ArticleStore(f.db), clock: f.clock)
        let document = try ServiceFixture.data("articles.json")
        _ = try service.importArticles(try ArticleSnapshot(document: try document.withUnsafeBytes { bytes throws(CarFitError) in try JanssonParser.object(bytes) }))
        let failed = refusal { () throws(CarFitError) in
            _ = try service.importArticles(try ArticleSnapshot(document: try ServiceFixture.fields(#"{"status": "error", "content": []}"#)))
        }
        XCTAssertEqual(failed?.field, "status")
        let refused = refusal { () throws(CarFitError) in
            _ = try service.refresh(url: "http://127.0.0.1:1/articles", http: HTTPClient(timeoutMs: 2000), lock: f)
        }
        XCTAssertEqual(refused?.status, .unavailable)
        XCTAssertEqual(refused?.extra["reason"], "refused")
        XCTAssertEqual(try ArticleStore(f.db).all().count, 9)
    }

    /// A document whose every article is rejected is refused with the rejections and keeps
    /// the stored articles and their instant; an empty one is a snapshot.
    func testASnapshotWhoseArticlesWereAllRejectedChangesNothing() throws {
        var f = try ServiceFixture()
        let document = try ServiceFixture.data("articles.json")
        _ = try ArticlesService(articles: ArticleStore(f.db), clock: f.clock)
            .importArticles(try ArticleSnapshot(document: try document.withUnsafeBytes { bytes throws(CarFitError) in try JanssonParser.object(bytes) }))
        f.clock = try Clock(zoneName: "UTC", fixedNow: try XCTUnwrap(Instant(iso: "2020-09-11T07:00:00Z")))
        let service = ArticlesService(articles: ArticleStore(f.db), clock: f.clock)
        let failed = refusal { () throws(CarFitError) in
            _ = try service.importArticles(try ArticleSnapshot(document: try ServiceFixture.fields(#"{"status": "success", "content": [{"id": 1}]}"#)))
        }
        XCTAssertEqual(failed?.status, .invalid)
        XCTAssertEqual(failed?.field, "content")
        XCTAssertEqual(failed?.message.hasPrefix("The document's only article was rejected (content[0]."), true, failed?.message ?? "")
        guard case .array(let rejected)? = failed?.extra["rejected"] else { return XCTFail("no rejected list") }
        XCTAssertEqual(rejected.count, 1)
        XCTAssertEqual(rejected.first?.objectValue?["index"], 0)
        XCTAssertEqual(try ArticleStore(f.db).count(), 9)
        XCTAssertEqual(try ArticleStore(f.db).updatedAt()?.iso, "2020-09-10T07:00:00Z")

        let empty = try service.importArticles(try ArticleSnapshot(document: try ServiceFixture.fields(#"{"status": "success", "content": []}"#)))
        XCTAssertEqual(empty.imported, 0)
        XCTAssertEqual(try ArticleStore(f.db).count(), 0)
        XCTAssertEqual(try ArticleStore(f.db).updatedAt()?.iso, "2020-09-11T07:00:00Z")
    }

    func testFormatDate() throws {
        let f = try ServiceFixture()
        let service = ArticlesService(articles: ArticleStore(f.db), clock: f.clock)
        let instant = try XCTUnwrap(Instant(iso: "2020-03-16T11:34:00Z"))
        XCTAssertEqual(service.formatDate(instant, hour24: false), "16 March, 12:34 PM")
        XCTAssertEqual(service.formatDate(instant, hour24: true), "16 March, 12:34")
    }
}
