import CarFitAPI
import CarFitCore
import CarFitIO
import CarFitNet
import XCTest

/// The image requests read from their documents and the statistics written.
final class ImagesAPITests: XCTestCase {
    func testRequestValidation() throws {
        XCTAssertEqual(try ImageURL(Fields(JSONObject(["url": "https://example.com/a.png"]))).url, "https://example.com/a.png")
        for bad: JSON in ["ftp://example.com/a.png", "not a url", "/relative/a.png", "", 5, .null] {
            XCTAssertThrowsError(try ImageURL(Fields(JSONObject(["url": bad])))) { error in
                XCTAssertEqual((error as? CarFitError)?.status, .invalid)
                XCTAssertEqual((error as? CarFitError)?.field, "url")
            }
        }
        let urls = try ImageURLs(Fields(JSONObject(["urls": ["http://h/a", "http://h/b", "http://h/a"]]))).urls
        XCTAssertEqual(urls, ["http://h/a", "http://h/b"])
        XCTAssertThrowsError(try ImageURLs(Fields(JSONObject(["urls": ["http://h/a", "nope"]])))) { error in
            XCTAssertEqual((error as? CarFitError)?.field, "urls[1]")
        }
        XCTAssertThrowsError(try ImageURLs(Fields(JSONObject()))) { error in
            XCTAssertEqual((error as? CarFitError)?.field, "urls")
        }
        XCTAssertEqual(try PrefetchRequest(Fields(JSONObject(["urls": []]))).priority, .normal)
        XCTAssertEqual(try PrefetchRequest(Fields(JSONObject(["urls": ["http://h/a"], "priority": "high"]))).priority, .high)
        XCTAssertThrowsError(try PrefetchRequest(Fields(JSONObject(["urls": [], "priority": "urgent"])))) { error in
            XCTAssertEqual((error as? CarFitError)?.field, "priority")
        }
    }

    func testRequestBounds() throws {
        func request(_ pairs: KeyValuePairs<String, JSON>) -> Fields { Fields(JSONObject(pairs)) }
        let f = try CarouselRequest(request(["rows": 1000, "columns": 1])).feed
        XCTAssertEqual(f.seed, 0)
        for (pairs, field) in [(request(["rows": 0, "columns": 5]), "rows"),
                               (request(["rows": 5, "columns": 1001]), "columns"),
                               (request(["rows": 1001, "columns": 1]), "rows"),
                               (request(["columns": 5]), "rows"),
                               (request(["rows": 5, "columns": 5, "seed": 1.5]), "seed"),
                               (request(["rows": 5, "columns": 5, "seed": "7"]), "seed")] {
            XCTAssertThrowsError(try CarouselRequest(pairs)) { error in
                XCTAssertEqual((error as? CarFitError)?.status, .invalid)
                XCTAssertEqual((error as? CarFitError)?.field, field)
            }
        }
    }

    func testARowsDocument() {
        let row = CarouselFeed(rows: 1, columns: 2, seed: 3).rows(pool: [Pattern(imageUrl: "http://img/1.png", title: "One", colors: ["112233"])])[0]
        guard case .object(let doc) = row.json, case .array(let tiles)? = doc["tiles"] else { return XCTFail("no tiles") }
        XCTAssertEqual(doc["index"], 0)
        XCTAssertEqual(doc["title"], .string(row.title))
        XCTAssertEqual(tiles.first?.objectValue?.keys, ["id", "title", "color", "imageUrl"])
        XCTAssertEqual(tiles.first?.objectValue?["color"], "#112233")
        XCTAssertEqual(tiles.last?.objectValue?["id"], "r0c1")
    }

    func testStatsDocument() {
        let level = ImagePipeline.Stats.Level(count: 1, bytes: 2, limit: 3)
        XCTAssertEqual(level.json.encoded(), #"{"count":1,"bytes":2,"limit":3}"#)
    }
}
