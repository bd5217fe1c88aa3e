/// Where a streamed import writes its records as they are decoded: a snapshot being written,
/// made visible by `commit` only; `rollback` (or any failure) leaves the stored data as it was.
public protocol RecordSink<Record>: AnyObject {
    associatedtype Record
    func append(_ record: Record) throws(CarFitError)
    func commit() throws(CarFitError)
    func rollback()
}
