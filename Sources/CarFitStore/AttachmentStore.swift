import CarFitCore

/// The attachments as stored (`attachments`): their records in the order attached, which is
/// also their upload order, and each one's upload status. Files live in the attachments
/// directory (`AttachmentDirectory`); a record's `file` names its copy there, NULL once evicted.
public struct AttachmentStore {
    let db: Database

    public init(_ db: Database) { self.db = db }

    private static let columns = """
        id, visit_id, start_ms, repetition, kind, content_type, bytes, sha256, at_ms, file, status, failure
        """

    private func attachment(_ s: Statement, directory: String?) -> Attachment? {
        guard let id = s.text(0), let kind = s.text(4).flatMap(AttachmentKind.init(rawValue:)),
              let status = s.text(10).flatMap(Attachment.Status.init(rawValue:)) else { return nil }
        let key = VisitKey(visitId: s.text(1), start: Instant(milliseconds: s.int(2) ?? 0), repetition: Int(clamping: s.int(3) ?? 0))
        let path: String? = s.text(9).flatMap { file in directory.map { "\($0)/\(file)" } }
        return Attachment(id: id, key: key, kind: kind, contentType: s.text(5) ?? "", bytes: s.int(6) ?? 0,
                          sha256: s.text(7) ?? "", at: Instant(milliseconds: s.int(8) ?? 0), path: path,
                          status: status, failure: s.text(11))
    }

    /// Records a new pending attachment whose copy is named `file`.
    public func insert(_ a: Attachment, file: String) throws(CarFitError) {
        try db.run("""
            INSERT INTO attachments (id, visit_key, visit_id, start_ms, repetition, kind, content_type, bytes, sha256,
                                     at_ms, file, status)
            VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, 'pending')
            """, [.text(a.id), .text(a.key.text), a.key.visitId.map(SQLValue.text) ?? .null, .int(a.key.start.milliseconds),
                  .int(Int64(a.key.repetition)), .text(a.kind.rawValue), .text(a.contentType), .int(a.bytes),
                  .text(a.sha256), .int(a.at.milliseconds), .text(file)])
    }

    /// The attachments of the visit `key`, in the order attached.
    public func attachments(of key: VisitKey, directory: String?) throws(CarFitError) -> [Attachment] {
        let s = try db.statement("SELECT \(Self.columns) FROM attachments WHERE visit_key = ?1 ORDER BY seq")
        defer { s.reset() }
        try s.bind(1, key.text)
        var out: [Attachment] = []
        while try s.step() { if let a = attachment(s, directory: directory) { out.append(a) } }
        return out
    }

    /// The attachment `id`, nil when none has it.
    public func attachment(id: String, directory: String?) throws(CarFitError) -> Attachment? {
        let s = try db.statement("SELECT \(Self.columns) FROM attachments WHERE id = ?1")
        defer { s.reset() }
        try s.bind(1, id)
        return try s.step() ? attachment(s, directory: directory) : nil
    }

    /// The oldest pending attachment attached after position `after` (its `seq`), with its seq.
    public func nextPending(after: Int64, directory: String?) throws(CarFitError) -> (seq: Int64, attachment: Attachment)? {
        let s = try db.statement("""
            SELECT \(Self.columns), seq FROM attachments WHERE status = 'pending' AND seq > ?1 ORDER BY seq LIMIT 1
            """)
        defer { s.reset() }
        try s.bind(1, after)
        guard try s.step(), let a = attachment(s, directory: directory) else { return nil }
        return (s.int(12) ?? 0, a)
    }

    /// How many attachments wait for the upload, and their bytes.
    public func pending() throws(CarFitError) -> (count: Int, bytes: Int64) {
        let rows = try db.query("SELECT count(*), coalesce(sum(bytes), 0) FROM attachments WHERE status = 'pending'")
        guard let row = rows.first, row.count == 2, case .int(let n) = row[0], case .int(let b) = row[1] else { return (0, 0) }
        return (Int(clamping: n), b)
    }

