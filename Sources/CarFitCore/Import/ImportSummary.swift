/// What an import stored: how many records, and the rejection of each record it skipped, in
/// document order. The API writes it as the import's answer.
public struct ImportSummary: Sendable, Equatable {
    public var imported: Int
    public var rejected: [Rejection]

    public init(imported: Int, rejected: [Rejection] = []) {
        self.imported = imported
        self.rejected = rejected
    }
}

extension RecordImport {
    /// The summary of the records this import keeps.
    public var summary: ImportSummary { ImportSummary(imported: accepted.count, rejected: rejected) }
}
