/// The records of an import document, validated one at a time: the valid ones in document
/// order, and a rejection (index, offending member, message) for each of the others. Every
/// import (visits, catalog, transactions, articles, patterns) is one; each record type adds how
/// its document holds the array (`VisitSnapshot`, `CatalogImport`, ...), read in the I/O layer.
public struct RecordImport<Record: Sendable>: Sendable {
    public var accepted: [Record] = []
    public var rejected: [Rejection] = []

    public init(accepted: [Record] = [], rejected: [Rejection] = []) {
        self.accepted = accepted
        self.rejected = rejected
    }

    /// Refuses a snapshot that had records but kept none of them: storing it would replace the
    /// stored data with nothing because of a document that is all mistakes. An empty array is
    /// a snapshot like any other.
    ///
    /// - Parameters:
    ///   - field: the document's array ("data", "content").
    ///   - record: one record, as a message names it ("visit", "article").
    public func requireAccepted(field: String, record: String) throws(CarFitError) {
        guard accepted.isEmpty, !rejected.isEmpty else { return }
        throw RecordImport.allRejected(rejected, field: field, record: record)
    }

    /// The `invalid` answer to a snapshot whose records were all rejected: the same
    /// `rejected` list an import answers, and a message naming the first rejection.
    public static func allRejected(_ rejected: [Rejection], field: String, record: String) -> CarFitError {
        let plural = record + "s"
        let count = rejected.count == 1 ? "The document's only \(record) was" : "All \(rejected.count) \(plural) of the document were"
        var first = ""
        if let r = rejected.first {
            let member = r.field.map { ".\($0)" } ?? ""
            first = " (\(field)[\(r.index)]\(member): \(r.message))"
        }
        return CarFitError(.invalid, "\(count) rejected\(first), so the stored \(plural) are unchanged.",
                           field: field, details: .init(rejected: rejected))
    }
}
