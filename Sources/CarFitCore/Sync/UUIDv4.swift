/// Random (version 4) UUIDs as lowercase text, `"xxxxxxxx-xxxx-4xxx-yxxx-xxxxxxxxxxxx"`: the
/// database's `clientId` and every outbox entry's `mutationId`. The bits come from an injected
/// generator: the system's in the core, a seeded one in tests.
public enum UUIDv4 {
    /// A new UUID: 122 random bits, the version nibble 4 and the RFC 9562 variant bits 10.
    public static func make<R: RandomNumberGenerator>(using random: inout R) -> String {
        var high = random.next()
        var low = random.next()
        high = (high & ~0xF000) | 0x4000                       // version 4 in bits 48–51
        low = (low & ~(0xC000_0000_0000_0000 as UInt64)) | 0x8000_0000_0000_0000  // variant 10
        var bytes = [UInt8]()
        bytes.reserveCapacity(36)
        let digits = Array("0123456789abcdef".utf8)
        for i in 0..<32 {
            if i == 8 || i == 12 || i == 16 || i == 20 { bytes.append(UInt8(ascii: "-")) }
            let word = i < 16 ? high : low
            let shift = UInt64(60 - 4 * (i % 16))
            bytes.append(digits[Int((word >> shift) & 0xF)])
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// Whether `text` is a version 4 UUID as `make` writes it (lowercase, hyphenated).
    public static func isValid(_ text: String) -> Bool {
        let u = Array(text.utf8)
        guard u.count == 36 else { return false }
        for (i, c) in u.enumerated() {
            if i == 8 || i == 13 || i == 18 || i == 23 {
                guard c == UInt8(ascii: "-") else { return false }
            } else {
                guard (c >= UInt8(ascii: "0") && c <= UInt8(ascii: "9")) || (c >= UInt8(ascii: "a") && c <= UInt8(ascii: "f"))
                else { return false }
            }
        }
        return u[14] == UInt8(ascii: "4") && [UInt8(ascii: "8"), UInt8(ascii: "9"), UInt8(ascii: "a"), UInt8(ascii: "b")].contains(u[19])
    }
}
