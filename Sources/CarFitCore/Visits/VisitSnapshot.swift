/// The visits of an API document, validated record by record (read from the document by the
/// I/O module: `VisitSnapshot(document:)`, `VisitSnapshot(file:)`).
public typealias VisitSnapshot = RecordImport<Visit>

extension RecordImport where Record == Visit {
    public var visits: [Visit] { accepted }
}
