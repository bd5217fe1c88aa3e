/// The 256-bit key a host gives in the config's `encryption.key` (64 hexadecimal digits, either
/// case). Held in memory only: its description never shows it, and no error quotes it.
public struct EncryptionKey: Sendable, Equatable, CustomStringConvertible, CustomDebugStringConvertible {
    /// The key's 32 bytes.
    public let bytes: [UInt8]

    /// The key of 64 hexadecimal digits, nil for any other text.
    public init?(hex: String) {
        let digits = Array(hex.utf8)
        guard digits.count == 64 else { return nil }
        var bytes = [UInt8]()
        bytes.reserveCapacity(32)
        var i = 0
        while i + 1 < digits.count {
            guard let high = Self.nibble(digits[i]), let low = Self.nibble(digits[i + 1]) else { return nil }
            bytes.append(high << 4 | low)
            i += 2
        }
        self.bytes = bytes
    }

    private static func nibble(_ c: UInt8) -> UInt8? {
        switch c {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): c - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): c - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): c - UInt8(ascii: "A") + 10
        default: nil
        }
    }

    public var description: String { "EncryptionKey(…)" }
    public var debugDescription: String { description }
}
