/// One pattern of the carousel's pool: an image URL, its title and its colours.
public struct Pattern: Sendable, Equatable {
    public var imageUrl: String
    public var title: String?
    /// "RRGGBB", upper case, in the source's order (the first is the pattern's main colour).
    public var colors: [String]

    public init(imageUrl: String, title: String?, colors: [String]) {
        self.imageUrl = imageUrl
        self.title = title
        self.colors = colors
    }

    /// The tile colour while the image loads: the pattern's first colour, as "#RRGGBB".
    public var placeholderColor: String? { colors.first.map { "#" + $0 } }

    /// "3779b1" or "#3779B1" → "3779B1"; nil for anything else.
    public static func hexColor(_ text: String) -> String? {
        let digits = text.hasPrefix("#") ? String(text.dropFirst()) : text
        guard digits.utf8.count == 6, digits.utf8.allSatisfy({ isHexDigit($0) }) else { return nil }
        return digits.uppercased()
    }

    static func isHexDigit(_ c: UInt8) -> Bool {
        (c >= 0x30 && c <= 0x39) || (c >= 0x41 && c <= 0x46) || (c >= 0x61 && c <= 0x66)
    }
}
