import CJansson
import CarFitCore

/// Imports a visits document without holding it whole: the top-level object is walked member by
/// member (jansson's `JSON_DISABLE_EOF_CHECK` reports where each value ends) and the `data`
/// array by `ElementPipeline`, which parses its elements in batches on worker threads; each
/// record is validated there and written here in document order, and the snapshot is
/// committed only after the closing brace.
///
/// It handles the well-formed shape only. For anything else (a syntax error, a second `data`,
/// no `data` array, a top level that is not an object) it rolls back and answers `.declined`,
/// and the caller parses the document whole: errors then read exactly as for every other request.
/// A document whose records were all rejected is rolled back and refused as `VisitSnapshot`
/// refuses it.
public enum VisitDocumentStream {
    /// What the caller does with the document's members besides `data` once it is read (the
    /// request's check of them): what it throws refuses the document.
    public typealias OtherMembers = (JSONObject) throws(CarFitError) -> Void

    /// Streams the document's records into the sink `begin` opens (once the `data` array is
    /// reached), parsing on `threads` worker threads besides the caller's. `consumed` hears
    /// how far the records have been read and stored (see `ElementPipeline.run`). `members`
    /// gets the document's other members once it is read, before anything is committed: what
    /// it throws rolls the sink back (the request's check of the members besides `data`).
    public static func importVisits<Sink: RecordSink<Visit>>(
        _ bytes: UnsafeRawBufferPointer, threads: Int, consumed: (Int) -> Void = { _ in },
        members: OtherMembers = { _ in },
        begin: () throws(CarFitError) -> Sink
    ) throws(CarFitError) -> StreamedImport {
        var scanner = DocumentScanner(bytes)
        return try importVisits(&scanner, threads: threads, consumed: consumed, members: members, begin: begin)
    }

    /// `importVisits` of the document in `file`, read from its start through its window (never
    /// whole): a file that ends early, or changes while it is read, is declined like any
    /// document that is not well-formed (or, if what was read is one, imported as it was
    /// read); a failed read is declined too (`FileReader.failure` says why).
    public static func importVisits<Sink: RecordSink<Visit>>(
        file: FileReader, threads: Int, consumed: (Int) -> Void = { _ in },
        begin: () throws(CarFitError) -> Sink
    ) throws(CarFitError) -> StreamedImport {
        var scanner = DocumentScanner(file: file)
        return try importVisits(&scanner, threads: threads, consumed: consumed, members: { _ in }, begin: begin)
    }

    private static func importVisits<Sink: RecordSink<Visit>>(
        _ scanner: inout DocumentScanner, threads: Int, consumed: (Int) -> Void,
        members: OtherMembers,
        begin: () throws(CarFitError) -> Sink
    ) throws(CarFitError) -> StreamedImport {
        var writer: Sink?
        var others = JSONObject()
        var rejected: [Rejection] = []
        var imported = 0

        func abandon() -> StreamedImport {
            writer?.rollback()
            return .declined
        }

        scanner.skipSpace()
        guard scanner.take(UInt8(ascii: "{")) else { return .declined }
        scanner.skipSpace()
        if scanner.peek == UInt8(ascii: "}") { return .declined }
        members: while true {
            guard let key = scanner.value(level: 2) else { return abandon() }
            let keyText: String? = key.pointee.type == JSON_STRING ? JanssonParser.string(key) : nil
            json_decref(key)
            guard let name = keyText else { return abandon() }
            scanner.skipSpace()
            guard scanner.take(UInt8(ascii: ":")) else { return abandon() }
            scanner.skipSpace()
            if name == "data" {
                guard writer == nil, scanner.take(UInt8(ascii: "[")) else { return abandon() }
                let w = try begin()
                writer = w
                let pipeline = ElementPipeline<Visit>(level: 3, threads: threads, read: readRecord) { element, index in
                    Visit.decode(recordMembers(element), index: index)
                }
                let outcome = try pipeline.run(&scanner, consumed: consumed) { (result) throws(CarFitError) in
                    switch result {
                    case .success(let visit):
                        try w.append(visit)
                        imported += 1
                    case .failure(let rejection):
                        rejected.append(rejection)
                    }
                }
                guard case .complete = outcome else { return abandon() }
            } else {
                guard let value = scanner.value(level: 2) else { return abandon() }
                others[name] = JanssonParser.convert(value)
                json_decref(value)
            }
            scanner.skipSpace()
            if scanner.take(UInt8(ascii: ",")) { scanner.skipSpace(); continue members }
            if scanner.take(UInt8(ascii: "}")) { break members }
            return abandon()
        }
        scanner.skipSpace()
        guard scanner.atEnd, let writer else { return abandon() }
        do throws(CarFitError) {
            try members(others)
        } catch {
            writer.rollback()
            throw error
        }
        if imported == 0, !rejected.isEmpty {
            writer.rollback()
            throw RecordImport<Visit>.allRejected(rejected, field: "data", record: "visit")
        }
        try writer.commit()
        return .imported(ImportSummary(imported: imported, rejected: rejected))
    }