    /// How many attachments the upload server refused for good.
    public func failedCount() throws(CarFitError) -> Int {
        Int(clamping: try db.scalarInt("SELECT count(*) FROM attachments WHERE status = 'failed'") ?? 0)
    }

    /// The bytes of every attachment that waits for the upload or was refused (their files
    /// are never evicted), and the uploaded ones still on disk, oldest first.
    public func quotaUse() throws(CarFitError) -> (kept: Int64, uploaded: [AttachmentQuota.Stored]) {
        let kept = try db.scalarInt("""
            SELECT coalesce(sum(bytes), 0) FROM attachments WHERE status != 'uploaded' AND file IS NOT NULL
            """) ?? 0
        let s = try db.statement("""
            SELECT id, bytes FROM attachments WHERE status = 'uploaded' AND file IS NOT NULL ORDER BY seq
            """)
        defer { s.reset() }
        var uploaded: [AttachmentQuota.Stored] = []
        while try s.step() {
            if let id = s.text(0) { uploaded.append(AttachmentQuota.Stored(id: id, bytes: s.int(1) ?? 0)) }
        }
        return (kept, uploaded)
    }

    /// Forgets the file of the uploaded attachment `id` (evicted): it stays listed, path null.
    public func evict(id: String) throws(CarFitError) {
        try db.run("UPDATE attachments SET file = NULL WHERE id = ?1 AND status = 'uploaded'", [.text(id)])
    }

    /// Which of `ids` no attachment has.
    public func unknown(_ ids: [String]) throws(CarFitError) -> [String] {
        let s = try db.statement("SELECT 1 FROM attachments WHERE id = ?1")
        var out: [String] = []
        for id in ids {
            s.reset()
            try s.bind(1, id)
            if try !s.step() { out.append(id) }
        }
        s.reset()
        return out
    }

    /// Removes the record of `id`.
    public func delete(id: String) throws(CarFitError) {
        try db.run("DELETE FROM attachments WHERE id = ?1", [.text(id)])
    }

    /// Marks a pending attachment uploaded; false when it is no longer pending (detached).
    public func markUploaded(id: String) throws(CarFitError) -> Bool {
        try db.run("UPDATE attachments SET status = 'uploaded' WHERE id = ?1 AND status = 'pending'", [.text(id)])
        return db.changes > 0
    }

    /// Marks a pending attachment refused for good, with the reason.
    public func markFailed(id: String, reason: String) throws(CarFitError) {
        try db.run("UPDATE attachments SET status = 'failed', failure = ?2 WHERE id = ?1 AND status = 'pending'",
                   [.text(id), .text(reason)])
    }

    /// Each card's counts of the visits starting in `range` (ms since the epoch) that have
    /// attachments, by key: empty (one index probe) on a day without any.
    public func counts(startingIn range: Range<Int64>) throws(CarFitError) -> [VisitKey: AttachmentCounts] {
        let s = try db.statement("""
            SELECT visit_id, start_ms, repetition, kind, status = 'pending', count(*) FROM attachments
            WHERE start_ms >= ?1 AND start_ms < ?2
            GROUP BY visit_key, kind, status = 'pending'
            """)
        defer { s.reset() }
        try s.bind(1, range.lowerBound)
        try s.bind(2, range.upperBound)
        var out: [VisitKey: AttachmentCounts] = [:]
        while try s.step() {
            guard let kind = s.text(3).flatMap(AttachmentKind.init(rawValue:)) else { continue }
            let key = VisitKey(visitId: s.text(0), start: Instant(milliseconds: s.int(1) ?? 0), repetition: Int(clamping: s.int(2) ?? 0))
            out[key, default: AttachmentCounts()].add(kind, count: Int(clamping: s.int(5) ?? 0), pending: s.int(4) == 1)
        }
        return out
    }
}
