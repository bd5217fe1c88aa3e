import CarFitCore

extension RecordImport {
    /// How a record type is read from one record object of its document.
    public typealias Decoder = (Fields) throws(CarFitError) -> Record

    /// Each of `records` read by `decode`: kept, or rejected with its index, field and message.
    public init(_ records: [JSON], decode: Decoder) {
        self.init()
        accepted.reserveCapacity(records.count)
        for (i, record) in records.enumerated() {
            switch RecordImport.decode(record, index: i, decode) {
            case .success(let r): accepted.append(r)
            case .failure(let r): rejected.append(r)
            }
        }
    }

    /// One record (`[index]` of its array): an object handed to `decode`, or its rejection.
    public static func decode(_ value: JSON, index: Int, _ decode: Decoder) -> Result<Record, Rejection> {
        guard case .object(let object) = value else {
            return .failure(Rejection(index: index, field: nil, message: "The record is not an object."))
        }
        do throws(CarFitError) {
            return .success(try decode(Fields(object)))
        } catch {
            return .failure(Rejection(index: index, field: error.field, message: error.message))
        }
    }
}
