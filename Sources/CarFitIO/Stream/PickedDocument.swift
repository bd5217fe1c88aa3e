import CarFitCore

/// A document read straight from its bytes into only the members its decoder reads: the
/// articles and catalog imports hand the result to the same decoders (`Fields`) as a whole
/// jansson tree, without building a tree of every value first.
///
/// The reading is `ElementReader`'s: it accepts exactly the JSON jansson accepts, or less, and
/// a picked value is the value jansson would give (a repeated key keeps its last value, in the
/// place of its first, as jansson keeps it). Whenever it cannot vouch for that (a syntax error
/// anywhere, invalid UTF-8, `\u0000`, a number out of range, nesting past its limit, a document
/// that is not an object) it answers nil and its caller parses the document with jansson, so
/// that the answer, and any error with its line, column and position, is jansson's.
public struct PickedDocument: Sendable {
    /// What is read of a value.
    indirect enum Pick: Sendable {
        /// The whole value.
        case whole
        /// An object's members `keys` (each read by its pick); anything else whole.
        case members(ElementReader.KeyTable, [Pick])
        /// An array whose elements are objects read by `record` (anything else whole);
        /// anything but an array whole.
        case records(Pick)

        /// An object of the members `fields`, each value read whole.
        static func record(_ fields: [String]) -> Pick {
            .members(ElementReader.KeyTable(fields), Array(repeating: .whole, count: fields.count))
        }

        /// An object of the members `members`, each read by its pick.
        static func object(_ members: [(String, Pick)]) -> Pick {
            .members(ElementReader.KeyTable(members.map(\.0)), members.map(\.1))
        }
    }

    let root: Pick

    init(_ root: Pick) { self.root = root }

    /// The document in `bytes` (an object) with only the picked members, or nil when jansson
    /// must read it (see the type's note). An empty text is nil too.
    public func read(_ bytes: UnsafeRawBufferPointer) -> JSONObject? {
        guard let base = bytes.baseAddress, bytes.count > 0 else { return nil }
        var reader = ElementReader(base.assumingMemoryBound(to: UInt8.self), count: bytes.count)
        guard reader.next == 0x7B, case .object(let object)? = Self.read(root, &reader, depth: 0),
              reader.atEnd() else { return nil }
        return object
    }

    /// The value starting at the reader (after white space), read by `pick`; nil when malformed.
    static func read(_ pick: Pick, _ reader: inout ElementReader, depth: Int) -> JSON? {
        switch pick {
        case .whole:
            return reader.value(depth: depth)
        case .members(let keys, let picks):
            return reader.pick(keys, depth: depth,
                               read: { r, slot in read(picks[slot], &r, depth: depth + 1) },
                               other: { r in r.value(depth: depth) })
        case .records(let record):
            guard reader.next == 0x5B else { return reader.value(depth: depth) }
            guard depth < ElementReader.maxDepth else { return nil }
            reader.i += 1
            var items: [JSON] = []
            if reader.take(0x5D) { return .array(items) }
            while true {
                guard let v = read(record, &reader, depth: depth + 1) else { return nil }
                items.append(v)
                if reader.take(0x2C) { continue }
                guard reader.take(0x5D) else { return nil }
                return .array(items)
            }
        }
    }
}

extension PickedDocument {
    /// A request or document object read as `Fields`: the picked members when the bytes can be
    /// read here, else jansson's parse of the whole text (`bad_json` with jansson's line,
    /// column and position, and "must be a JSON object"), as `JanssonParser.object` reads a
    /// request.
    public func fields(_ bytes: UnsafeRawBufferPointer, what: String = "request") throws(CarFitError) -> Fields {
        if let object = read(bytes) { return Fields(object) }
        return try JanssonParser.object(bytes, what: what)
    }
}

#if canImport(Glibc)
import Glibc
#endif

extension PickedDocument {
    /// The document in `file`, read whole into memory and then as `read(_:)`; nil when jansson
    /// must read it, or when the file cannot be read whole (no memory for it, a failed read, a
    /// file that changed size meanwhile): jansson's reading of it then gives the answer.
    public func read(file: FileReader) -> JSONObject? {
        let size = file.count
        guard size > 0, let buffer = malloc(size) else { return nil }
        defer { free(buffer) }
        var filled = 0
        while filled < size {
            guard let n = file.read(into: buffer + filled, length: size - filled, at: filled), n > 0 else { return nil }
            filled += n
        }
        return read(UnsafeRawBufferPointer(start: buffer, count: size))
    }
}
