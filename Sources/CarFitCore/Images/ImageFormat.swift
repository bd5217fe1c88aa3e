/// The image formats the pipeline accepts, recognised by their magic bytes (never by the
/// server's Content-Type, which is often wrong).
public enum ImageFormat: String, Sendable, CaseIterable {
    case png, jpeg, gif, webp

    /// The format whose signature starts `bytes`, or nil when it is none of the four:
    /// PNG `89 50 4E 47 0D 0A 1A 0A`, JPEG `FF D8 FF`, GIF `GIF87a`/`GIF89a`,
    /// WebP `RIFF <size> WEBP`.
    public init?<Bytes: Collection>(sniffing bytes: Bytes) where Bytes.Element == UInt8 {
        let head = Array(bytes.prefix(12))
        func starts(_ signature: [UInt8], at offset: Int = 0) -> Bool {
            head.count >= offset + signature.count && Array(head[offset..<(offset + signature.count)]) == signature
        }
        if starts([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]) {
            self = .png
        } else if starts([0xFF, 0xD8, 0xFF]) {
            self = .jpeg
        } else if starts(Array("GIF87a".utf8)) || starts(Array("GIF89a".utf8)) {
            self = .gif
        } else if starts(Array("RIFF".utf8)) && starts(Array("WEBP".utf8), at: 8) {
            self = .webp
        } else {
            return nil
        }
    }

    /// The MIME type: `image/png`, `image/jpeg`, `image/gif`, `image/webp`.
    public var contentType: String { "image/" + rawValue }
}
