/// The validators of a source's last stored 200 answer, sent back as `If-None-Match` and
/// `If-Modified-Since` so an unchanged document costs a 304 and no import.
public struct SourceValidators: Sendable, Equatable {
    public var etag: String?
    public var lastModified: String?

    public init(etag: String? = nil, lastModified: String? = nil) {
        self.etag = etag
        self.lastModified = lastModified
    }

    /// Neither validator: the request is unconditional.
    public var isEmpty: Bool { (etag ?? "").isEmpty && (lastModified ?? "").isEmpty }
}
