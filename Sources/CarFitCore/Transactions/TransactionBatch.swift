/// The valid records of an import document and the rejected ones (read by the transactions
/// document's decoder).
public typealias TransactionBatch = RecordImport<TransactionRecord>

extension RecordImport where Record == TransactionRecord {
    public var records: [TransactionRecord] { accepted }
}
