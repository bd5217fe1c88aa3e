import CarFitSystem
import CarFitCore
import CarFitIO
import CarFitNet
import CarFitServices
import CarFitStore
import Foundation
import XCTest

final class ArticlesServiceTests: XCTestCase {
    func testImportStoresTheSnapshotAndTheListReadsItBack() throws {
        let f = try ServiceFixture()
        XCTAssertEqual(try f.importArticles(json: try ServiceFixture.text("articles.json")), .init(imported: 9, rejected: []))
        let list = try f.articles.list()
        XCTAssertEqual(list.articles.count, 9)
        XCTAssertEqual(list.updatedAt?.iso, "2020-09-10T07:00:00Z")
        // Newest first; the source's 25.05.2018 14:13 UTC is 16:13 in Copenhagen, another year.
        let newest = try XCTUnwrap(list.articles.first)
        XCTAssertEqual(newest.published.iso, "2018-05-25T14:13:00Z")
        XCTAssertEqual(ArticleDate.listText(newest.published, clock: f.clock, hour24: true), "25 May 2018, 16:13")
    }

    func testARefusedDocumentOrRefreshKeepsTheStoredArticles() throws {
        let f = try ServiceFixture()
        try f.importArticles(json: try ServiceFixture.text("articles.json"))
        let failed = refusal { () throws(CarFitError) in try f.importArticles(json: #"{"status": "error", "content": []}"#) }
        XCTAssertEqual(failed?.field, "status")
        let refused = refusal { () throws(CarFitError) in
            _ = try f.articles.refresh(url: "http://127.0.0.1:1/articles", http: HTTPClient(timeoutMs: 2000), lock: f)
        }
        XCTAssertEqual(refused?.status, .unavailable)
        XCTAssertEqual(refused?.reason, "refused")
        XCTAssertEqual(try ArticleStore(f.db).all().count, 9)
    }

    /// A document whose every article is rejected is refused with the rejections and keeps
    /// the stored articles and their instant; an empty one is a snapshot.
    func testASnapshotWhoseArticlesWereAllRejectedChangesNothing() throws {
        let f = try ServiceFixture()
        try f.importArticles(json: try ServiceFixture.text("articles.json"))
        f.clock = try Clock(zoneName: "UTC", fixedNow: try XCTUnwrap(Instant(iso: "2020-09-11T07:00:00Z")))
        let failed = refusal { () throws(CarFitError) in try f.importArticles(json: #"{"status": "success", "content": [{"id": 1}]}"#) }
        XCTAssertEqual(failed?.status, .invalid)
        XCTAssertEqual(failed?.field, "content")
        XCTAssertEqual(failed?.message.hasPrefix("The document's only article was rejected (content[0]."), true, failed?.message ?? "")
        guard let rejected = failed?.details.rejected else { return XCTFail("no rejected list") }
        XCTAssertEqual(rejected.count, 1)
        XCTAssertEqual(rejected.first?.index, 0)
        XCTAssertEqual(try ArticleStore(f.db).count(), 9)
        XCTAssertEqual(try ArticleStore(f.db).updatedAt()?.iso, "2020-09-10T07:00:00Z")

        XCTAssertEqual(try f.importArticles(json: #"{"status": "success", "content": []}"#), .init(imported: 0, rejected: []))
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

    /// The sample document with `change` applied to its parsed form, as text.
    private func sample(_ change: (inout [String: Any]) -> Void = { _ in }) throws -> String {
        var document = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(try ServiceFixture.data("articles.json"))) as? [String: Any])
        change(&document)
        return String(decoding: try JSONSerialization.data(withJSONObject: document), as: UTF8.self)
    }

    func testTheListIsNewestFirstWithEachArticlesMembers() throws {
        let f = try ServiceFixture(zone: "UTC")
        XCTAssertEqual(try f.articles.list().articles.count, 0)
        XCTAssertNil(try f.articles.list().updatedAt)
        XCTAssertEqual(try f.importArticles(json: try sample()), .init(imported: 9, rejected: []))
        let (rows, updatedAt) = try f.articles.list()
        XCTAssertEqual(updatedAt?.iso, "2020-09-10T07:00:00Z")
        XCTAssertEqual(rows.map { $0.id.json.encoded() }, ["119302", "119285", "119282", "119300", "119298", "119289", "119287", "119279", "119276"])
        XCTAssertEqual(rows.map(\.published), rows.map(\.published).sorted(by: >))
        XCTAssertEqual(rows[0].published.iso, "2018-05-25T14:13:00Z")
        XCTAssertEqual(rows[0].tags, [])
        XCTAssertEqual(rows[0].content.first?.subject, "Q7")
        XCTAssertEqual(rows[4].content, [])
    }

    func testThePublishedTextFollowsTheYearTheZoneAndTheClockStyle() throws {
        let f = try ServiceFixture(now: "2018-09-01T00:00:00Z", zone: "Europe/Copenhagen", hour24: false)
        try f.importArticles(json: try sample())
        let rows = try f.articles.list().articles
        XCTAssertEqual(ArticleDate.listText(rows[0].published, clock: f.clock, hour24: f.clock.hour24), "25 May, 04:13 PM")
        XCTAssertEqual(ArticleDate.listText(rows[3].published, clock: f.clock, hour24: f.clock.hour24), "29 November 2017, 04:12 PM")
        XCTAssertEqual(ArticleDate.listText(rows[0].published, clock: f.clock, hour24: true), "25 May, 16:13")
    }

    func testInvalidRecordsAreRejectedAndTheRestStored() throws {
        let f = try ServiceFixture(zone: "UTC")
        let document = try sample { document in
            guard var content = document["content"] as? [[String: Any]] else { return }
            content[1]["dateTime"] = "29.02.2019 10:00"       // no such day
            content[2]["dateTime"] = "2017-11-29T15:11:00Z"   // not the source format
            content[3]["content"] = [["type": "text", "subject": 7]]
            content[4]["title"] = nil
            document["content"] = content
        }
        XCTAssertEqual(try f.importArticles(json: document),
                       .init(imported: 5, rejected: ["1 dateTime", "2 dateTime", "3 content[0].subject", "4 title"]))
        XCTAssertEqual(try f.articles.list().articles.count, 5)
    }

    func testASnapshotReplacesTheStoredOneAndEqualDatesKeepItsOrder() throws {
        let f = try ServiceFixture(zone: "UTC")
        try f.importArticles(json: try sample())
        try f.importArticles(json: #"""
            {"status": "success", "content": [{"id": "a", "title": "A", "dateTime": "01.01.2020 10:00"},
                                              {"id": "b", "title": "B", "dateTime": "01.01.2020 10:00"},
                                              {"id": 3, "title": "C", "dateTime": "02.01.2020 10:00", "tags": ["news", {"k": 1}]}]}
            """#)
        let rows = try f.articles.list().articles
        XCTAssertEqual(rows.map { $0.id.json.encoded() }, ["3", #""a""#, #""b""#])
        XCTAssertEqual(rows[0].tags, [.string("news"), .object([.init("k", .int(1))])])
        XCTAssertNil(rows[1].ingress)
        XCTAssertNil(rows[1].imageUrl)
        XCTAssertEqual(rows[1].content, [])
        XCTAssertEqual(ArticleDate.listText(rows[0].published, clock: f.clock, hour24: true), "2 January, 10:00")
    }

    func testADocumentWithoutItsContentIsRefusedAndChangesNothing() throws {
        let f = try ServiceFixture(zone: "UTC")
        try f.importArticles(json: try sample())
        for (document, field) in [("{}", "content"), (#"{"status": "success"}"#, "content"),
                                  (#"{"status": "success", "content": {}}"#, "content"), (#"{"status": "error", "content": []}"#, "status")] {
            let error = refusal { () throws(CarFitError) in try f.importArticles(json: document) }
            XCTAssertEqual(error?.status, .invalid, document)
            XCTAssertEqual(error?.field, field, document)
        }
        XCTAssertEqual(try f.articles.list().articles.count, 9)
        let failed = refusal { () throws(CarFitError) in try f.importArticles(json: #"{"status": "success", "content": [{"id": 1}, 2]}"#) }
        XCTAssertEqual(failed?.field, "content")
        XCTAssertEqual(failed?.message.hasPrefix("All 2 articles of the document were rejected"), true, failed?.message ?? "")
        guard let rejected = failed?.details.rejected else { return XCTFail("no rejected list") }
        XCTAssertEqual(rejected.map(\.index), [0, 1])
        XCTAssertEqual(try f.articles.list().articles.count, 9)
    }

    /// The date text in the core's zone: the year only when it is not the current one there.
    func testTheDateTextByZoneClockAndYear() throws {
        let cases: [(String, String, String, Bool, String)] = [
            ("UTC", "2018-09-01T00:00:00Z", "2018-03-16T12:34:00Z", true, "16 March, 12:34"),
            ("UTC", "2018-09-01T00:00:00Z", "2017-12-20T21:43:00Z", true, "20 December 2017, 21:43"),
            ("UTC", "2018-09-01T00:00:00Z", "2017-12-20T21:43:00Z", false, "20 December 2017, 09:43 PM"),
            ("UTC", "2018-09-01T00:00:00Z", "2018-03-06T00:05:00Z", false, "6 March, 12:05 AM"),
            ("Europe/Copenhagen", "2018-09-01T00:00:00Z", "2017-12-31T23:30:00Z", true, "1 January, 00:30"),
            ("Pacific/Kiritimati", "2020-12-31T12:00:00Z", "2020-12-31T23:30:00Z", true, "1 January, 13:30"),
            ("Pacific/Kiritimati", "2020-12-31T09:00:00Z", "2020-12-31T23:30:00Z", true, "1 January 2021, 13:30"),
            ("Pacific/Pago_Pago", "2021-01-01T05:00:00Z", "2020-12-31T23:30:00Z", true, "31 December, 12:30"),
            ("Pacific/Pago_Pago", "2021-01-01T12:00:00Z", "2020-12-31T23:30:00Z", false, "31 December 2020, 12:30 PM"),
            ("Asia/Kolkata", "2020-06-01T00:00:00Z", "2020-06-01T08:00:00Z", true, "1 June, 13:30"),
        ]
        for (zone, now, date, hour24, text) in cases {
            let f = try ServiceFixture(now: now, zone: zone, hour24: !hour24)
            let instant = try XCTUnwrap(Instant(iso: date))
            XCTAssertEqual(f.articles.formatDate(instant, hour24: hour24), text, "\(zone) \(now) \(date)")
        }
        // Without a style, the core's.
        let twelve = try ServiceFixture(now: "2018-09-01T00:00:00Z", zone: "UTC", hour24: false)
        let instant = try XCTUnwrap(Instant(iso: "2017-12-20T21:43:00Z"))
        XCTAssertEqual(twelve.articles.formatDate(instant, hour24: nil), "20 December 2017, 09:43 PM")
        let twentyFour = try ServiceFixture(now: "2018-09-01T00:00:00Z", zone: "UTC", hour24: true)
        XCTAssertEqual(twentyFour.articles.formatDate(instant, hour24: nil), "20 December 2017, 21:43")
    }
}
