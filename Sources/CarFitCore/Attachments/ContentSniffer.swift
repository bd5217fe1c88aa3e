/// Tells an attachment's content type from its first bytes, never from a file name.
///
/// Photos: JPEG (`FF D8 FF`), PNG (its 8-byte signature), WebP (`RIFF....WEBP`), HEIC (an
/// ISO-BMFF `ftyp` box whose major or compatible brand is `heic`, `heix`, `mif1` or `msf1`).
/// Signatures: PNG, or SVG (after an optional UTF-8 BOM, whitespace, an XML declaration,
/// comments and processing instructions, and a DOCTYPE, the root element is `<svg`). Notes:
/// UTF-8 text (checked whole by `NoteText`). `headLength` bytes are enough to decide.
public enum ContentSniffer {
    /// The bytes `contentType(of:kind:)` reads at most.
    public static let headLength = 4096

    public static let jpeg = "image/jpeg"
    public static let png = "image/png"
    public static let webp = "image/webp"
    public static let heic = "image/heic"
    public static let svg = "image/svg+xml"
    public static let text = "text/plain; charset=utf-8"

    /// The content type of a photo or signature whose file starts with `head` (the first
    /// `headLength` bytes, or the whole file when shorter), nil when it is not one `kind` takes.
    public static func contentType(of head: Span<UInt8>, kind: AttachmentKind) -> String? {
        switch kind {
        case .photo:
            if isJPEG(head) { return jpeg }
            if isPNG(head) { return png }
            if isWebP(head) { return webp }
            if isHEIC(head) { return heic }
            return nil
        case .signature:
            if isPNG(head) { return png }
            if isSVG(head) { return svg }
            return nil
        case .note:
            return nil
        }
    }

    static func starts(_ head: Span<UInt8>, with prefix: [UInt8], at offset: Int = 0) -> Bool {
        guard offset >= 0, head.count - offset >= prefix.count else { return false }
        for i in 0..<prefix.count where head[offset + i] != prefix[i] { return false }
        return true
    }

    public static func isJPEG(_ head: Span<UInt8>) -> Bool { starts(head, with: [0xFF, 0xD8, 0xFF]) }

    public static func isPNG(_ head: Span<UInt8>) -> Bool {
        starts(head, with: [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A])
    }

    public static func isWebP(_ head: Span<UInt8>) -> Bool {
        starts(head, with: Array("RIFF".utf8)) && starts(head, with: Array("WEBP".utf8), at: 8)
    }

    /// An ISO-BMFF file whose first box is `ftyp` naming a HEIC brand (major or compatible).
    public static func isHEIC(_ head: Span<UInt8>) -> Bool {
        guard head.count >= 16, starts(head, with: Array("ftyp".utf8), at: 4) else { return false }
        var size = 0
        for i in 0..<4 { size = size << 8 | Int(head[i]) }
        // A box is at least its header, size and type, plus major brand and minor version.
        guard size >= 16 else { return false }
        let end = min(size, head.count)
        let brands: [[UInt8]] = ["heic", "heix", "mif1", "msf1"].map { Array($0.utf8) }
        func brand(at offset: Int) -> Bool { brands.contains { starts(head, with: $0, at: offset) } }
        if brand(at: 8) { return true }
        var offset = 16
        while offset + 4 <= end {
            if brand(at: offset) { return true }
            offset += 4
        }
        return false
    }

    /// An SVG document: an optional UTF-8 BOM, then any of whitespace, `<?...?>`, `<!--...-->`
    /// and `<!DOCTYPE ...>`, then `<svg` followed by whitespace, `>` or `/`.
    public static func isSVG(_ head: Span<UInt8>) -> Bool {
        var i = starts(head, with: [0xEF, 0xBB, 0xBF]) ? 3 : 0
        let n = head.count
        func skip(to terminator: [UInt8], from start: Int) -> Int? {
            var j = start
            while j + terminator.count <= n {
                if starts(head, with: terminator, at: j) { return j + terminator.count }
                j += 1
            }
            return nil
        }
        while i < n {
            let byte = head[i]
            if byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D {
                i += 1
            } else if starts(head, with: Array("<?".utf8), at: i) {
                guard let next = skip(to: Array("?>".utf8), from: i + 2) else { return false }
                i = next
            } else if starts(head, with: Array("<!--".utf8), at: i) {
                guard let next = skip(to: Array("-->".utf8), from: i + 4) else { return false }
                i = next
            } else if starts(head, with: Array("<!DOCTYPE".utf8), at: i) {
                guard let next = skip(to: Array(">".utf8), from: i + 9) else { return false }
                i = next
            } else {
                guard starts(head, with: Array("<svg".utf8), at: i), i + 4 < n else { return false }
                let after = head[i + 4]
                return after == 0x20 || after == 0x09 || after == 0x0A || after == 0x0D
                    || after == UInt8(ascii: ">") || after == UInt8(ascii: "/")
            }
        }
        return false
    }
}
