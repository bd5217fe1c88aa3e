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

    func testStatsDocument() {
        let level = ImagePipeline.Stats.Level(count: 1, bytes: 2, limit: 3)
        XCTAssertEqual(level.json.encoded(), #"{"count":1,"bytes":2,"limit":3}"#)
    }
}
