import CarFitCore

/// A visits document's records read into `Visit`s: the rules of the card table applied to a
/// source record's members (`Visit.decode`), and the document around them (`VisitSnapshot`).
/// The streamed import (`VisitDocumentStream`) reads the usual records straight from their bytes
/// and hands every other one to `Visit.decode`, so both give the same visit or rejection.
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

    /// One source record's members read into its visit; the first offending member is the `invalid`
    /// error's field.
    public static func decode(_ f: Fields) throws(CarFitError) -> Visit {
        let startText = try f.requiredString("startTimeUtc")
        guard let start = Instant(iso: startText) else {
            throw .invalid("startTimeUtc", "startTimeUtc \"\(startText.prefix(40))\" is not a valid ISO 8601 date and time.")
        }
        let latitude = try f.number("houseOwnerLatitude", in: -90...90)
        let longitude = try f.number("houseOwnerLongitude", in: -180...180)

        var titles: [String] = []
        var minutes = 0
        var planned: [PlannedTask] = []
        if let tasks = try f.array("tasks") {
            for (i, task) in tasks.enumerated() {
                let path = "tasks[\(i)]"
                guard case .object(let t) = task else { throw .invalid(path, "\(path) must be an object.") }
                let tf = Fields(t, path: path)
                let title = try tf.string("title")?.trimmed ?? ""
                if !title.isEmpty { titles.append(title) }
                let m = Int(try tf.int("timesInMinutes", in: 0...100_000) ?? 0)
                minutes += m
                planned.append(PlannedTask(title: title, minutes: m))
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
            timeUsed: timeUsed(f),
            plannedTasks: planned)
    }

    /// `visitTimeUsed` when it is a whole number of minutes from 0 to 100,000; anything else
    /// (missing, null, text, a fraction, out of range) is no time used rather than a rejected
    /// record: 1.0 stored such records and a refresh must not start dropping them.
    static func timeUsed(_ f: Fields) -> Int? {
        guard case .int(let minutes)? = f.value("visitTimeUsed"), (0...100_000).contains(minutes) else { return nil }
        return Int(minutes)
    }
}

extension RecordImport where Record == Visit {
    /// The visits of an API document: `{"data": [...]}` (`success`, `message`, `code` ignored).
    /// A document without a `data` array, or with records of which none is valid, is
    /// `invalid` (and nothing may be stored from it).
    public init(document f: Fields) throws(CarFitError) {
        guard let data = f.object["data"], case .array(let records) = data else {
            throw .invalid("data", "The document has no data array of visits.")
        }
        self.init(records, decode: Visit.decode)
        try requireAccepted(field: "data", record: "visit")
    }

    /// The visits document in `file`, parsed whole (`what` names it in a parse error). A file
    /// read as something other than a visits document (empty, or rewritten by another process
    /// meanwhile) is the file's fault, not a member's: `invalid`, field `file`.
    public init(file: FileReader, what: String = "visits file") throws(CarFitError) {
        let document = try JanssonParser.object(file: file, what: what)
        guard document.has("data") else {
            throw .invalid("file", "The visits file holds no \"data\" array of visits.")
        }
        try self.init(document: document)
    }
}
