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
    /// Streams the document's records into the sink `begin` opens (once the `data` array is
    /// reached), parsing on `threads` worker threads besides the caller's. `consumed` hears
    /// how far the records have been read and stored (see `ElementPipeline.run`).
    public static func importVisits<Sink: RecordSink<Visit>>(
        _ bytes: UnsafeRawBufferPointer, threads: Int, consumed: (Int) -> Void = { _ in },
        begin: () throws(CarFitError) -> Sink
    ) throws(CarFitError) -> StreamedImport {
        var scanner = DocumentScanner(bytes)
        return try importVisits(&scanner, threads: threads, consumed: consumed, begin: begin)
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
        return try importVisits(&scanner, threads: threads, consumed: consumed, begin: begin)
    }

    private static func importVisits<Sink: RecordSink<Visit>>(
        _ scanner: inout DocumentScanner, threads: Int, consumed: (Int) -> Void,
        begin: () throws(CarFitError) -> Sink
    ) throws(CarFitError) -> StreamedImport {
        var writer: Sink?
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
                json_decref(value)
            }
            scanner.skipSpace()
            if scanner.take(UInt8(ascii: ",")) { scanner.skipSpace(); continue members }
            if scanner.take(UInt8(ascii: "}")) { break members }
            return abandon()
        }
        scanner.skipSpace()
        guard scanner.atEnd, let writer else { return abandon() }
        if imported == 0, !rejected.isEmpty {
            writer.rollback()
            throw RecordImport<Visit>.allRejected(rejected, field: "data", record: "visit")
        }
        try writer.commit()
        return .imported(RecordImport<Visit>.response(imported: imported, rejected: rejected))
    }

    /// One record read straight from its bytes by `ElementReader` (only the members
    /// `Visit.decode` reads are built, as `recordMembers` picks them from jansson's tree), or nil
    /// when the reader cannot read it as jansson would (jansson then parses it).
    @Sendable static func readRecord(_ bytes: UnsafeRawBufferPointer, index: Int) -> Result<Visit, Rejection>? {
        guard let base = bytes.baseAddress else { return nil }
        var reader = ElementReader(base.assumingMemoryBound(to: UInt8.self), count: bytes.count)
        guard let record = reader.pick(recordKeys, depth: 0, read: { reader, slot in
            slot == tasksSlot && reader.next == 0x5B ? readTasks(&reader) : reader.value(depth: 1)
        }, other: { reader in
            reader.skipValue() ? JSON.null : nil
        }), reader.atEnd() else { return nil }
        return Visit.decode(record, index: index)
    }

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
            return reader.take(0x5D) ? .array(items) : nil
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
