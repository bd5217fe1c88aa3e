/// The patterns of an import request: the colourlovers array (`patterns/random`), which the
/// boundary hands over as `{"patterns": [...]}`, or that object itself.
public typealias PatternImport = RecordImport<Pattern>

extension RecordImport where Record == Pattern {
    /// A request without a `patterns` array is `invalid` and changes nothing.
    public init(document f: Fields) throws(CarFitError) {
        guard let value = f.object["patterns"], case .array(let records) = value else {
            throw .invalid("patterns", "The document has no patterns array (send the colourlovers array or {\"patterns\": [...]}).")
        }
        self.init(records, decode: Pattern.decode)
    }

    public var patterns: [Pattern] { accepted }

    /// `{"imported", "rejected", "pool"}`.
    public func response(pool: Int) -> JSON {
        .obj(["imported": .int(Int64(accepted.count)), "rejected": .array(rejected.map(\.json)),
              "pool": .int(Int64(pool))])
    }
}
