import CarFitCore
import CarFitIO
import CarFitHTTP
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
        let imported = try ServiceFixture.importPatterns(images, json: document)
        XCTAssertEqual(imported.objectValue?["imported"], 12)
        XCTAssertEqual(imported.objectValue?["pool"], 12)
        // The same array again updates the pool in place.
        let again = try ServiceFixture.importPatterns(images, json: document)
        XCTAssertEqual(again.objectValue?["pool"], 12)
        // So does a part of it in the object form.
        let patterns = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(document)) as? [Any])
        let firstThree = try JSONSerialization.data(withJSONObject: ["patterns": Array(patterns.prefix(3))])
        let part = try ServiceFixture.importPatterns(images, json: Array(firstThree))
        XCTAssertEqual(part.objectValue?["imported"], 3)
        XCTAssertEqual(part.objectValue?["rejected"], [])
        XCTAssertEqual(part.objectValue?["pool"], 12)

        let theFeed = try feed(images, rows: 2, columns: 13, seed: 5)
        guard case .array(let rows)? = theFeed.objectValue?["rows"], case .array(let tiles)? = rows.last?.objectValue?["tiles"] else {
            return XCTFail("no tiles")
        }
        XCTAssertEqual(rows.count, 2)
        XCTAssertEqual(tiles.count, 13)
        // Tile k shows pattern k mod 12: the second row's first tile (k = 13) shows pattern 1.
        let urls = try JSONSerialization.jsonObject(with: Data(document)) as? [[String: Any]]
        XCTAssertEqual(tiles.first?.objectValue?["imageUrl"], .string(urls?[1]["imageUrl"] as? String ?? "?"))
    }

    private func importPatterns(_ images: ImagesService, _ text: String) throws(CarFitError) -> JSON {
        try ServiceFixture.importPatterns(images, json: Array(text.utf8))
    }

    /// The feed of `rows` × `columns` over the pool, as its document names the members.
    private func feed(_ images: ImagesService, rows: Int, columns: Int, seed: Int64 = 0) throws(CarFitError) -> JSON {
        let rows = try images.generateCarousel(CarouselFeed(rows: rows, columns: columns, seed: seed))
        return .obj(["rows": .array(rows.map { row in
            .obj(["index": .int(Int64(row.index)), "title": .string(row.title), "tiles": .array(row.tiles.map { tile in
                .obj(["id": .string(tile.id), "title": .string(tile.title), "color": .string(tile.color), "imageUrl": .str(tile.imageUrl)])
            })])
        })])
    }

    private func tiles(_ feed: JSON) -> [JSONObject] {
        guard case .array(let rows)? = feed.objectValue?["rows"] else { return [] }
        return rows.flatMap { row -> [JSONObject] in
            guard case .array(let tiles)? = row.objectValue?["tiles"] else { return [] }
            return tiles.compactMap(\.objectValue)
        }
    }

    func testAnImportKeepsItsValidPatternsAndNamesEachRejection() throws {
        let f = try ServiceFixture()
        let images = try service(f)
        let result = try importPatterns(images, #"""
            [{"imageUrl": "http://img.test/a.png", "title": "A", "colors": ["112233"]},
             {"title": "no image"},
             {"imageUrl": "http://img.test/b.png", "colors": ["nothex"]},
             "not an object"]
            """#)
        XCTAssertEqual(result.objectValue?["imported"], 1)
        XCTAssertEqual(result.objectValue?["pool"], 1)
        guard case .array(let rejected)? = result.objectValue?["rejected"] else { return XCTFail("no rejections") }
        XCTAssertEqual(rejected.map { $0.objectValue?["index"] }, [1, 2, 3])
        XCTAssertEqual(rejected.map { $0.objectValue?["field"] }, ["imageUrl", "colors[0]", .null])
        // An object without a patterns array is refused as a whole; anything but an array or an
        // object is bad_json.
        let refused = refusal { () throws(CarFitError) in _ = try self.importPatterns(images, #"{"data": []}"#) }
        XCTAssertEqual(refused?.status, .invalid)
        XCTAssertEqual(refused?.field, "patterns")
        XCTAssertEqual(refusal { () throws(CarFitError) in _ = try self.importPatterns(images, "7") }?.status, .badJSON)
        // The same image URL again is updated in place: the pool does not grow.
        let again = try importPatterns(images, #"{"patterns": [{"imageUrl": "http://img.test/a.png", "title": "B", "colors": ["445566"]}]}"#)
        XCTAssertEqual(again.objectValue?["pool"], 1)
        let theFeed = try feed(images, rows: 1, columns: 2)
        XCTAssertEqual(tiles(theFeed).map { $0["imageUrl"] }, ["http://img.test/a.png", "http://img.test/a.png"])
        XCTAssertEqual(tiles(theFeed).first?["color"], "#445566")
    }

    func testTheFeedIsDeterministicRoundRobinAndNamesEachTile() throws {
        let f = try ServiceFixture()
        let images = try service(f)
        let document = try ServiceFixture.data("patterns.json")
        try ServiceFixture.importPatterns(images, json: document)
        let patterns = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(document)) as? [[String: Any]])
        let first = try feed(images, rows: 20, columns: 30, seed: 7)
        XCTAssertEqual(try feed(images, rows: 20, columns: 30, seed: 7), first, "the same seed, the same feed")
        XCTAssertNotEqual(try feed(images, rows: 20, columns: 30, seed: 8), first)
        guard case .array(let rows)? = first.objectValue?["rows"] else { return XCTFail("no rows") }
        XCTAssertEqual(rows.map { $0.objectValue?["index"] }, (0..<20).map { JSON.int(Int64($0)) })
        let all = tiles(first)
        XCTAssertEqual(all.count, 600)
        XCTAssertEqual(Set(all.compactMap { $0["id"]?.encoded() }).count, 600)
        XCTAssertEqual(all[3 * 30 + 4]["id"], "r3c4")
        for (k, tile) in all.enumerated() {
            let pattern = patterns[k % patterns.count]
            XCTAssertEqual(tile["imageUrl"], .string(pattern["imageUrl"] as? String ?? "?"), "tile \(k)")
            XCTAssertEqual(tile["color"], .string("#" + ((pattern["colors"] as? [String])?.first ?? "?")), "tile \(k)")
            guard case .string(let title)? = tile["title"] else { return XCTFail("tile \(k) has no title") }
            XCTAssertEqual(title.split(separator: " ").count, 2, title)
        }
    }

    func testAFeedWithoutPatternsHasColoursAndATallOneIsWhole() throws {
        let f = try ServiceFixture()
        let images = try service(f)
        let small = try feed(images, rows: 3, columns: 4)
        for tile in tiles(small) {
            XCTAssertEqual(tile["imageUrl"], .null)
            guard case .string(let color)? = tile["color"] else { return XCTFail("no colour") }
            XCTAssertEqual(color.count, 7)
            XCTAssertTrue(color.hasPrefix("#"))
            XCTAssertNotNil(UInt32(color.dropFirst(), radix: 16), color)
        }
        let big = try feed(images, rows: 1000, columns: 1, seed: -9223372036854775808)
        XCTAssertEqual(tiles(big).count, 1000)
    }

    func testImageFailuresMapToStatuses() throws {
        let f = try ServiceFixture()
        let images = try service(f)
        let notHTTP = refusal { () throws(CarFitError) in _ = try images.load("ftp://x/y.png") }
        XCTAssertEqual(notHTTP?.status, .invalid)
        XCTAssertEqual(notHTTP?.field, "url")
        let refused = refusal { () throws(CarFitError) in _ = try images.load("http://127.0.0.1:1/a.png") }
        XCTAssertEqual(refused?.status, .unavailable)
        XCTAssertEqual(refused?.reason, "refused")
        XCTAssertEqual(refused?.cause, CarFitError.Cause(reason: "refused", isNetwork: true))
        // Both went to the client (the API refuses a URL that is not http or https before).
        XCTAssertEqual(try images.stats().failures, 2)
        XCTAssertEqual(try images.stats().network, 2)
        XCTAssertEqual(try images.stats().memory.count, 0)
        XCTAssertEqual(try images.cancel(["http://127.0.0.1:1/b.png"]), 0)
        images.images.close()
        XCTAssertEqual(refusal { () throws(CarFitError) in _ = try images.stats() }, CarFitError(.misuse, "The core is closed."))
    }

    func testNetworkFailuresMapToStatuses() {
        XCTAssertEqual(CarFitError(HTTPError(.notHTTP, url: "x", message: "m")).field, "url")
        XCTAssertEqual(CarFitError(HTTPError(.timeout, url: "http://a", message: "m")).document.encoded(),
                       #"{"error":{"code":"unavailable","message":"The request timed out: m","reason":"timeout","url":"http://a"}}"#)
        XCTAssertEqual(CarFitError(ImageLoadError.httpStatus(url: "http://a", status: 404)).document.encoded(),
                       #"{"error":{"code":"unavailable","message":"http://a answered with HTTP status 404.","httpStatus":404,"reason":"http_status","url":"http://a"}}"#)
        XCTAssertEqual(CarFitError(ImageDirectoryError(path: "/x", message: "m")), CarFitError(.storage, "m", field: "images.directory"))
    }
}
