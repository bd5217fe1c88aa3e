import CJansson
import CarFitCore

extension JanssonParser {
    /// A file as a JSON object, read whole from its start as it is now (not through its
    /// window): empty is `{}`; anything but an object is `bad_json`, as `object(_:what:)`
    /// answers for the same bytes. A failed read is `invalid` with the file's field.
    public static func object(file: FileReader, what: String) throws(CarFitError) -> Fields {
        let (root, error, read) = try load(file)
        guard let root else {
            if read == 0 { return Fields(JSONObject()) }
            throw badJSON(error, what: what)
        }
        defer { json_decref(root) }
        guard case .object(let object) = convert(root) else {
            throw CarFitError(.badJSON, "The \(what) must be a JSON object.",
                              details: .init(position: .start))
        }
        return Fields(object)
    }

    /// A file parsed whole, as `parse(buffer:)` parses the same bytes. A failed read is
    /// `invalid` with the file's field.
    public static func parse(file: FileReader) throws(CarFitError) -> Result<JSON, SyntaxError> {
        let (root, error, read) = try load(file)
        guard let root else {
            if read == 0 { return .failure(SyntaxError(text: "the text is empty", line: 1, column: 0, position: 0)) }
            return .failure(SyntaxError(text: errorText(error), line: Int(error.line),
                                        column: Int(error.column), position: Int(error.position)))
        }
        defer { json_decref(root) }
        return .success(convert(root))
    }

    /// jansson's parse of the file through its read callback: the root (a new reference), the
    /// error and how many bytes were read.
    private static func load(_ file: FileReader) throws(CarFitError) -> (UnsafeMutablePointer<json_t>?, json_error_t, Int) {
        let cursor = FileCursor(file)
        var error = json_error_t()
        let root = withExtendedLifetime(cursor) {
            json_load_callback({ buffer, length, data in
                guard let buffer, let data else { return -1 }
                return Unmanaged<FileCursor>.fromOpaque(data).takeUnretainedValue().next(into: buffer, length: length)
            }, Unmanaged.passUnretained(cursor).toOpaque(), cf_json_flags_any(), &error)
        }
        if cursor.failed {
            if let root { json_decref(root) }
            throw file.readFailure()
        }
        return (root, error, cursor.offset)
    }

    /// The file from its start, handed to jansson in the small pieces it asks for from reads
    /// of a megabyte.
    private final class FileCursor {
        let file: FileReader
        let buffer: UnsafeMutableRawPointer
        let capacity = 1 << 20
        var start = 0
        var end = 0
        /// Bytes of the file read so far.
        var offset = 0
        var failed = false

        init(_ file: FileReader) {
            self.file = file
            buffer = UnsafeMutableRawPointer.allocate(byteCount: capacity, alignment: 16)
        }

        deinit { buffer.deallocate() }

        /// Up to `length` next bytes into `target`: their count, 0 at the end, -1 on a failed read.
        func next(into target: UnsafeMutableRawPointer, length: Int) -> Int {
            if start == end {
                guard let n = file.read(into: buffer, length: capacity, at: offset) else {
                    failed = true
                    return -1
                }
                offset += n
                start = 0
                end = n
                if n == 0 { return 0 }
            }
            let n = min(length, end - start)
            target.copyMemory(from: buffer + start, byteCount: n)
            start += n
            return n
        }
    }
}
