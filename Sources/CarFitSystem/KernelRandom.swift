#if canImport(Glibc)
import Glibc
#endif

/// Random bits from the kernel's random source (`getentropy(3)`, glibc's wrapper of the
/// `getrandom(2)` system call), for ids: the generator the layers above hand the domain's
/// `UUIDv4.make` and `Backoff` (which take any `RandomNumberGenerator`; their tests use a seeded
/// one).
public struct KernelRandom: RandomNumberGenerator, Sendable {
    public init() {}

    public mutating func next() -> UInt64 {
        var value: UInt64 = 0
        guard getentropy(&value, MemoryLayout<UInt64>.size) == 0 else {
            // No kernel source (a kernel before 3.17): the standard library's generator.
            var fallback = SystemRandomNumberGenerator()
            return fallback.next()
        }
        return value
    }
}
