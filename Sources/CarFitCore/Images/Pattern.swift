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

    /// Validates one record (`patterns[index]`): `imageUrl` is required (http or https);
    /// `title` and `colors` (hex "RRGGBB", a leading "#" allowed) may be null or missing.
    public static func decode(_ value: JSON, index: Int) -> Result<Pattern, Rejection> {
        RecordImport.decode(value, index: index, decode)
    }

    static func decode(_ f: Fields) throws(CarFitError) -> Pattern {
        let url = try f.requiredString("imageUrl")
        guard ImageRequest.isHTTPURL(url) else {
            throw .invalid("imageUrl", "imageUrl must be an absolute http or https URL.")
        }
        var colors: [String] = []
        for (i, text) in (try f.strings("colors") ?? []).enumerated() {
            guard let color = hexColor(text) else {
                throw .invalid("colors[\(i)]", "colors[\(i)] must be a colour as six hex digits, such as \"3779B1\".")
            }
            colors.append(color)
        }
        let title = try f.string("title")?.trimmed
        return Pattern(imageUrl: url, title: title?.isEmpty == false ? title : nil, colors: colors)
    }

    /// "3779b1" or "#3779B1" → "3779B1"; nil for anything else.
    static func hexColor(_ text: String) -> String? {
        let digits = text.hasPrefix("#") ? String(text.dropFirst()) : text
        guard digits.utf8.count == 6, digits.utf8.allSatisfy({ isHexDigit($0) }) else { return nil }
        return digits.uppercased()
    }

    static func isHexDigit(_ c: UInt8) -> Bool {
        (c >= 0x30 && c <= 0x39) || (c >= 0x41 && c <= 0x46) || (c >= 0x61 && c <= 0x66)
    }
}
