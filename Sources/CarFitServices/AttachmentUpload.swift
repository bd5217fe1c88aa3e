import CarFitCore
import CarFitHTTP
import CarFitIO
import CarFitNet
import CarFitStore
#if canImport(Glibc)
import Glibc
#endif

/// The attachments' part of a push: each pending attachment, oldest first and one at a time,
/// sent as `PUT <base>/<id>` with its content type, length, SHA-256 and visit, the body read
/// from its stored copy as it is sent. A 2xx marks it uploaded; a 4xx other than 401, 403, 408
/// and 429 marks it failed for good and the upload goes on; anything else stops the upload as
/// `unavailable`, everything not yet uploaded staying pending (`UploadVerdict`).
public struct AttachmentUpload {
    /// The upload base URL (`sources.attachments`).
    public let base: String
    public let store: AttachmentStore
    public let directory: String?
    /// How the stored copies are read (a sealed copy is decrypted as it is sent).
    public let seal: FileSeal
    /// A reporter of the bytes sent, given the pending attachments' total (nil for 1 MiB or less).
    public let progress: (Int) -> ProgressReporter?

    public init(base: String, db: Database, directory: String?, seal: FileSeal = .plain,
                progress: @escaping (Int) -> ProgressReporter?) {
        self.base = base
        store = AttachmentStore(db)
        self.directory = directory
        self.seal = seal
        self.progress = progress
    }

    /// The largest answer body an upload reads.
    static let maxAnswerBytes: Int64 = 64 << 10

    /// What one run did.
    public struct Counts: Sendable {
        public var uploaded = 0
        public var failed = 0
        /// Whether any request was answered (the server is reachable).
        public var answered = false
    }

    /// Uploads every pending attachment; `lock` is held only around database work. Throws the
    /// failure that stopped it (the caller records it for the backoff).
    /// A 401 or 403 stops the upload as `unauthorized` (the planner's token is missing or no
    /// longer valid); the attachment stays pending.
    public func run(client: HTTPClient, lock: some Serializer, counts: inout Counts) throws(CarFitError) {
        let store = store
        let directory = directory
        let total = try lock.locked { () throws(CarFitError) in try store.pending().bytes }
        let reporter = progress(Int(clamping: total))
        var done: Int64 = 0
        var after: Int64 = 0
        let url = base.hasSuffix("/") ? String(base.dropLast()) : base
        while let next = try lock.locked({ () throws(CarFitError) in try store.nextPending(after: after, directory: directory) }) {
            after = next.seq
            let attachment = next.attachment
            let fd = attachment.path.map { open($0, O_RDONLY | O_CLOEXEC) } ?? -1
            guard fd >= 0 else {
                try lock.locked { () throws(CarFitError) in
                    try store.markFailed(id: attachment.id, reason: "The stored copy of this attachment is missing.")
                }
                counts.failed += 1
                continue
            }
            defer { close(fd) }
            // A sealed copy reaches the server as its original bytes, decrypted as they are sent.
            let feed = FileSeal.isSealed(fd: fd) ? SealedFeed(fd: fd, seal: seal) : nil
            if FileSeal.isSealed(fd: fd) && feed == nil {
                try lock.locked { () throws(CarFitError) in
                    try store.markFailed(id: attachment.id, reason: "The stored copy of this attachment cannot be decrypted.")
                }
                counts.failed += 1
                continue
            }
            let body = feed?.readEnd ?? fd
            var headers = [HTTPHeader("X-Carfit-Sha256", attachment.sha256),
                           HTTPHeader("X-Carfit-Start-Time-Utc", OutboxMutation.iso(attachment.key.start)),
                           HTTPHeader("X-Carfit-Kind", attachment.kind.rawValue)]
            if let visitId = attachment.key.visitId, HTTPHeader("X-Carfit-Visit-Id", visitId).isWellFormed {
                headers.append(HTTPHeader("X-Carfit-Visit-Id", visitId))
            }
            let target = "\(url)/\(attachment.id)"
            let before = done
            let answer: HTTPResponseBody
            do throws(HTTPError) {
                answer = try client.source(.putFile(target, file: .init(fd: body, length: attachment.bytes),
                                                    contentType: attachment.contentType, headers: headers),
                                           source: "attachments", maxBytes: AttachmentUpload.maxAnswerBytes,
                                           sent: { bytes in reporter?.advance(to: before + min(bytes, attachment.bytes)) })
            } catch {
                throw CarFitError(error, .attachments)
            }
            counts.answered = true
            let status = answer.response.status
            if HTTPClient.isRefusal(status), let refused = CarFitError.answered(status, url: target, .attachments) {
                throw refused
            }
            switch UploadVerdict(status: status) {
            case .uploaded:
                _ = try lock.locked { () throws(CarFitError) in try store.markUploaded(id: attachment.id) }
                counts.uploaded += 1
            case .refused:
                try lock.locked { () throws(CarFitError) in
                    try store.markFailed(id: attachment.id, reason: "The attachments server refused it with HTTP status \(status).")
                }
                counts.failed += 1
            case .retryLater:
                throw CarFitError.httpStatus(status, url: target, .attachments)
            }
            done += attachment.bytes
            reporter?.advance(to: done)
        }
        reporter?.finish()
    }
}
