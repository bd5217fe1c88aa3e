import CJansson
import CarFitCore
import CarFitStore

/// Imports a visits document without holding it whole: the top-level object is walked member by
/// member (jansson's `JSON_DISABLE_EOF_CHECK` reports where each value ends) and the `data`
/// array by `ElementPipeline`, which parses its elements in batches on worker threads; each
/// record is validated there and written here in document order, and the snapshot is
/// committed only after the closing brace.
///
/// It handles the well-formed shape only. For anything else (a syntax error, a second `data`,
/// no `data` array, a top level that is not an object) it rolls back and answers nil, and the
/// caller parses the document whole: errors then read exactly as for every other request.
enum VisitDocumentStream {
    static func importVisits(_ bytes: UnsafeRawBufferPointer, into store: VisitStore, threads: Int) throws(CarFitError) -> JSON? {
        var scanner = Scanner(bytes)
        var writer: VisitStore.SnapshotWriter?
        var rejected: [Rejection] = []
        var imported = 0

        func abandon() -> JSON? {
            writer?.rollback()
            return nil
        }

        scanner.skipSpace()
        guard scanner.take(UInt8(ascii: "{")) else { return nil }
        scanner.skipSpace()
        if scanner.peek == UInt8(ascii: "}") { return nil }
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
                let w = try store.beginSnapshot()
                writer = w
                let pipeline = ElementPipeline<Visit>(level: 3, threads: threads) { element, index in
                    Visit.decode(recordMembers(element), index: index)
                }
                let outcome = try pipeline.run(&scanner) { (result) throws(CarFitError) in
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
        try writer.commit()
        return RecordImport<Visit>.response(imported: imported, rejected: rejected)
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

    /// A cursor over the document's bytes.
    struct Scanner {
        let bytes: UnsafeRawBufferPointer
        var offset = 0

        init(_ bytes: UnsafeRawBufferPointer) { self.bytes = bytes }

        var atEnd: Bool { offset >= bytes.count }
        var peek: UInt8? { offset < bytes.count ? bytes[offset] : nil }

        mutating func skipSpace() {
            while offset < bytes.count {
                switch bytes[offset] {
                case 0x20, 0x09, 0x0A, 0x0D: offset += 1
                default: return
                }
            }
        }

        mutating func take(_ byte: UInt8) -> Bool {
            guard peek == byte else { return false }
            offset += 1
            return true
        }

        /// Parses the one JSON value starting here, `level` values below the top of the document
        /// (a top-level member's value is at level 2), and moves past it; nil on a syntax error,
        /// and also when the value might nest past jansson's limit of JSON_PARSER_MAX_DEPTH
        /// values counted from the top of the document (jansson, parsing the value alone,
        /// counts from the value): the whole-document parse then refuses it as every request.
        /// New reference: the caller releases it with json_decref.
        mutating func value(level: Int) -> UnsafeMutablePointer<json_t>? {
            guard offset < bytes.count, let base = bytes.baseAddress else { return nil }
            var error = json_error_t()
            let start = (base + offset).assumingMemoryBound(to: CChar.self)
            guard let v = json_loadb(start, bytes.count - offset, cf_json_flags_one_value(), &error) else { return nil }
            let consumed = Int(error.position)
            // c containers take at least 2c bytes: only a long value needs the count.
            let deepest = Scanner.deepestContainers(atLevel: level)
            guard consumed > 0, consumed <= bytes.count - offset,
                  consumed < 2 * deepest || containerDepth(from: offset, count: consumed) <= deepest else {
                json_decref(v)
                return nil
            }
            offset += consumed
            return v
        }

        /// The most containers a value `level` values below the top of the document may nest
        /// before jansson refuses the document: a value nested c containers deep is c + 1
        /// values deep, and jansson allows JSON_PARSER_MAX_DEPTH values from the top.
        static func deepestContainers(atLevel level: Int) -> Int {
            Int(JSON_PARSER_MAX_DEPTH) - (level - 1) - 1
        }

        /// One element of an array, as `elementSpan` finds it.
        struct ElementSpan {
            /// The element's bytes, from its first character up to (not including) the comma or
            /// closing bracket after it; white space before that is included.
            var range: Range<Int>
            /// The deepest nesting of arrays and objects inside it.
            var depth: Int
            /// Whether the array's closing bracket followed it.
            var last: Bool
        }

        /// Finds where the array element starting here ends, without parsing it: a scan of
        /// strings and brackets up to the next comma or closing bracket outside them, which
        /// it moves past. Nil when the bytes end first or a `}` closes more than was opened.
        /// For well-formed JSON the span is exactly the element; for anything else the span's
        /// parse fails, so a caller that parses every span accepts only a well-formed array.
        mutating func elementSpan() -> ElementSpan? {
            skipSpace()
            guard let base = bytes.baseAddress?.assumingMemoryBound(to: UInt8.self) else { return nil }
            let n = bytes.count
            let start = offset
            var i = offset
            var depth = 0
            var deepest = 0
            while i < n {
                let byte = base[i]
                switch byte {
                case 0x22:
                    i += 1
                    while i < n {
                        let c = base[i]
                        if c == 0x22 { break }
                        i += c == 0x5C ? 2 : 1
                    }
                    guard i < n else { return nil }
                case 0x5B, 0x7B:
                    depth += 1
                    if depth > deepest { deepest = depth }
                case 0x5D, 0x7D:
                    if depth == 0 {
                        guard byte == 0x5D else { return nil }
                        offset = i + 1
                        return ElementSpan(range: start..<i, depth: deepest, last: true)
                    }
                    depth -= 1
                case 0x2C where depth == 0:
                    offset = i + 1
                    return ElementSpan(range: start..<i, depth: deepest, last: false)
                default:
                    break
                }
                i += 1
            }
            return nil
        }

        /// The deepest nesting of arrays and objects in `count` bytes of JSON text at `from`.
        func containerDepth(from: Int, count: Int) -> Int {
            var depth = 0
            var deepest = 0
            var inString = false
            var escaped = false
            for i in from..<(from + count) {
                let byte = bytes[i]
                if inString {
                    if escaped { escaped = false } else if byte == 0x5C { escaped = true } else if byte == 0x22 { inString = false }
                } else if byte == 0x22 {
                    inString = true
                } else if byte == 0x5B || byte == 0x7B {
                    depth += 1
                    deepest = max(deepest, depth)
                } else if byte == 0x5D || byte == 0x7D {
                    depth -= 1
                }
            }
            return deepest
        }
    }
}
