/// SplitMix64 (Steele, Lea, Flood 2014): a tiny, fast PRNG whose sequence is fixed for a seed on
/// every platform and release, which `SystemRandomNumberGenerator` is not.
public struct SplitMix64: RandomNumberGenerator, Sendable {
    public private(set) var state: UInt64

    public init(seed: UInt64) { state = seed }

    public mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// A number in `0..<bound` (0 when `bound` is not positive), by multiply-high.
    public mutating func below(_ bound: Int) -> Int {
        guard bound > 0 else { return 0 }
        return Int(next().multipliedFullWidth(by: UInt64(bound)).high)
    }

    /// An independent generator for one cell `(a, b)` of a seed's grid: the same seed and cell
    /// give the same numbers whatever the grid's size.
    public static func stream(seed: UInt64, _ a: UInt64, _ b: UInt64) -> SplitMix64 {
        var g = SplitMix64(seed: seed ^ ((a &+ 1) &* 0xD1B5_4A32_D192_ED03))
        var h = SplitMix64(seed: g.next() ^ ((b &+ 1) &* 0xC2B2_AE3D_27D4_EB4F))
        return SplitMix64(seed: h.next())
    }
}
