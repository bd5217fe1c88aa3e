import CJansson
import CarFitCore

/// A cursor over a JSON document's bytes: values parsed one at a time by jansson, array
/// elements found by a scan of strings and brackets.
///
/// The bytes are either all in memory (a request) or a file read through its window
/// (`FileReader`): then `bytes` holds the part of the file from `origin` that is loaded, the
/// scanner loads more as it reaches the end, and drops what lies behind `offset` (and behind
/// `pinned`, while that is set). Offsets are the document's, whatever is loaded.
struct DocumentScanner {
    /// The loaded bytes, the document's `origin ..< origin + bytes.count`.
    private(set) var bytes: UnsafeRawBufferPointer
    private(set) var origin = 0
    var offset = 0
    /// Bytes from here on stay loaded even once `offset` has moved past them.
    var pinned: Int?
    private let file: FileReader?

    init(_ bytes: UnsafeRawBufferPointer) {
        self.bytes = bytes
        file = nil
    }

    /// A scanner of `file` from its start, through its window.
    init(file: FileReader) {
        self.file = file
        bytes = UnsafeRawBufferPointer(start: nil, count: 0)
    }

    /// Whether the bytes are a file's window (so they move as the scan goes on).
    var isWindowed: Bool { file != nil }

    /// The document offset just past the loaded bytes.
    var end: Int { origin + bytes.count }

    /// Whether nothing more can be loaded (all bytes in memory, the file's end was reached, or
    /// a read failed).
    private var exhausted: Bool {
        guard let file else { return true }
        return file.atEnd || file.readError != nil
    }

    /// Loads more bytes, keeping those from `keep` (and from `pinned`); false when no more came.
    private mutating func more(keeping keep: Int) -> Bool {
        guard let file else { return false }
        guard file.load(keeping: min(keep, pinned ?? keep)) else { return false }
        bytes = file.window
        origin = file.origin
        return true
    }

    /// The loaded bytes from document offset `at` (which must be loaded).
    func pointer(at: Int) -> UnsafeRawPointer? {
        bytes.baseAddress.map { $0 + (at - origin) }
    }

    var atEnd: Bool {
        mutating get { offset >= end && !more(keeping: offset) }
    }

    var peek: UInt8? {
        mutating get {
            guard offset < end || more(keeping: offset) else { return nil }
            return bytes[offset - origin]
        }
    }

    mutating func skipSpace() {
        while offset < end || more(keeping: offset) {
            switch bytes[offset - origin] {
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
    /// A value that reaches the end of a window is parsed again with more of the file loaded.
    /// New reference: the caller releases it with json_decref.
    mutating func value(level: Int) -> UnsafeMutablePointer<json_t>? {
        while true {
            guard offset < end || more(keeping: offset), let start = pointer(at: offset) else { return nil }
            let available = end - offset
            var error = json_error_t()
            let parsed = json_loadb(start.assumingMemoryBound(to: CChar.self), available, cf_json_flags_one_value(), &error)
            guard let v = parsed else {
                // Cut off by the window's end (not by the document's): load more and try again.
                if Int(error.position) + 1 >= available, !exhausted, more(keeping: offset) { continue }
                return nil
            }
            let consumed = Int(error.position)
            // A number or literal at the window's end may go on past it.
            if consumed >= available, !exhausted, more(keeping: offset) {
                json_decref(v)
                continue
            }
            // c containers take at least 2c bytes: only a long value needs the count.
            let deepest = DocumentScanner.deepestContainers(atLevel: level)
            guard consumed > 0, consumed <= end - offset,
                  consumed < 2 * deepest || containerDepth(from: offset, count: consumed) <= deepest else {
                json_decref(v)
                return nil
            }
            offset += consumed
            return v
        }
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
    /// The element's bytes stay loaded until the scanner moves on.
    mutating func elementSpan() -> ElementSpan? {
        skipSpace()
        let start = offset
        var i = offset
        var depth = 0
        var deepest = 0
        var inString = false
        scan: while true {
            if i >= end {
                guard more(keeping: start) else { return nil }
                continue scan
            }
            guard let base = bytes.baseAddress?.assumingMemoryBound(to: UInt8.self) else { return nil }
            // The loaded bytes are scanned by their index in `bytes` (j), the document's
            // offset being j + o.
            let o = origin
            let n = bytes.count
            var j = i - o
            if inString {
                while j < n {
                    let c = base[j]
                    if c == 0x22 { break }
                    j += c == 0x5C ? 2 : 1
                }
                i = j + o
                guard j < n else { continue scan }
                inString = false
                i += 1
                continue scan
            }
            while j < n {
                let byte = base[j]
                switch byte {
                case 0x22:
                    j += 1
                    while j < n {
                        // Eight bytes at a time up to the first quote or backslash.
                        if j + 8 <= n {
                            let found = ElementReader.quotesOrBackslashes(UInt64(littleEndian: UnsafeRawPointer(base + j).loadUnaligned(as: UInt64.self)))
                            if found == 0 {
                                j += 8
                                continue
                            }
                            j += found.trailingZeroBitCount >> 3
                        }
                        let c = base[j]
                        if c == 0x22 { break }
                        j += c == 0x5C ? 2 : 1
                    }
                    guard j < n else {
                        i = j + o
                        inString = true
                        continue scan
                    }
                case 0x5B, 0x7B:
                    depth += 1
                    if depth > deepest { deepest = depth }
                case 0x5D, 0x7D:
                    if depth == 0 {
                        guard byte == 0x5D else { return nil }
                        offset = j + o + 1
                        return ElementSpan(range: start..<(j + o), depth: deepest, last: true)
                    }
                    depth -= 1
                case 0x2C where depth == 0:
                    offset = j + o + 1
                    return ElementSpan(range: start..<(j + o), depth: deepest, last: false)
                default:
                    break
                }
                j += 1
            }
            i = j + o
        }
    }

    /// The deepest nesting of arrays and objects in `count` loaded bytes of JSON text at
    /// document offset `from`.
    func containerDepth(from: Int, count: Int) -> Int {
        var depth = 0
        var deepest = 0
        var inString = false
        var escaped = false
        for i in (from - origin)..<(from - origin + count) {
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
