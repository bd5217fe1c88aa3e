/// What an import stored: how many records, and the rejection of each record it skipped, in
/// document order. The API writes it as the import's answer.
public struct ImportSummary: Sendable, Equatable {
    public var imported: Int
    public var rejected: [Rejection]
    /// The planner's changes against the snapshot this one replaced (a visits import; nil for
    /// the other imports, whose answers have none).
    public var changes: [VisitChange]?

    public init(imported: Int, rejected: [Rejection] = [], changes: [VisitChange]? = nil) {
        self.imported = imported
        self.rejected = rejected
        self.changes = changes
    }
}

extension RecordImport {
    /// The summary of the records this import keeps.
    public var summary: ImportSummary { ImportSummary(imported: accepted.count, rejected: rejected) }
}
