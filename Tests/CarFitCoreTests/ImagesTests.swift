import XCTest
@testable import CarFitCore

/// The image pipeline's pure parts: the byte-bounded LRU, magic-byte sniffing, the prefetch
/// queue's order, request validation and the disk cache's file names.
final class ImagesTests: XCTestCase {
    // MARK: LRU

    func testLRUEvictsLeastRecentlyUsedToStayWithinLimit() {
        var cache = LRUCache<String, Int>(limit: 10)
        XCTAssertTrue(cache.insert("a", 1, cost: 4).stored)
        XCTAssertTrue(cache.insert("b", 2, cost: 4).stored)
        XCTAssertEqual(cache.value(for: "a"), 1)  // a is now the most recent
        let (stored, evicted) = cache.insert("c", 3, cost: 4)
        XCTAssertTrue(stored)
        XCTAssertEqual(evicted.map(\.key), ["b"])
        XCTAssertEqual(cache.keysByRecency, ["c", "a"])
        XCTAssertEqual(cache.totalCost, 8)
        XCTAssertEqual(cache.count, 2)
        XCTAssertNil(cache.peek("b"))
    }

    func testLRUEvictsSeveralForOneLargeEntry() {
        var cache = LRUCache<String, Int>(limit: 10)
        for (i, key) in ["a", "b", "c", "d", "e"].enumerated() { cache.insert(key, i, cost: 2) }
        XCTAssertEqual(cache.totalCost, 10)
        let evicted = cache.insert("big", 9, cost: 7).evicted.map(\.key)
        XCTAssertEqual(evicted, ["a", "b", "c", "d"])
        XCTAssertEqual(cache.keysByRecency, ["big", "e"])
        XCTAssertEqual(cache.totalCost, 9)
    }

    func testLRURefusesEntryLargerThanLimitAndDropsOldValue() {
        var cache = LRUCache<String, Int>(limit: 10)
        cache.insert("a", 1, cost: 5)
        cache.insert("b", 2, cost: 5)
        let result = cache.insert("a", 3, cost: 11)
        XCTAssertFalse(result.stored)
        XCTAssertTrue(result.evicted.isEmpty)
        XCTAssertNil(cache.peek("a"), "a stale value must not outlive a refused replacement")
        XCTAssertEqual(cache.keysByRecency, ["b"])
        XCTAssertEqual(cache.totalCost, 5)
        XCTAssertFalse(cache.insert("neg", 0, cost: -1).stored)
    }

    func testLRUReplacingAKeyUpdatesCostAndOrder() {
        var cache = LRUCache<String, Int>(limit: 10)
        cache.insert("a", 1, cost: 3)
        cache.insert("b", 2, cost: 3)
        cache.insert("a", 10, cost: 6)
        XCTAssertEqual(cache.keysByRecency, ["a", "b"])
        XCTAssertEqual(cache.totalCost, 9)
        XCTAssertEqual(cache.peek("a"), 10)
        XCTAssertEqual(cache.remove("b"), 2)
        XCTAssertEqual(cache.totalCost, 6)
        XCTAssertNil(cache.remove("b"))
    }

    func testLRUWithZeroLimitStoresNothingButZeroCost() {
        var cache = LRUCache<String, Int>(limit: 0)
        XCTAssertFalse(cache.insert("a", 1, cost: 1).stored)
        XCTAssertEqual(cache.count, 0)
        XCTAssertEqual(LRUCache<String, Int>(limit: -5).limit, 0)
    }

    func testLRUPeekAndContainsDoNotChangeOrder() {
        var cache = LRUCache<String, Int>(limit: 100)
        cache.insert("a", 1, cost: 1)
        cache.insert("b", 2, cost: 1)
        XCTAssertEqual(cache.peek("a"), 1)
        XCTAssertTrue(cache.contains("a"))
        XCTAssertEqual(cache.removeOldest()?.0, "a")
        XCTAssertEqual(cache.keysByRecency, ["b"])
    }

    /// A random workload against a simple model: same contents, same order, never over the limit.
    func testLRUMatchesAModelUnderRandomOperations() {
        var random = CarFitCore.SplitMix64(seed: 42)
        var cache = LRUCache<Int, Int>(limit: 50)
        var model: [(key: Int, cost: Int64)] = []  // most recent first
        for step in 0..<20_000 {
            let key = random.below(30)
            switch random.below(4) {
            case 0, 1:
                let cost = Int64(random.below(20))
                cache.insert(key, step, cost: cost)
                model.removeAll { $0.key == key }
                if cost <= 50 {
                    model.insert((key, cost), at: 0)
                    while model.reduce(0, { $0 + $1.cost }) > 50 { model.removeLast() }
                }
            case 2:
                let hit = cache.value(for: key) != nil
                XCTAssertEqual(hit, model.contains { $0.key == key })
                if let i = model.firstIndex(where: { $0.key == key }) { model.insert(model.remove(at: i), at: 0) }
            default:
                cache.remove(key)
                model.removeAll { $0.key == key }
            }
            XCTAssertLessThanOrEqual(cache.totalCost, 50)
            XCTAssertEqual(cache.totalCost, model.reduce(0) { $0 + $1.cost })
            if step % 97 == 0 { XCTAssertEqual(cache.keysByRecency, model.map(\.key)) }
        }
    }

    // MARK: Magic bytes

