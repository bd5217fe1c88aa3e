import CarFitCore
import CarFitIO
import CarFitNet
import CarFitServices
import CarFitStore
import Foundation
import XCTest

final class ImagesServiceTests: XCTestCase {
    func service(_ f: ServiceFixture) throws -> ImagesService {
        var images = CoreConfig.Images()
        images.directory = NSTemporaryDirectory() + "carfit-images-test-\(UInt32.random(in: 0...UInt32.max))"
        let pipeline = try ImagePipeline(config: images, http: HTTPClient(timeoutMs: 2000))
        addTeardownBlock {
            pipeline.close()
            try? FileManager.default.removeItem(atPath: images.directory ?? "")
        }
        return ImagesService(patterns: PatternStore(f.db), images: pipeline)
    }

    func testPatternsFeedTheCarousel() throws {
        let f = try ServiceFixture()
        let images = try service(f)
        let document = try ServiceFixture.data("patterns.json")
        let imported = try document.withUnsafeBytes { bytes throws(CarFitError) in try images.importPatterns(bytes) }
        XCTAssertEqual(imported.objectValue?["imported"], 12)
        XCTAssertEqual(imported.objectValue?["pool"], 12)
        // The same array again updates the pool in place.
        let again = try document.withUnsafeBytes { bytes throws(CarFitError) in try images.importPatterns(bytes) }
        XCTAssertEqual(again.objectValue?["pool"], 12)

        let feed = try images.generateCarousel(try ServiceFixture.fields(#"{"rows": 2, "columns": 13, "seed": 5}"#))
        guard case .array(let rows)? = feed.objectValue?["rows"], case .array(let tiles)? = rows.last?.objectValue?["tiles"] else {
            return XCTFail("no tiles")
        }
        XCTAssertEqual(rows.count, 2)
        XCTAssertEqual(tiles.count, 13)
        // Tile k shows pattern k mod 12: the second row's first tile (k = 13) shows pattern 1.
        let urls = try JSONSerialization.jsonObject(with: Data(document)) as? [[String: Any]]
        XCTAssertEqual(tiles.first?.objectValue?["imageUrl"], .string(urls?[1]["imageUrl"] as? String ?? "?"))
    }

    func testImageFailuresMapToStatuses() throws {
        let f = try ServiceFixture()
        let images = try service(f)
        let notHTTP = refusal { () throws(CarFitError) in _ = try images.load(try ServiceFixture.fields(#"{"url": "ftp://x/y.png"}"#)) }
        XCTAssertEqual(notHTTP?.status, .invalid)
        XCTAssertEqual(notHTTP?.field, "url")
        let refused = refusal { () throws(CarFitError) in _ = try images.load(try ServiceFixture.fields(#"{"url": "http://127.0.0.1:1/a.png"}"#)) }
        XCTAssertEqual(refused?.status, .unavailable)
        XCTAssertEqual(refused?.extra["reason"], "refused")
        XCTAssertEqual(try images.stats().objectValue?["requests"]?.objectValue?["failures"], 1)
        images.images.close()
        XCTAssertEqual(refusal { () throws(CarFitError) in _ = try images.stats() }, CarFitError(.misuse, "The core is closed."))
    }

    func testNetworkFailuresMapToStatuses() {
        XCTAssertEqual(CarFitError(HTTPFailure(.notHTTP, url: "x", message: "m")), CarFitError(.invalid, "m", field: "url"))
        XCTAssertEqual(CarFitError(HTTPFailure(.timeout, url: "http://a", message: "m")).document.encoded(),
                       #"{"error":{"code":"unavailable","message":"m","reason":"timeout","url":"http://a"}}"#)
        XCTAssertEqual(CarFitError(ImageLoadError.httpStatus(url: "http://a", status: 404)).document.encoded(),
                       #"{"error":{"code":"unavailable","message":"http://a answered with HTTP status 404.","httpStatus":404,"reason":"http_status","url":"http://a"}}"#)
        XCTAssertEqual(CarFitError(ImageDirectoryError(path: "/x", message: "m")), CarFitError(.storage, "m", field: "images.directory"))
    }
}
