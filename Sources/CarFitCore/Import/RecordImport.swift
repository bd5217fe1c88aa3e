/// The records of an import document, validated one at a time: the valid ones in document
/// order, and a rejection (index, offending member, message) for each of the others. Every
/// import (visits, catalog, transactions, articles, patterns) is this routine; each record type
/// adds how its document holds the array (`VisitSnapshot`, `CatalogImport`, ...).
public struct RecordImport<Record: Sendable>: Sendable {
    public typealias Decoder = (Fields) throws(CarFitError) -> Record

    public var accepted: [Record] = []
    public var rejected: [Rejection] = []

    public init(_ records: [JSON], decode: Decoder) {
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

    public var response: JSON { RecordImport.response(imported: accepted.count, rejected: rejected) }

    /// `{"imported": n, "rejected": [...]}`, the answer of every import.
    public static func response(imported: Int, rejected: [Rejection]) -> JSON {
        .obj(["imported": .int(Int64(imported)), "rejected": .array(rejected.map(\.json))])
    }
}