    func testSniffsTheFourFormats() {
        let png: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0, 0, 0, 13]
        let jpeg: [UInt8] = [0xFF, 0xD8, 0xFF, 0xE0, 0, 16] + Array("JFIF".utf8)
        let gif87 = Array("GIF87a".utf8) + [1, 0, 1, 0]
        let gif89 = Array("GIF89a".utf8) + [1, 0, 1, 0]
        let webp = Array("RIFF".utf8) + [26, 0, 0, 0] + Array("WEBPVP8L".utf8)
        XCTAssertEqual(ImageFormat(sniffing: png), .png)
        XCTAssertEqual(ImageFormat(sniffing: jpeg), .jpeg)
        XCTAssertEqual(ImageFormat(sniffing: gif87), .gif)
        XCTAssertEqual(ImageFormat(sniffing: gif89), .gif)
        XCTAssertEqual(ImageFormat(sniffing: webp), .webp)
        XCTAssertEqual(ImageFormat.png.contentType, "image/png")
        XCTAssertEqual(ImageFormat.jpeg.contentType, "image/jpeg")
        XCTAssertEqual(ImageFormat.gif.contentType, "image/gif")
        XCTAssertEqual(ImageFormat.webp.contentType, "image/webp")
    }

    func testRejectsWhatIsNotAnImage() {
        let cases: [[UInt8]] = [
            [],
            Array("<html><body>Not found</body></html>".utf8),
            Array("{\"error\": 1}".utf8),
            [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A],  // PNG signature cut short
            [0xFF, 0xD8],                                // JPEG cut short
            Array("GIF88a".utf8),
            Array("RIFF".utf8) + [0, 0, 0, 0] + Array("WAVE".utf8),  // a RIFF that is not WebP
            Array("RIFF".utf8) + [0, 0, 0, 0] + Array("WEB".utf8),
        ]
        for bytes in cases { XCTAssertNil(ImageFormat(sniffing: bytes), "\(bytes)") }
    }

    func testSniffsSlicesToo() {
        let bytes: [UInt8] = [0, 0, 0xFF, 0xD8, 0xFF, 0xDB]
        XCTAssertEqual(ImageFormat(sniffing: bytes[2...]), .jpeg)
        XCTAssertNil(ImageFormat(sniffing: bytes[...]))
    }

    // MARK: Prefetch queue

    func testQueueOrdersByPriorityThenArrival() {
        var queue = PrefetchQueue()
        queue.push("l1", priority: .low)
        queue.push("n1", priority: .normal)
        queue.push("h1", priority: .high)
        queue.push("l2", priority: .low)
        queue.push("h2", priority: .high)
        queue.push("n2", priority: .normal)
        XCTAssertEqual(queue.count, 6)
        var order: [String] = []
        while let url = queue.pop() { order.append(url) }
        XCTAssertEqual(order, ["h1", "h2", "n1", "n2", "l1", "l2"])
        XCTAssertTrue(queue.isEmpty)
    }

    func testQueueRaisesButNeverLowersAPriority() {
        var queue = PrefetchQueue()
        queue.push("a", priority: .normal)
        queue.push("b", priority: .normal)
        queue.push("a", priority: .low)      // stays normal, keeps its place
        XCTAssertEqual(queue.priority(of: "a"), .normal)
        queue.push("c", priority: .high)
        queue.push("b", priority: .high)     // moves behind c
        XCTAssertEqual(queue.count, 3)
        XCTAssertEqual([queue.pop(), queue.pop(), queue.pop(), queue.pop()], ["c", "b", "a", nil])
    }

    func testQueueRemovalAndRequeue() {
        var queue = PrefetchQueue()
        for url in ["a", "b", "c"] { queue.push(url, priority: .normal) }
        XCTAssertTrue(queue.remove("a"))
        XCTAssertFalse(queue.remove("a"))
        XCTAssertFalse(queue.remove("zzz"))
        queue.push("a", priority: .normal)   // back at the end, not at its old place
        XCTAssertEqual([queue.pop(), queue.pop(), queue.pop(), queue.pop()], ["b", "c", "a", nil])
        queue.push("x", priority: .low)
        queue.removeAll()
        XCTAssertNil(queue.pop())
        XCTAssertFalse(queue.contains("x"))
    }

    func testQueueStaysInOrderOverManyItems() {
        var queue = PrefetchQueue()
        for i in 0..<1000 { queue.push("u\(i)", priority: i % 2 == 0 ? .low : .high) }
        for i in stride(from: 0, to: 1000, by: 4) { queue.remove("u\(i)") }
        var order: [String] = []
        while let url = queue.pop() { order.append(url) }
        let expected = (0..<1000).filter { $0 % 2 == 1 }.map { "u\($0)" }
            + (0..<1000).filter { $0 % 2 == 0 && $0 % 4 != 0 }.map { "u\($0)" }
        XCTAssertEqual(order, expected)
    }

    // MARK: Requests and file names

    func testOnlyAbsoluteHTTPURLsAreImageURLs() {
        XCTAssertTrue(ImageRequest.isHTTPURL("https://example.com/a.png"))
        for bad in ["ftp://example.com/a.png", "not a url", "/relative/a.png", "", "http://" + String(repeating: "a", count: 8192)] {
            XCTAssertFalse(ImageRequest.isHTTPURL(bad), bad)
        }
    }

    func testFileNamesAreFNV1a64Hex() {
        XCTAssertEqual(ImageRequest.fnv1a64(""), 0xcbf2_9ce4_8422_2325)
        XCTAssertEqual(ImageRequest.fnv1a64("a"), 0xaf63_dc4c_8601_ec8c)
        XCTAssertEqual(ImageRequest.fnv1a64("foobar"), 0x8594_4171_f739_67e8)
        XCTAssertEqual(ImageRequest.fileName(for: "a"), "af63dc4c8601ec8c.img")
        let name = ImageRequest.fileName(for: "http://example.com/x.png")
        XCTAssertEqual(name.count, 20)
        XCTAssertNotEqual(name, ImageRequest.fileName(for: "http://example.com/y.png"))
    }
}
