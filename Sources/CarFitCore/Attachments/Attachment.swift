/// One attachment as stored and as hosts see it: what it is, which visit it proves, its
/// content's size and digest, and where its upload stands.
public struct Attachment: Sendable, Equatable {
    public enum Status: String, Sendable {
        /// Waiting for the upload server.
        case pending
        /// The upload server took it (a 2xx): never sent again, its file may be evicted.
        case uploaded
        /// The upload server refused it for good (a 4xx): never sent again.
        case failed
    }

    public var id: String
    public var key: VisitKey
    public var kind: AttachmentKind
    public var contentType: String
    public var bytes: Int64
    public var sha256: String
    public var at: Instant
    /// The stored copy's full path; nil once evicted.
    public var path: String?
    public var status: Status
    /// Why the upload server refused it (status `failed`).
    public var failure: String?

    public init(id: String, key: VisitKey, kind: AttachmentKind, contentType: String, bytes: Int64, sha256: String,
                at: Instant, path: String?, status: Status = .pending, failure: String? = nil) {
        self.id = id
        self.key = key
        self.kind = kind
        self.contentType = contentType
        self.bytes = bytes
        self.sha256 = sha256
        self.at = at
        self.path = path
        self.status = status
        self.failure = failure
    }
}

/// A card's `attachments` member: how many of each kind its visit has, and how many of them
/// still wait for the upload.
public struct AttachmentCounts: Sendable, Equatable {
    public var photos = 0
    public var signatures = 0
    public var notes = 0
    public var pending = 0

    public init(photos: Int = 0, signatures: Int = 0, notes: Int = 0, pending: Int = 0) {
        self.photos = photos
        self.signatures = signatures
        self.notes = notes
        self.pending = pending
    }

    /// Counts `n` attachments of `kind`, `pending` of them not yet uploaded.
    public mutating func add(_ kind: AttachmentKind, count n: Int, pending waiting: Bool) {
        switch kind {
        case .photo: photos += n
        case .signature: signatures += n
        case .note: notes += n
        }
        if waiting { pending += n }
    }
}
