import CJansson
import CarFitCore

/// A cursor over a JSON document's bytes: values parsed one at a time by jansson, array
/// elements found by a scan of strings and brackets.
struct DocumentScanner {
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
        let deepest = DocumentScanner.deepestContainers(atLevel: level)
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
