@testable import CarFitCore

/// Random test inputs drawn from the library's `SplitMix64`: reproducible for a seed.
struct TestRandom {
    var generator: SplitMix64
    init(state: UInt64) { generator = SplitMix64(seed: state) }
    mutating func next() -> UInt64 { generator.next() }
    mutating func below(_ n: Int) -> Int { Int(next() % UInt64(max(n, 1))) }
    mutating func chance(_ percent: Int) -> Bool { below(100) < percent }
    mutating func unit() -> Double { Double(next() >> 11) / Double(1 << 53) }
    mutating func pick<T>(_ items: [T]) -> T { items[below(items.count)] }
}
