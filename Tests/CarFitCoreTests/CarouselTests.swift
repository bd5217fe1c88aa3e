import XCTest
@testable import CarFitCore
import CarFitIO

/// The carousel feed: the PRNG, the feed's determinism and layout, and pattern colours.
final class CarouselTests: XCTestCase {
    /// The tiles of each row, by member name as the feed's document names them.
    func feed(_ rows: Int, _ columns: Int, seed: Int64, pool: [Pattern] = []) -> [[JSONObject]] {
        CarouselFeed(rows: rows, columns: columns, seed: seed).rows(pool: pool).map { row in
            row.tiles.map { tile in
                JSONObject(["id": .string(tile.id), "title": .string(tile.title), "color": .string(tile.color),
                            "imageUrl": .str(tile.imageUrl)])
            }
        }
    }

    func rowTitles(_ rows: Int, _ columns: Int, seed: Int64) -> [JSON?] {
        CarouselFeed(rows: rows, columns: columns, seed: seed).rows(pool: []).map { .string($0.title) }
    }

    let pool = [
        Pattern(imageUrl: "http://img/1.png", title: "One", colors: ["112233", "445566"]),
        Pattern(imageUrl: "http://img/2.png", title: nil, colors: []),
        Pattern(imageUrl: "http://img/3.png", title: "Three", colors: ["ABCDEF"]),
    ]

    func testSplitMix64ReferenceSequence() {
        var g = CarFitCore.SplitMix64(seed: 0)
        XCTAssertEqual(g.next(), 0xE220_A839_7B1D_CDAF)
        XCTAssertEqual(g.next(), 0x6E78_9E6A_A1B9_65F4)
        XCTAssertEqual(g.next(), 0x06C4_5D18_8009_454F)
        var b = CarFitCore.SplitMix64(seed: 1)
        for _ in 0..<10_000 { XCTAssert((0..<7).contains(b.below(7))) }
        XCTAssertEqual(b.below(0), 0)
    }

    func testSameSeedSameFeed() {
        XCTAssertEqual(CarouselFeed(rows: 20, columns: 30, seed: 7).rows(pool: pool),
                       CarouselFeed(rows: 20, columns: 30, seed: 7).rows(pool: pool))
        XCTAssertNotEqual(feed(5, 5, seed: 7).map { $0.map { $0["title"] } },
                          feed(5, 5, seed: 8).map { $0.map { $0["title"] } })
    }

    /// Pinned values: a change here changes every host's feed for a seed.
    func testKnownTitlesForSeed7() {
        let tiles = feed(2, 3, seed: 7)
        XCTAssertEqual(tiles.first?.first?["title"], "Copper Fjord")
        XCTAssertEqual(tiles.first?.dropFirst().first?["title"], "Golden Ribbon")
        XCTAssertEqual(rowTitles(2, 3, seed: 7), ["Amber Trellis", "Hazy Ribbon"])
    }

    func testTitlesDependOnlyOnSeedAndPosition() {
        let small = feed(2, 3, seed: -99)
        let large = feed(6, 9, seed: -99, pool: pool)
        for r in 0..<2 {
            for c in 0..<3 {
                XCTAssertEqual(small[r][c]["title"], large[r][c]["title"])
                XCTAssertEqual(small[r][c]["id"], large[r][c]["id"])
            }
        }
        XCTAssertEqual(rowTitles(2, 3, seed: -99), Array(rowTitles(6, 9, seed: -99).prefix(2)))
    }

    func testIdsAreUniqueAndColorsAreHex() {
        let tiles = feed(12, 17, seed: Int64.min).flatMap { $0 }
        XCTAssertEqual(tiles.count, 12 * 17)
        let ids = tiles.compactMap { t -> String? in if case .string(let s)? = t["id"] { return s }; return nil }
        XCTAssertEqual(Set(ids).count, tiles.count)
        XCTAssertTrue(ids.contains("r11c16"))
        for tile in tiles {
            guard case .string(let color)? = tile["color"] else { return XCTFail("no color") }
            XCTAssertNotNil(color.wholeMatch(of: /#[0-9A-F]{6}/), color)
            XCTAssertEqual(tile["imageUrl"], .null)
            guard case .string(let title)? = tile["title"] else { return XCTFail("no title") }
            XCTAssertEqual(title.split(separator: " ").count, 2)
        }
        XCTAssertGreaterThan(Set(tiles.compactMap { $0["color"] }.map { "\($0)" }).count, 150, "colours vary")
    }

    func testPoolImagesRoundRobinAndTheirColors() {
        let tiles = feed(3, 4, seed: 1, pool: pool).flatMap { $0 }
        for (k, tile) in tiles.enumerated() {
            let pattern = pool[k % pool.count]
            XCTAssertEqual(tile["imageUrl"], .string(pattern.imageUrl), "tile \(k)")
            if let first = pattern.colors.first {
                XCTAssertEqual(tile["color"], .string("#" + first))
            } else {
                XCTAssertEqual(tile["color"], feed(3, 4, seed: 1)[k / 4][k % 4]["color"], "random colour as without a pool")
            }
        }
        // Titles do not depend on the pool.
        XCTAssertEqual(feed(3, 4, seed: 1, pool: pool).map { $0.map { $0["title"] } },
                       feed(3, 4, seed: 1).map { $0.map { $0["title"] } })
    }


    func testPatternColours() {
        XCTAssertEqual(Pattern.hexColor("3779b1"), "3779B1")
        XCTAssertEqual(Pattern.hexColor("#00ff63"), "00FF63")
        for bad in ["12345G", "#12345", "1234567", "", "##123456"] { XCTAssertNil(Pattern.hexColor(bad), bad) }
        XCTAssertEqual(Pattern(imageUrl: "http://x/1.png", title: nil, colors: ["000000"]).placeholderColor, "#000000")
        XCTAssertNil(Pattern(imageUrl: "http://x/1.png", title: nil, colors: []).placeholderColor)
    }
}
