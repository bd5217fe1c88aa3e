import CJansson
import CarFitCore
import CarFitStore

/// Imports a visits document without holding it whole: the top-level object is walked member by
/// member and the `data` array element by element (jansson's `JSON_DISABLE_EOF_CHECK` reports
/// where each value ends), each record is validated and written at once, and the snapshot is
/// committed only after the closing brace.
///
/// It handles the well-formed shape only. For anything else (a syntax error, a second `data`,
/// no `data` array, a top level that is not an object) it rolls back and answers nil, and the
/// caller parses the document whole: errors then read exactly as for every other request.
enum VisitDocumentStream {
    static func importVisits(_ bytes: UnsafeRawBufferPointer, into store: VisitStore) throws(CarFitError) -> JSON? {
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
            guard let key = scanner.value() else { return abandon() }
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
                scanner.skipSpace()
                if !scanner.take(UInt8(ascii: "]")) {
                    var index = 0
                    while true {
                        guard let element = scanner.value() else { return abandon() }
                        let record = recordMembers(element)
                        json_decref(element)
                        switch Visit.decode(record, index: index) {
                        case .success(let visit):
                            try w.append(visit)
                            imported += 1
                        case .failure(let rejection):
                            rejected.append(rejection)
                        }
                        index += 1
                        scanner.skipSpace()
                        if scanner.take(UInt8(ascii: ",")) { scanner.skipSpace(); continue }
                        if scanner.take(UInt8(ascii: "]")) { break }
                        return abandon()
                    }
                }
            } else {
                guard let value = scanner.value() else { return abandon() }
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

    /// A record with only the members `Visit.decode` reads (others are not converted at all);
    /// anything but an object whole, for the rejection to describe.
    static func recordMembers(_ element: UnsafeMutablePointer<json_t>) -> JSON {
        guard element.pointee.type == JSON_OBJECT else { return JanssonParser.convert(element) }
        var object = JSONObject()
        for name in Visit.memberNames {
            if let member = json_object_get(element, name) { object[name] = JanssonParser.convert(member) }
        }
        return .object(object)
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

        /// Parses the one JSON value starting here and moves past it; nil on a syntax error.
        /// New reference: the caller releases it with json_decref.
        mutating func value() -> UnsafeMutablePointer<json_t>? {
            guard offset < bytes.count, let base = bytes.baseAddress else { return nil }
            var error = json_error_t()
            let start = (base + offset).assumingMemoryBound(to: CChar.self)
            guard let v = json_loadb(start, bytes.count - offset, cf_json_flags_one_value(), &error) else { return nil }
            let consumed = Int(error.position)
            guard consumed > 0, consumed <= bytes.count - offset else {
                json_decref(v)
                return nil
            }
            offset += consumed
            return v
        }
    }
}
