import CarFitCore

/// One stored visit as read from the store: views of the stored text (nil where the column is
/// null; name, tasks and address are never null), valid only while the reader is on that row.
/// `Visit(row:)` makes a `Visit` of it; the day query writes its cards from it directly.
public struct VisitRow {
    public var visitId: UnsafeBufferPointer<UInt8>?
    public var employeeId: UnsafeBufferPointer<UInt8>?
    public var start: Instant
    public var name: UnsafeBufferPointer<UInt8>
    public var state: UnsafeBufferPointer<UInt8>?
    public var expectedTime: UnsafeBufferPointer<UInt8>?
    public var tasks: UnsafeBufferPointer<UInt8>
    public var taskMinutes: Int
    public var address: UnsafeBufferPointer<UInt8>
    public var phone: UnsafeBufferPointer<UInt8>?
    public var latitude: Double?
    public var longitude: Double?

    public init(visitId: UnsafeBufferPointer<UInt8>?, employeeId: UnsafeBufferPointer<UInt8>?, start: Instant,
                name: UnsafeBufferPointer<UInt8>, state: UnsafeBufferPointer<UInt8>?,
                expectedTime: UnsafeBufferPointer<UInt8>?, tasks: UnsafeBufferPointer<UInt8>, taskMinutes: Int,
                address: UnsafeBufferPointer<UInt8>, phone: UnsafeBufferPointer<UInt8>?,
                latitude: Double?, longitude: Double?) {
        self.visitId = visitId
        self.employeeId = employeeId
        self.start = start
        self.name = name
        self.state = state
        self.expectedTime = expectedTime
        self.tasks = tasks
        self.taskMinutes = taskMinutes
        self.address = address
        self.phone = phone
        self.latitude = latitude
        self.longitude = longitude
    }

    /// Both coordinates, when the row has them.
    public var coordinate: (latitude: Double, longitude: Double)? { Visit.coordinate(latitude, longitude) }
}

extension Visit {
    /// The visit of a stored row.
    public init(row: VisitRow) {
        func text(_ utf8: UnsafeBufferPointer<UInt8>?) -> String? {
            utf8.map { String(decoding: $0, as: UTF8.self) }
        }
        self.init(visitId: text(row.visitId), employeeId: text(row.employeeId), start: row.start,
                  name: String(decoding: row.name, as: UTF8.self), state: text(row.state), expectedTime: text(row.expectedTime),
                  tasks: String(decoding: row.tasks, as: UTF8.self), taskMinutes: row.taskMinutes,
                  address: String(decoding: row.address, as: UTF8.self),
                  phone: text(row.phone), latitude: row.latitude, longitude: row.longitude)
    }
}
