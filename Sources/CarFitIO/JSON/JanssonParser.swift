import CJansson
import CarFitCore

/// Request text → `JSON`, through jansson.
public enum JanssonParser {
    /// A request as an object: empty is `{}`; anything but an object is `bad_json`. `bytes` is
    /// borrowed for the duration of the call.
    public static func object(_ bytes: UnsafeRawBufferPointer, what: String = "request") throws(CarFitError) -> Fields {
        guard let base = bytes.baseAddress, bytes.count > 0 else { return Fields(JSONObject()) }
        let value = try parse(base.assumingMemoryBound(to: CChar.self), length: bytes.count, what: what)
        guard case .object(let object) = value else {
            throw CarFitError(.badJSON, "The \(what) must be a JSON object.",
                              details: .init(position: .start))
        }
        return Fields(object)
    }

    /// Parses `length` bytes. Syntax errors (and invalid UTF-8, and nesting past jansson's
    /// limit) are `bad_json` with jansson's line, column and position.
    public static func parse(_ bytes: UnsafePointer<CChar>, length: Int, what: String = "request") throws(CarFitError) -> JSON {
        var error = json_error_t()
        guard let root = json_loadb(bytes, length, cf_json_flags_any(), &error) else {
            throw badJSON(error, what: what)
        }
        defer { json_decref(root) }
        return convert(root)
    }

    /// Where and why a text is not JSON, as jansson reports it.
    public struct SyntaxError: Error {
        public var text: String
        public var line: Int
        public var column: Int
        public var position: Int
    }

    /// Parses a byte buffer that is not a request (a fetched body, a stored text); an empty
    /// buffer is a syntax error at position 0.
    public static func parse(bytes: [UInt8]) -> Result<JSON, SyntaxError> {
        bytes.withUnsafeBytes { parse(buffer: $0) }
    }

    /// `parse(bytes:)` over borrowed bytes (a buffer the caller owns).
    public static func parse(buffer: UnsafeRawBufferPointer) -> Result<JSON, SyntaxError> {
        guard let raw = buffer.baseAddress, buffer.count > 0 else {
            return .failure(SyntaxError(text: "the text is empty", line: 1, column: 0, position: 0))
        }
        var error = json_error_t()
        guard let root = json_loadb(raw.assumingMemoryBound(to: CChar.self), buffer.count, cf_json_flags_any(), &error) else {
            return .failure(SyntaxError(text: errorText(error), line: Int(error.line),
                                        column: Int(error.column), position: Int(error.position)))
        }
        defer { json_decref(root) }
        return .success(convert(root))
    }

    /// jansson's own description of a parse error ("'[' or '{' expected near '<'").
    static func errorText(_ error: json_error_t) -> String {
        var e = error
        return withUnsafeBytes(of: &e.text) { raw -> String in
            let bytes = raw.bindMemory(to: UInt8.self)
            let end = bytes.firstIndex(of: 0) ?? bytes.count
            return String(decoding: UnsafeBufferPointer(rebasing: bytes[0..<end]), as: UTF8.self)
        }
    }

    static func badJSON(_ error: json_error_t, what: String = "request") -> CarFitError {
        let text = errorText(error)
        let at = CarFitError.TextPosition(line: Int(error.line), column: Int(error.column), offset: Int(error.position))
        return CarFitError(.badJSON, "The \(what) is not valid JSON: \(text).", details: .init(position: at))
    }

    /// The text of a string value (jansson guarantees valid UTF-8).
    static func string(_ value: UnsafeMutablePointer<json_t>) -> String {
        guard let p = json_string_value(value) else { return "" }
        let n = json_string_length(value)
        return p.withMemoryRebound(to: UInt8.self, capacity: n) {
            String(decoding: UnsafeBufferPointer(start: $0, count: n), as: UTF8.self)
        }
    }

    static func convert(_ value: UnsafeMutablePointer<json_t>) -> JSON {
        switch value.pointee.type {
        case JSON_OBJECT:
            var object = JSONObject(minimumCapacity: json_object_size(value))
            var iter = json_object_iter(value)
            while let it = iter {
                if let key = json_object_iter_key(it), let child = json_object_iter_value(it) {
                    object.appendDistinct(String(cString: key), convert(child))
                }
                iter = json_object_iter_next(value, it)
            }
            return .object(object)
        case JSON_ARRAY:
            let n = json_array_size(value)
            var items: [JSON] = []
            items.reserveCapacity(n)
            for i in 0..<n {
                if let child = json_array_get(value, i) { items.append(convert(child)) }
            }
            return .array(items)
        case JSON_STRING: return .string(string(value))
        case JSON_INTEGER: return .int(Int64(json_integer_value(value)))
        case JSON_REAL: return .double(json_real_value(value))
        case JSON_TRUE: return .bool(true)
        case JSON_FALSE: return .bool(false)
        default: return .null
        }
    }
}
