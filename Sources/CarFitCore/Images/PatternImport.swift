/// The patterns of an import request or of a patterns source's answer, and the records that
/// failed (read by the patterns document's decoder).
public typealias PatternImport = RecordImport<Pattern>

extension RecordImport where Record == Pattern {
    public var patterns: [Pattern] { accepted }
}
