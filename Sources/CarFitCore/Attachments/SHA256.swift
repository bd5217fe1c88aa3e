/// SHA-256 (FIPS 180-4), fed in chunks of any size: an attachment's digest is computed while
/// its file is copied, never over the whole file in memory.
///
///     var hash = SHA256()
///     hash.update(chunk.span)
///     let hex = hash.finish()   // lowercase hex
public struct SHA256: Sendable {
    private var h: InlineArray<8, UInt32> = [
        0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a, 0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19,
    ]
    private var block: InlineArray<64, UInt8> = .init(repeating: 0)
    private var filled = 0
    private var length: UInt64 = 0

    public init() {}

    private static let k: InlineArray<64, UInt32> = [
        0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5,
        0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174,
        0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da,
        0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7, 0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967,
        0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13, 0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85,
        0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070,
        0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3,
        0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2,
    ]

    /// Adds `bytes` to the message.
    public mutating func update(_ bytes: Span<UInt8>) {
        length &+= UInt64(bytes.count)
        var i = 0
        let n = bytes.count
        if filled > 0 {
            while filled < 64 && i < n {
                block[filled] = bytes[i]
                filled += 1
                i += 1
            }
            guard filled == 64 else { return }
            let copy = block
            compress(copy.span, at: 0)
            filled = 0
        }
        while n - i >= 64 {
            compress(bytes, at: i)
            i += 64
        }
        while i < n {
            block[filled] = bytes[i]
            filled += 1
            i += 1
        }
    }

    /// Adds `bytes` to the message.
    public mutating func update(_ bytes: [UInt8]) { update(bytes.span) }

    /// The digest of everything added, as 64 lowercase hex digits. Call once.
    public mutating func finish() -> String {
        let bits = length &* 8
        var tail: [UInt8] = [0x80]
        let padding = (55 - filled + 64) % 64
        tail.append(contentsOf: repeatElement(0, count: padding))
        for shift in stride(from: 56, through: 0, by: -8) { tail.append(UInt8(truncatingIfNeeded: bits >> UInt64(shift))) }
        let kept = length
        update(tail.span)
        length = kept
        let digits = Array("0123456789abcdef".utf8)
        var out: [UInt8] = []
        out.reserveCapacity(64)
        for j in 0..<8 {
            let word = h[j]
            for shift in stride(from: 28, through: 0, by: -4) { out.append(digits[Int((word >> UInt32(shift)) & 0xF)]) }
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// The 64-byte block of `bytes` at `offset`.
    @inline(__always)
    private mutating func compress(_ bytes: Span<UInt8>, at offset: Int) {
        var w = InlineArray<64, UInt32>(repeating: 0)
        for t in 0..<16 {
            w[t] = UInt32(bytes[offset + 4 * t]) << 24 | UInt32(bytes[offset + 4 * t + 1]) << 16
                | UInt32(bytes[offset + 4 * t + 2]) << 8 | UInt32(bytes[offset + 4 * t + 3])
        }
        for t in 16..<64 {
            let a = w[t - 15], b = w[t - 2]
            let s0 = a.rotr(7) ^ a.rotr(18) ^ (a >> 3)
            let s1 = b.rotr(17) ^ b.rotr(19) ^ (b >> 10)
            w[t] = w[t - 16] &+ s0 &+ w[t - 7] &+ s1
        }
        var a = h[0], b = h[1], c = h[2], d = h[3], e = h[4], f = h[5], g = h[6], hh = h[7]
        for t in 0..<64 {
            let s1 = e.rotr(6) ^ e.rotr(11) ^ e.rotr(25)
            let ch = (e & f) ^ (~e & g)
            let t1 = hh &+ s1 &+ ch &+ SHA256.k[t] &+ w[t]
            let s0 = a.rotr(2) ^ a.rotr(13) ^ a.rotr(22)
            let maj = (a & b) ^ (a & c) ^ (b & c)
            let t2 = s0 &+ maj
            hh = g; g = f; f = e; e = d &+ t1; d = c; c = b; b = a; a = t1 &+ t2
        }
        h[0] = h[0] &+ a; h[1] = h[1] &+ b; h[2] = h[2] &+ c; h[3] = h[3] &+ d
        h[4] = h[4] &+ e; h[5] = h[5] &+ f; h[6] = h[6] &+ g; h[7] = h[7] &+ hh
    }
}

extension UInt32 {
    @inline(__always)
    fileprivate func rotr(_ n: UInt32) -> UInt32 { (self >> n) | (self << (32 - n)) }
}
