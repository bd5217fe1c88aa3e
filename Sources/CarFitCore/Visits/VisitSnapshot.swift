/// The visits of an API document: `{"data": [...]}` (`success`, `message`, `code` ignored).
public typealias VisitSnapshot = RecordImport<Visit>

extension RecordImport where Record == Visit {
    /// A document without a `data` array, or with records of which none is valid, is
    /// `invalid` (and nothing may be stored from it).
    public init(document f: Fields) throws(CarFitError) {
        guard let data = f.object["data"], case .array(let records) = data else {
            throw .invalid("data", "The document has no data array of visits.")
        }
        self.init(records, decode: Visit.decode)
        try requireAccepted(field: "data", record: "visit")
    }

    public var visits: [Visit] { accepted }
}
