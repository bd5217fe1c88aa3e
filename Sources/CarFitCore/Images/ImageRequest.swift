/// The image requests' rules, shared by every entry point that takes URLs.
public enum ImageRequest {
    /// The longest URL accepted (longer ones are `invalid`).
    public static let maxURLLength = 8192

    /// True for an absolute http or https URL with a host.
    public static func isHTTPURL(_ text: String) -> Bool {
        text.utf8.count <= maxURLLength && HTTPURL.isValid(text)
    }

    /// The disk cache's file name for `url`: the 64-bit FNV-1a hash of its UTF-8 bytes in 16
    /// lowercase hex digits, with the extension `.img`.
    public static func fileName(for url: String) -> String {
        let hex = String(fnv1a64(url), radix: 16)
        return String(repeating: "0", count: max(0, 16 - hex.count)) + hex + ".img"
    }

    /// FNV-1a, 64 bits.
    public static func fnv1a64(_ text: String) -> UInt64 {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in text.utf8 {
            hash ^= UInt64(byte)
            hash = hash &* 0x0000_0100_0000_01B3
        }
        return hash
    }
}