    /// One record read straight from its bytes by `ElementReader` (only the members
    /// `Visit.decode` reads are built, as `recordMembers` picks them from jansson's tree), or nil
    /// when the reader cannot read it as jansson would (jansson then parses it).
    @Sendable static func readRecord(_ bytes: UnsafeRawBufferPointer, index: Int) -> Result<Visit, Rejection>? {
        guard let base = bytes.baseAddress else { return nil }
        var reader = ElementReader(base.assumingMemoryBound(to: UInt8.self), count: bytes.count)
        if let visit = usualRecord(&reader), reader.atEnd() { return .success(visit) }
        // Anything else is read again as members (`Visit.decode` then says what is wrong).
        reader = ElementReader(base.assumingMemoryBound(to: UInt8.self), count: bytes.count)
        guard let record = reader.pick(recordKeys, depth: 0, read: { reader, slot in
            slot == tasksSlot && reader.next == 0x5B ? readTasks(&reader) : reader.value(depth: 1)
        }, other: { reader in
            reader.skipValue() ? JSON.null : Optional<JSON>.none
        }), reader.atEnd() else { return nil }
        return Visit.decode(record, index: index)
    }

    /// The members `usualRecord` reads, in the order of its slots (the same names as
    /// `Visit.memberNames`).
    static let usualKeys = ElementReader.KeyTable([
        "visitId", "homeBobEmployeeId", "startTimeUtc", "houseOwnerFirstName", "houseOwnerLastName",
        "visitState", "expectedTime", "houseOwnerAddress", "houseOwnerZip", "houseOwnerCity",
        "houseOwnerMobilePhone", "houseOwnerLatitude", "houseOwnerLongitude", "visitTimeUsed", "tasks",
    ])
    /// The slots of `usualKeys` that hold text.
    static let usualTexts = 11

