#if canImport(Glibc)
import Glibc
#endif

/// Random bits from the kernel's random source (`getentropy(3)`, glibc's wrapper of the
/// `getrandom(2)` system call), for ids: `UUIDv4.make`'s generator in the core.
public struct KernelRandom: RandomNumberGenerator, Sendable {
    public init() {}

    public mutating func next() -> UInt64 {
        var value: UInt64 = 0
        let status = withUnsafeMutableBytes(of: &value) { buffer -> Int32 in
            guard let base = buffer.baseAddress else { return -1 }
            return getentropy(base, 8)
        }
        guard status == 0 else {
            // No kernel source (a kernel before 3.17): the standard library's generator.
            var fallback = SystemRandomNumberGenerator()
            return fallback.next()
        }
        return value
    }
}
