/// One visit: the source record reduced to what the card and the plan need. Its text members
/// are `Text`: owned strings for a decoded or loaded visit (`Visit`, built only by
/// `Visit.decode`, which applies every rule of the card table), or views of a stored row's bytes
/// for the day list written straight from the store (`VisitRow`, in the I/O module). One list
/// of members for both.
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

    @inlinable
    public init(visitId: Text?, employeeId: Text?, start: Instant, name: Text, state: Text?,
                expectedTime: Text?, tasks: Text, taskMinutes: Int, address: Text, phone: Text?,
                latitude: Double?, longitude: Double?, timeUsed: Int? = nil, repetition: Int = 0) {
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
    }

    /// The same visit with every text member converted by `transform`.
    @inlinable
    public func map<Other>(_ transform: (Text) -> Other) -> VisitRecord<Other> {
        VisitRecord<Other>(visitId: visitId.map(transform), employeeId: employeeId.map(transform), start: start,
                           name: transform(name), state: state.map(transform), expectedTime: expectedTime.map(transform),
                           tasks: transform(tasks), taskMinutes: taskMinutes, address: transform(address),
                           phone: phone.map(transform), latitude: latitude, longitude: longitude,
                           timeUsed: timeUsed, repetition: repetition)
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
    /// The members of a source record that `decode` reads; a reader may pass only these.
    public static let memberNames = [
        "visitId", "homeBobEmployeeId", "startTimeUtc", "houseOwnerFirstName", "houseOwnerLastName",
        "visitState", "expectedTime", "tasks", "houseOwnerAddress", "houseOwnerZip", "houseOwnerCity",
        "houseOwnerMobilePhone", "houseOwnerLatitude", "houseOwnerLongitude", "visitTimeUsed",
    ]

    /// The members of each object of `tasks` that `decode` reads.
    public static let taskMemberNames = ["title", "timesInMinutes"]

    /// Validates one source record (`data[index]`). Only `startTimeUtc` is required; other
    /// members may be null or missing but must have the right type when present.
    public static func decode(_ value: JSON, index: Int) -> Result<Visit, Rejection> {
        RecordImport.decode(value, index: index, decode)
    }

    static func decode(_ f: Fields) throws(CarFitError) -> Visit {
        let startText = try f.requiredString("startTimeUtc")
        guard let start = Instant(iso: startText) else {
            throw .invalid("startTimeUtc", "startTimeUtc \"\(startText.prefix(40))\" is not a valid ISO 8601 date and time.")
        }
        let latitude = try f.number("houseOwnerLatitude", in: -90...90)
        let longitude = try f.number("houseOwnerLongitude", in: -180...180)

        var titles: [String] = []
        var minutes = 0
        if let tasks = try f.array("tasks") {
            for (i, task) in tasks.enumerated() {
                let path = "tasks[\(i)]"
                guard case .object(let t) = task else { throw .invalid(path, "\(path) must be an object.") }
                let tf = Fields(t, path: path)
                if let title = try tf.string("title")?.trimmed, !title.isEmpty { titles.append(title) }
                if let m = try tf.int("timesInMinutes", in: 0...100_000) { minutes += Int(m) }
            }
        }
        let state = try f.string("visitState")
        let expected = try f.string("expectedTime")
        return assemble(
            visitId: try f.string("visitId"),
            employeeId: try f.string("homeBobEmployeeId"),
            start: start,
            firstName: try f.string("houseOwnerFirstName"), lastName: try f.string("houseOwnerLastName"),
            state: state,
            expectedTime: expected,
            titles: titles,
            taskMinutes: minutes,
            address: try f.string("houseOwnerAddress"), zip: try f.string("houseOwnerZip"), city: try f.string("houseOwnerCity"),
            phone: try f.string("houseOwnerMobilePhone"),
            latitude: latitude,
            longitude: longitude,
            timeUsed: timeUsed(f))
    }

    /// The visit of a record's members once each has been read and checked as `decode` checks
    /// them (`titles` already trimmed, the empty ones left out): the one way `decode` and a
    /// reader of the record's bytes (`VisitDocumentStream`) build a visit, so that both give
    /// the same visit of the same record.
    public static func assemble(visitId: String?, employeeId: String?, start: Instant, firstName: String?,
                                lastName: String?, state: String?, expectedTime: String?, titles: [String],
                                taskMinutes: Int, address: String?, zip: String?, city: String?, phone: String?,
                                latitude: Double?, longitude: Double?, timeUsed: Int?) -> Visit {
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
            timeUsed: timeUsed)
    }

    /// `visitTimeUsed` when it is a whole number of minutes from 0 to 100,000; anything else
    /// (missing, null, text, a fraction, out of range) is no time used rather than a rejected
    /// record: 1.0 stored such records and a refresh must not start dropping them.
    static func timeUsed(_ f: Fields) -> Int? {
        guard case .int(let minutes)? = f.value("visitTimeUsed"), (0...100_000).contains(minutes) else { return nil }
        return Int(minutes)
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