    /// A record of the usual kind read straight into its visit, as `Visit.decode` would make
    /// it: every member it reads of the right type and in range, each present once, the start
    /// a valid date and time. Nil for anything else, however well-formed (the caller then reads
    /// the record as members, so that every rejection is `Visit.decode`'s own).
    static func usualRecord(_ r: inout ElementReader) -> Visit? {
        guard r.take(0x7B) else { return nil }
        var texts: (String?, String?, String?, String?, String?, String?, String?, String?, String?, String?, String?)
            = (nil, nil, nil, nil, nil, nil, nil, nil, nil, nil, nil)
        var latitude: Double?
        var longitude: Double?
        var timeUsed: Int?
        var titles: [String] = []
        var minutes = 0
        var planned: [PlannedTask] = []
        var seen: UInt32 = 0
        if !r.take(0x7D) {
            while true {
                guard r.next == 0x22 else { return nil }
                let slot: Int?
                switch r.rawString() {
                case .plain(let bytes)?: slot = usualKeys.slot(of: bytes)
                case .escaped?:
                    guard let key = r.string() else { return nil }
                    slot = usualKeys.slot(of: key)
                case nil: return nil
                }
                guard r.take(0x3A) else { return nil }
                if let slot {
                    guard seen & (1 << slot) == 0 else { return nil }
                    seen |= 1 << slot
                    switch slot {
                    case 0..<usualTexts:
                        let text: String?
                        switch r.next {
                        case 0x22?:
                            guard let s = r.string() else { return nil }
                            text = s
                        case 0x6E?:
                            guard r.literal("null") else { return nil }
                            text = nil
                        default: return nil
                        }
                        switch slot {
                        case 0: texts.0 = text
                        case 1: texts.1 = text
                        case 2: texts.2 = text
                        case 3: texts.3 = text
                        case 4: texts.4 = text
                        case 5: texts.5 = text
                        case 6: texts.6 = text
                        case 7: texts.7 = text
                        case 8: texts.8 = text
                        case 9: texts.9 = text
                        default: texts.10 = text
                        }
                    case 11, 12:
                        var value: Double?
                        if r.next == 0x6E {
                            guard r.literal("null") else { return nil }
                        } else {
                            switch r.number() {
                            case .int(let i)?: value = Double(i)
                            case .double(let d)?: value = d
                            default: return nil
                            }
                            let limit: Double = slot == 11 ? 90 : 180
                            guard let v = value, v.isFinite, v >= -limit, v <= limit else { return nil }
                        }
                        if slot == 11 { latitude = value } else { longitude = value }
                    case 13:
                        // Anything but a whole number of minutes in range is no time used.
                        switch r.next {
                        case 0x2D?, .some(0x30...0x39):
                            guard let n = r.number() else { return nil }
                            if case .int(let m) = n, (0...100_000).contains(m) { timeUsed = Int(m) }
                        default:
                            guard r.skipValue(depth: 1) else { return nil }
                        }
                    default:
                        guard usualTasks(&r, titles: &titles, minutes: &minutes, planned: &planned) else { return nil }
                    }
                } else {
                    guard r.skipValue(depth: 1) else { return nil }
                }
                if r.take(0x2C) { continue }
                guard r.take(0x7D) else { return nil }
                break
            }
        }
        guard let startText = texts.2, let start = Instant(iso: startText) else { return nil }
        return Visit.assemble(visitId: texts.0, employeeId: texts.1, start: start, firstName: texts.3,
                              lastName: texts.4, state: texts.5, expectedTime: texts.6, titles: titles,
                              taskMinutes: minutes, address: texts.7, zip: texts.8, city: texts.9,
                              phone: texts.10, latitude: latitude, longitude: longitude, timeUsed: timeUsed,
                              plannedTasks: planned)
    }

    /// The `tasks` of a usual record (null, or an array of objects whose title is text or null
    /// and whose timesInMinutes is a whole number from 0 to 100,000 or null, each present
    /// once): their trimmed non-empty titles, the sum of their minutes and each task as planned.
    /// False for anything else.
    static func usualTasks(_ r: inout ElementReader, titles: inout [String], minutes: inout Int,
                           planned: inout [PlannedTask]) -> Bool {
        if r.next == 0x6E { return r.literal("null") }
        guard r.take(0x5B) else { return false }
        if r.take(0x5D) { return true }
        while true {
            guard r.take(0x7B) else { return false }
            var seen: UInt32 = 0
            var task = PlannedTask(title: "", minutes: 0)
            if !r.take(0x7D) {
                while true {
                    guard r.next == 0x22 else { return false }
                    let slot: Int?
                    switch r.rawString() {
                    case .plain(let bytes)?: slot = taskKeys.slot(of: bytes)
                    case .escaped?:
                        guard let key = r.string() else { return false }
                        slot = taskKeys.slot(of: key)
                    case nil: return false
                    }
                    guard r.take(0x3A) else { return false }
                    if let slot {
                        guard seen & (1 << slot) == 0 else { return false }
                        seen |= 1 << slot
                        if r.next == 0x6E {
                            guard r.literal("null") else { return false }
                        } else if slot == titleSlot {
                            guard r.next == 0x22, let title = r.string()?.trimmed else { return false }
                            if !title.isEmpty { titles.append(title) }
                            task.title = title
                        } else {
                            guard case .int(let m)? = r.number(), (0...100_000).contains(m) else { return false }
                            minutes += Int(m)
                            task.minutes = Int(m)
                        }
                    } else {
                        guard r.skipValue(depth: 3) else { return false }
                    }
                    if r.take(0x2C) { continue }
                    guard r.take(0x7D) else { return false }
                    break
                }
            }
            planned.append(task)
            if r.take(0x2C) { continue }
            return r.take(0x5D)
        }
    }

