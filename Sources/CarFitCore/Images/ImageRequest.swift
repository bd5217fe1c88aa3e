/// Validation of the image requests, shared by every entry point that takes URLs.
public enum ImageRequest {
    /// The longest URL accepted (longer ones are `invalid`).
    public static let maxURLLength = 8192

    /// True for an absolute http or https URL with a host.
    public static func isHTTPURL(_ text: String) -> Bool {
        text.utf8.count <= maxURLLength && HTTPURL.isValid(text)
    }

    /// `{"url"}` → the URL, checked.
    public static func url(_ f: Fields) throws(CarFitError) -> String {
        let url = try f.requiredString("url")
        guard isHTTPURL(url) else {
            throw .invalid(f.path("url"), "url must be an absolute http or https URL.")
        }
        return url
    }

    /// `{"urls": [...]}` → the URLs, checked, duplicates dropped (first kept).
    public static func urls(_ f: Fields) throws(CarFitError) -> [String] {
        guard let urls = try f.strings("urls") else {
            throw .invalid(f.path("urls"), "urls is required: an array of image URLs.")
        }
        var seen = Set<String>()
        var out: [String] = []
        for (i, url) in urls.enumerated() {
            guard isHTTPURL(url) else {
                throw .invalid("\(f.path("urls"))[\(i)]", "urls[\(i)] must be an absolute http or https URL.")
            }
            if seen.insert(url).inserted { out.append(url) }
        }
        return out
    }

    /// `{"priority": "low" | "normal" | "high"}`, `normal` when absent.
    public static func priority(_ f: Fields) throws(CarFitError) -> PrefetchPriority {
        guard let name = try f.string("priority") else { return .normal }
        guard let priority = PrefetchPriority(name: name) else {
            throw .invalid(f.path("priority"), "priority must be \"low\", \"normal\" or \"high\".")
        }
        return priority
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
