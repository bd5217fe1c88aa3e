/// The carousel feed: rows of tiles with random but reproducible titles and colours, and the
/// pattern pool's images dealt out round robin.
public struct CarouselFeed: Sendable {
    public static let maxRows = 1000
    public static let maxColumns = 1000

    public var rows: Int
    public var columns: Int
    public var seed: Int64

    public init(rows: Int, columns: Int, seed: Int64) {
        self.rows = min(max(rows, 0), CarouselFeed.maxRows)
        self.columns = min(max(columns, 0), CarouselFeed.maxColumns)
        self.seed = seed
    }

    /// One tile: its id (`r<row>c<column>`), title, colour and image (nil without patterns).
    public struct Tile: Sendable, Equatable {
        public var id: String
        public var title: String
        public var color: String
        public var imageUrl: String?
    }

    /// One row: its index, title and tiles.
    public struct Row: Sendable, Equatable {
        public var index: Int
        public var title: String
        public var tiles: [Tile]
    }

    /// The feed's rows. Tile `k` (row-major, `k = row × columns + column`) shows
    /// `pool[k mod pool.count]`; its colour is that pattern's first colour, else a random one.
    /// A tile's title and random colour depend only on the seed and its position.
    public func rows(pool: [Pattern]) -> [Row] {
        let seedBits = UInt64(bitPattern: seed)
        var out: [Row] = []
        out.reserveCapacity(rows)
        for r in 0..<rows {
            var rowRandom = SplitMix64.stream(seed: seedBits, UInt64(r), 0)
            var tiles: [Tile] = []
            tiles.reserveCapacity(columns)
            for c in 0..<columns {
                var random = SplitMix64.stream(seed: seedBits, UInt64(r), UInt64(c) + 1)
                let title = CarouselFeed.title(&random)
                let randomColor = CarouselFeed.color(&random)
                let pattern = pool.isEmpty ? nil : pool[(r * columns + c) % pool.count]
                tiles.append(Tile(id: "r\(r)c\(c)", title: title, color: pattern?.placeholderColor ?? randomColor,
                                  imageUrl: pattern?.imageUrl))
            }
            out.append(Row(index: r, title: CarouselFeed.title(&rowRandom), tiles: tiles))
        }
        return out
    }

    /// "Adjective Noun" from the fixed word lists.
    static func title(_ random: inout SplitMix64) -> String {
        let adjective = adjectives[random.below(adjectives.count)]
        let noun = nouns[random.below(nouns.count)]
        return adjective + " " + noun
    }

    /// "#RRGGBB" from 24 random bits.
    static func color(_ random: inout SplitMix64) -> String {
        let hex = String(random.next() >> 40, radix: 16, uppercase: true)
        return "#" + String(repeating: "0", count: max(0, 6 - hex.count)) + hex
    }

    static let adjectives = [
        "Amber", "Quiet", "Bright", "Silver", "Golden", "Misty", "Crimson", "Velvet",
        "Hidden", "Gentle", "Wild", "Frosty", "Sunny", "Rustic", "Electric", "Lunar",
        "Coral", "Dusky", "Azure", "Emerald", "Hazy", "Bold", "Calm", "Radiant",
        "Copper", "Indigo", "Scarlet", "Mellow", "Urban", "Vintage", "Tidal", "Woven",
    ]

    static let nouns = [
        "Harbor", "Meadow", "Lantern", "Orchard", "Canyon", "Breeze", "Tiles", "Waves",
        "Garden", "Horizon", "Mosaic", "Prism", "Ribbon", "Summit", "Thicket", "Current",
        "Dunes", "Ember", "Fjord", "Grove", "Lagoon", "Marble", "Nebula", "Pebbles",
        "Quartz", "Reef", "Skyline", "Trellis", "Valley", "Willow", "Zephyr", "Circuit",
    ]
}
