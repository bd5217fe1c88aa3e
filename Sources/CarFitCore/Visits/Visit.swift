/// One visit: the source record reduced to what the card and the plan need. Its text members
/// are `Text`: owned strings for a decoded or loaded visit (`Visit`; a source record becomes one
/// only through `Visit.assemble`, which the I/O module's `Visit.decode` calls once it applied every
/// rule of the card table), or views of a stored row's bytes for the day list written straight
/// from the store (`VisitRow`, in the I/O module). One list of members for both.
public struct VisitRecord<Text> {
    public var visitId: Text?
    public var employeeId: Text?
    public var start: Instant
    public var name: Text
    public var state: Text?
    public var expectedTime: Text?
    public var tasks: Text
    public var taskMinutes: Int
    public var address: Text
    public var phone: Text?
    public var latitude: Double?
    public var longitude: Double?
    /// The source's `visitTimeUsed` in minutes, or nil.
    public var timeUsed: Int?
    /// The record's place among the snapshot's records of its (visitId, start) pair: 0 for the
    /// first, 1 for the next, … (the third part of its `VisitKey`).
    public var repetition: Int
    /// Each task's trimmed title (empty when it has none) and planned minutes (0 when it has
    /// none), in the record's order: what the time on the job is shared among. Empty for a row
    /// read for the day list.
    public var plannedTasks: [PlannedTask] = []

    @inlinable
    public init(visitId: Text?, employeeId: Text?, start: Instant, name: Text, state: Text?,
                expectedTime: Text?, tasks: Text, taskMinutes: Int, address: Text, phone: Text?,
                latitude: Double?, longitude: Double?, timeUsed: Int? = nil, repetition: Int = 0,
                plannedTasks: [PlannedTask] = []) {
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
        self.timeUsed = timeUsed
        self.repetition = repetition
        self.plannedTasks = plannedTasks
    }

    /// The same visit with every text member converted by `transform`.
    @inlinable
    public func map<Other>(_ transform: (Text) -> Other) -> VisitRecord<Other> {
        VisitRecord<Other>(visitId: visitId.map(transform), employeeId: employeeId.map(transform), start: start,
                           name: transform(name), state: state.map(transform), expectedTime: expectedTime.map(transform),
                           tasks: transform(tasks), taskMinutes: taskMinutes, address: transform(address),
                           phone: phone.map(transform), latitude: latitude, longitude: longitude,
                           timeUsed: timeUsed, repetition: repetition, plannedTasks: plannedTasks)
    }

    /// Both coordinates, when the visit has them.
    @inlinable
    public var coordinate: (latitude: Double, longitude: Double)? { Visit.coordinate(latitude, longitude) }
}

extension VisitRecord: Sendable where Text: Sendable {}
extension VisitRecord: Equatable where Text: Equatable {}

/// A visit with its text as strings.
public typealias Visit = VisitRecord<String>

extension Visit {
    /// A position only when both of its coordinates are known.
    @inlinable
    public static func coordinate(_ latitude: Double?, _ longitude: Double?) -> (latitude: Double, longitude: Double)? {
        guard let latitude, let longitude else { return nil }
        return (latitude, longitude)
    }
}

extension Visit {
    /// The visit of a record's members once each has been read and checked as `decode` checks
    /// them (`titles` already trimmed, the empty ones left out): the one way `decode` and a
    /// reader of the record's bytes (`VisitDocumentStream`) build a visit, so that both give
    /// the same visit of the same record.
    public static func assemble(visitId: String?, employeeId: String?, start: Instant, firstName: String?,
                                lastName: String?, state: String?, expectedTime: String?, titles: [String],
                                taskMinutes: Int, address: String?, zip: String?, city: String?, phone: String?,
                                latitude: Double?, longitude: Double?, timeUsed: Int?,
                                plannedTasks: [PlannedTask] = []) -> Visit {
        Visit(
            visitId: visitId,
            employeeId: employeeId,
            start: start,
            name: join([firstName, lastName]),
            state: VisitState.display(state),
            expectedTime: expectedTime,
            tasks: titles.joined(separator: ", "),
            taskMinutes: taskMinutes,
            address: join([address, zip, city]),
            phone: phone,
            latitude: latitude,
            longitude: longitude,
            timeUsed: timeUsed,
            plannedTasks: plannedTasks)
    }

    /// Trimmed non-empty parts joined with one space.
    static func join(_ parts: [String?]) -> String {
        var out = ""
        for part in parts {
            guard let text = part?.trimmed, !text.isEmpty else { continue }
            if !out.isEmpty { out += " " }
            out += text
        }
        return out
    }
}

extension String {
    /// The string without leading and trailing white space (Unicode white space and newlines).
    public var trimmed: String {
        // Fast path: nothing to trim when both ends are visible ASCII.
        if let first = utf8.first, let last = utf8.last, first > 0x20, first < 0x7F, last > 0x20, last < 0x7F {
            return self
        }
        let scalars = unicodeScalars
        guard let first = scalars.firstIndex(where: { !$0.properties.isWhitespace }),
              let last = scalars.lastIndex(where: { !$0.properties.isWhitespace }) else { return "" }
        return String(scalars[first...last])
    }
}
