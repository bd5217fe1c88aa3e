import CarFitCore

/// One stored visit as read from the store: views of the stored text (nil where the column is
/// null; name, tasks and address are never null), valid only while the reader is on that row.
/// `Visit(row:)` makes a `Visit` of it; the day query writes its cards from it directly.
public typealias VisitRow = VisitRecord<UnsafeBufferPointer<UInt8>>

extension Visit {
    /// The visit of a stored row.
    public init(row: VisitRow) {
        self = row.map { String(decoding: $0, as: UTF8.self) }
    }
}
