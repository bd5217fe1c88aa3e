import CarFitCore
import CarFitSystem
import CarFitIO
import CarFitStore

/// Proof of work on a visit: photos, signatures and notes attached, listed and detached. The
/// core keeps its own copy of every attached file in the attachments directory; their upload
/// is part of the push (`SyncService.push`, `AttachmentUpload`).
public struct AttachmentsService {
    public let db: Database
    public let store: AttachmentStore
    public let visits: VisitStore
    public let clock: Clock
    public let config: CoreConfig.Attachments
    /// The attachments directory; nil for an in-memory database without a configured one.
    public let directory: AttachmentDirectory?

    public init(db: Database, clock: Clock, config: CoreConfig.Attachments, directory: String?, seal: FileSeal = .plain) {
        self.db = db
        store = AttachmentStore(db)
        visits = VisitStore(db)
        self.clock = clock
        self.config = config
        self.directory = directory.map { AttachmentDirectory(path: $0, seal: seal) }
    }

    private func notFound(_ keyText: String) -> CarFitError {
        CarFitError(.notFound, "No stored visit has the key \"\(keyText.prefix(80))\".", field: "key")
    }

    /// Attaches to the visit of `keyText` a note's `text` or the file at `file` (one of them,
    /// already checked): the file is copied into the attachments directory (streaming, under a
    /// temporary name, flushed, then renamed) and recorded pending in one transaction with any
    /// eviction the quota needs.
    public func attach(keyText: String, kind: AttachmentKind, text: String?, file: String?) throws(CarFitError) -> Attachment {
        guard let key = VisitKey(text: keyText) else { throw notFound(keyText) }
        guard try visits.visit(key) != nil else { throw notFound(keyText) }
        guard let directory else {
            throw CarFitError.invalid("attachments.directory",
                                      "An in-memory core has no place for attachments: set attachments.directory when opening the core.")
        }
        var random = KernelRandom()
        let id = UUIDv4.make(using: &random)
        let staged: StagedAttachment
        if let text {
            staged = try directory.stage(note: Array(text.utf8), id: id)
        } else {
            staged = try directory.stage(file: file ?? "", id: id, kind: kind, maxBytes: config.maxBytes)
        }
        let attachment = Attachment(id: id, key: key, kind: kind, contentType: staged.contentType, bytes: staged.bytes,
                                    sha256: staged.sha256, at: clock.now, path: directory.filePath(id: id))
        let store = store
        let quota = config.quotaBytes
        var evicted: [String] = []
        do throws(CarFitError) {
            try db.transaction { () throws(CarFitError) in
                let use = try store.quotaUse()
                switch AttachmentQuota.plan(adding: staged.bytes, pendingBytes: use.kept, uploaded: use.uploaded, quotaBytes: quota) {
                case .overQuota:
                    throw CarFitError(.conflict, "The attachments not yet uploaded and this one would take more than \(quota) bytes; push them first.",
                                      cause: CarFitError.Cause(reason: "quota"))
                case .evict(let ids):
                    for evictedId in ids { try store.evict(id: evictedId) }
                    evicted = ids
                }
                // Stay in the visits the transaction sees (a snapshot may have replaced them).
                guard try visits.visit(key) != nil else { throw notFound(keyText) }
                try staged.commit()
                do throws(CarFitError) {
                    try store.insert(attachment, file: id)
                } catch {
                    directory.remove(id: id)
                    throw error
                }
            }
        } catch {
            staged.discard()
            directory.remove(id: id)
            throw error
        }
        for evictedId in evicted { directory.remove(id: evictedId) }
        return attachment
    }

    /// Tidies the directory when a core opens: narrows what an earlier version left open to
    /// others (`AttachmentDirectory.narrow`), removes the temporaries of copies a crash
    /// interrupted, and the copies a crash left renamed but never recorded (their transaction
    /// did not commit). The second is checked again inside a write transaction, so a copy
    /// another process is recording at that moment is never taken. Best effort: a failure
    /// leaves the files for the next open.
    public func tidy() {
        guard let directory else { return }
        directory.narrow()
        directory.removeTemporaries()
        directory.convert()
        let candidates = directory.storedNames().filter(UUIDv4.isValid)
        guard !candidates.isEmpty, let missing = try? store.unknown(candidates), !missing.isEmpty else { return }
        let store = store
        let orphans = try? db.transaction { () throws(CarFitError) in try store.unknown(missing) }
        for id in orphans ?? [] { directory.remove(id: id) }
    }

    /// The attachments of the visit of `keyText` (with their paths), in the order attached.
    public func list(keyText: String) throws(CarFitError) -> [Attachment] {
        guard let key = VisitKey(text: keyText) else { throw notFound(keyText) }
        let found = try store.attachments(of: key, directory: directory?.path)
        if found.isEmpty, try visits.visit(key) == nil { throw notFound(keyText) }
        return found
    }

    /// The attachment `id` and the bytes of its stored copy: `not_found` for no such attachment
    /// or one whose copy was evicted, `storage` when the copy cannot be read.
    public func data(id: String) throws(CarFitError) -> (Attachment, [UInt8]) {
        guard let found = try store.attachment(id: id, directory: directory?.path) else {
            throw CarFitError(.notFound, "No attachment has the id \"\(id.prefix(80))\".", field: "id")
        }
        guard let path = found.path, let directory else {
            throw CarFitError(.notFound, "The stored copy of this attachment was removed after its upload.", field: "id")
        }
        return (found, try directory.contents(path: path, limit: max(found.bytes, 0)))
    }

    /// Removes the attachment `id` not yet uploaded, and its file; `conflict` once uploaded.
    public func detach(id: String) throws(CarFitError) -> Attachment {
        let store = store
        let dir = directory?.path
        let removed = try db.transaction { () throws(CarFitError) -> Attachment in
            guard let found = try store.attachment(id: id, directory: dir) else {
                throw CarFitError(.notFound, "No attachment has the id \"\(id.prefix(80))\".", field: "id")
            }
            guard found.status != .uploaded else {
                throw CarFitError(.conflict, "This attachment was uploaded already; it can no longer be removed.", field: "id")
            }
            try store.delete(id: id)
            return found
        }
        if removed.path != nil { directory?.remove(id: id) }
        return removed
    }
}
