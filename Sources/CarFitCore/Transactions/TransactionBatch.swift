/// The valid records of an import document and the rejected ones.
public typealias TransactionBatch = RecordImport<TransactionRecord>

extension RecordImport where Record == TransactionRecord {
    /// `{"transactions": [...]}`; a document without that array is `invalid` (nothing stored).
    public init(document f: Fields) throws(CarFitError) {
        guard let value = f.object["transactions"], case .array(let items) = value else {
            throw .invalid("transactions", "The document has no transactions array.")
        }
        self.init(items, decode: TransactionRecord.decode)
    }

    public var records: [TransactionRecord] { accepted }
}
