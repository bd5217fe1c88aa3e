/// The room rule of the attachments' directory: the bytes of every stored file (pending and
/// uploaded, notes included) stay within `quotaBytes`. A new attachment is refused when the
/// pending ones alone would pass it; otherwise uploaded files are evicted, oldest first, only
/// as many as needed.
public enum AttachmentQuota {
    /// A stored file that could make room: an uploaded attachment still on disk.
    public struct Stored: Sendable, Equatable {
        public var id: String
        public var bytes: Int64
        public init(id: String, bytes: Int64) {
            self.id = id
            self.bytes = bytes
        }
    }

    public enum Plan: Sendable, Equatable {
        /// Room is there once these uploaded attachments (ids, oldest first) are evicted.
        case evict([String])
        /// The pending attachments and the new one alone pass the quota.
        case overQuota
    }

    /// What storing `adding` bytes takes. `pendingBytes`: the bytes of attachments not yet
    /// uploaded; `uploaded`: the uploaded ones still on disk, oldest first.
    public static func plan(adding: Int64, pendingBytes: Int64, uploaded: [Stored], quotaBytes: Int64) -> Plan {
        let (needed, overflow) = pendingBytes.addingReportingOverflow(adding)
        guard !overflow, needed <= quotaBytes else { return .overQuota }
        var total = needed
        for file in uploaded {
            let (sum, overflow) = total.addingReportingOverflow(file.bytes)
            total = overflow ? .max : sum
        }
        var evicted: [String] = []
        for file in uploaded {
            guard total > quotaBytes else { break }
            evicted.append(file.id)
            total -= file.bytes
        }
        return .evict(evicted)
    }
}