    static let titleSlot = Visit.taskMemberNames.firstIndex(of: "title") ?? -1

    static let recordKeys = ElementReader.KeyTable(Visit.memberNames)
    static let taskKeys = ElementReader.KeyTable(Visit.taskMemberNames)
    static let tasksSlot = Visit.memberNames.firstIndex(of: "tasks") ?? -1

    /// A `tasks` array (the reader at its `[`, one level inside the record) with only the
    /// members `Visit.decode` reads of each object in it, as `taskMembers` builds it.
    static func readTasks(_ reader: inout ElementReader) -> JSON? {
        guard reader.take(0x5B) else { return nil }
        var items: [JSON] = []
        if reader.take(0x5D) { return .array(items) }
        while true {
            guard let item = reader.pick(taskKeys, depth: 2, read: { reader, _ in reader.value(depth: 3) },
                                         other: { reader in reader.value(depth: 2) }) else { return nil }
            items.append(item)
            if reader.take(0x2C) { continue }
            guard reader.take(0x5D) else { return Optional<JSON>.none }
            return .array(items)
        }
    }

    /// `Visit.memberNames` and `Visit.taskMemberNames` with their C strings for jansson.
    static let memberKeys = Visit.memberNames.map { ($0, Array($0.utf8CString)) }
    static let taskMemberKeys = Visit.taskMemberNames.map { ($0, Array($0.utf8CString)) }

    /// A record with only the members `Visit.decode` reads, and of each task object only the
    /// members it reads (others are not converted at all); anything but an object is null, which
    /// `Visit.decode` refuses as not a record.
    static func recordMembers(_ element: UnsafeMutablePointer<json_t>) -> JSON {
        guard element.pointee.type == JSON_OBJECT else { return .null }
        return pick(memberKeys, of: element) { name, member in
            name == "tasks" && member.pointee.type == JSON_ARRAY ? taskMembers(member) : JanssonParser.convert(member)
        }
    }

    /// The members named in `keys` that `object` has, each converted by `convert`, in `keys` order.
    static func pick(_ keys: [(String, [CChar])], of object: UnsafeMutablePointer<json_t>,
                     _ convert: (String, UnsafeMutablePointer<json_t>) -> JSON) -> JSON {
        var picked = JSONObject(minimumCapacity: keys.count)
        for (name, key) in keys {
            guard let member = key.withUnsafeBufferPointer({ json_object_get(object, $0.baseAddress) }) else { continue }
            picked.appendDistinct(name, convert(name, member))
        }
        return .object(picked)
    }

    /// A `tasks` array with only the members `Visit.decode` reads of each object in it.
    static func taskMembers(_ tasks: UnsafeMutablePointer<json_t>) -> JSON {
        let n = json_array_size(tasks)
        var items: [JSON] = []
        items.reserveCapacity(n)
        for i in 0..<n {
            guard let task = json_array_get(tasks, i) else { continue }
            items.append(task.pointee.type == JSON_OBJECT
                ? pick(taskMemberKeys, of: task) { _, member in JanssonParser.convert(member) }
                : JanssonParser.convert(task))
        }
        return .array(items)
    }
}
