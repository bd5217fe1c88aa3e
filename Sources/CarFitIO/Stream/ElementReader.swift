#if canImport(Glibc)
import Glibc
#endif
import CarFitCore

/// A validating reader of one JSON value in memory that builds only the parts its caller asks
/// for: the bulk imports read each record's few members with it and pass over the rest,
/// instead of building a jansson tree of every value.
///
/// It accepts exactly the JSON that jansson accepts with the flags of every request, or less:
/// whatever it cannot read as jansson would (a syntax error, invalid UTF-8, `\u0000`, a lone
/// surrogate escape, an integer or real out of range, nesting deeper than `maxDepth`) makes
/// it fail, and its caller then lets jansson read the document, so that the answer, and any
/// error, is jansson's. Duplicate keys keep the last value, as jansson does.
///
/// Every read is bounds-checked against `count`: a malformed value never reads past it.
struct ElementReader {
    /// Containers nested deeper than this are not read here (the caller falls back to jansson,
    /// whose own limit is much deeper); it bounds this reader's recursion.
    static let maxDepth = 64

    let base: UnsafePointer<UInt8>
    let count: Int
    var i = 0

    init(_ base: UnsafePointer<UInt8>, count: Int) {
        self.base = base
        self.count = count
    }

    /// Whether only white space remains.
    mutating func atEnd() -> Bool {
        skipSpace()
        return i == count
    }

    mutating func skipSpace() {
        while i < count {
            switch base[i] {
            case 0x20, 0x09, 0x0A, 0x0D: i += 1
            default: return
            }
        }
    }

    /// Takes `byte` (after white space) when it is next.
    mutating func take(_ byte: UInt8) -> Bool {
        skipSpace()
        guard i < count, base[i] == byte else { return false }
        i += 1
        return true
    }

    var next: UInt8? {
        mutating get {
            skipSpace()
            return i < count ? base[i] : nil
        }
    }

    // MARK: strings

    /// The raw bytes of the string starting here (`"` next) when it has no escapes, and moves past
    /// it; `.escaped` when it has escapes (the reader is then back at the opening quote); nil
    /// when it is malformed.
    enum Raw { case plain(UnsafeBufferPointer<UInt8>), escaped }

    mutating func rawString() -> Raw? {
        guard i < count, base[i] == 0x22 else { return nil }
        let start = i + 1
        var j = start
        while j < count {
            // Eight bytes at a time up to the first that is a quote, backslash, control or
            // non-ASCII byte.
            if j + 8 <= count {
                let special = Self.specialBytes(UInt64(littleEndian: UnsafeRawPointer(base + j).loadUnaligned(as: UInt64.self)))
                if special == 0 {
                    j += 8
                    continue
                }
                j += special.trailingZeroBitCount >> 3
            }
            let c = base[j]
            if c == 0x22 {
                i = j + 1
                return .plain(UnsafeBufferPointer(start: base + start, count: j - start))
            }
            if c == 0x5C { return .escaped }
            if c < 0x20 { return nil }
            if c < 0x80 {
                j += 1
            } else {
                guard let n = Self.utf8Sequence(base, at: j, count: count) else { return nil }
                j += n
            }
        }
        return nil
    }

    /// The high bit of each of the eight bytes of `w` (loaded little-endian: the first byte
    /// lowest) that is a quote, a backslash, below 0x20 or from 0x80 up; zero when there is
    /// none. The word-at-a-time tests may also mark a byte after a marked one, never one
    /// before the first, so the lowest mark is exact: `trailingZeroBitCount / 8` is the index
    /// of the first such byte.
    @inline(__always)
    static func specialBytes(_ w: UInt64) -> UInt64 {
        let ones: UInt64 = 0x0101_0101_0101_0101
        let highs: UInt64 = 0x8080_8080_8080_8080
        let control = (w &- 0x20 &* ones) & ~w & highs
        let q = w ^ (0x22 &* ones)
        let quote = (q &- ones) & ~q & highs
        let b = w ^ (0x5C &* ones)
        let backslash = (b &- ones) & ~b & highs
        return control | quote | backslash | (w & highs)
    }

    /// As `specialBytes`, for quotes and backslashes only.
    @inline(__always)
    static func quotesOrBackslashes(_ w: UInt64) -> UInt64 {
        let ones: UInt64 = 0x0101_0101_0101_0101
        let highs: UInt64 = 0x8080_8080_8080_8080
        let q = w ^ (0x22 &* ones)
        let b = w ^ (0x5C &* ones)
        return (((q &- ones) & ~q) | ((b &- ones) & ~b)) & highs
    }

    /// The length of the valid UTF-8 sequence of a non-ASCII byte at `j`, or nil (overlong,
    /// surrogate, past U+10FFFF, cut short), as jansson checks it.
    static func utf8Sequence(_ p: UnsafePointer<UInt8>, at j: Int, count: Int) -> Int? {
        UTF8Sequence.length(p, at: j, count: count)
    }

    /// The string starting here, decoded, and moves past it; nil when malformed.
    mutating func string() -> String? {
        switch rawString() {
        case nil: return nil
        case .plain(let bytes)?: return String(decoding: bytes, as: UTF8.self)
        case .escaped?: return escapedString()
        }
    }

    /// A string with escapes, decoded (the reader is at its opening quote).
    private mutating func escapedString() -> String? {
        var out: [UInt8] = []
        var j = i + 1
        while j < count {
            let c = base[j]
            if c == 0x22 {
                i = j + 1
                return String(decoding: out, as: UTF8.self)
            }
            if c < 0x20 { return nil }
            if c == 0x5C {
                guard j + 1 < count else { return nil }
                let e = base[j + 1]
                j += 2
                switch e {
                case 0x22, 0x5C, 0x2F: out.append(e)
                case 0x62: out.append(0x08)
                case 0x66: out.append(0x0C)
                case 0x6E: out.append(0x0A)
                case 0x72: out.append(0x0D)
                case 0x74: out.append(0x09)
                case 0x75:
                    guard var scalar = hex4(at: j) else { return nil }
                    j += 4
                    if (0xD800...0xDBFF).contains(scalar) {
                        guard j + 1 < count, base[j] == 0x5C, base[j + 1] == 0x75,
                              let low = hex4(at: j + 2), (0xDC00...0xDFFF).contains(low) else { return nil }
                        j += 6
                        scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
                    } else if (0xDC00...0xDFFF).contains(scalar) || scalar == 0 {
                        return nil
                    }
                    guard let u = Unicode.Scalar(scalar) else { return nil }
                    let v = u.value
                    if v < 0x80 {
                        out.append(UInt8(v))
                    } else if v < 0x800 {
                        out.append(UInt8(0xC0 | (v >> 6)))
                        out.append(UInt8(0x80 | (v & 0x3F)))
                    } else if v < 0x10000 {
                        out.append(UInt8(0xE0 | (v >> 12)))
                        out.append(UInt8(0x80 | ((v >> 6) & 0x3F)))
                        out.append(UInt8(0x80 | (v & 0x3F)))
                    } else {
                        out.append(UInt8(0xF0 | (v >> 18)))
                        out.append(UInt8(0x80 | ((v >> 12) & 0x3F)))
                        out.append(UInt8(0x80 | ((v >> 6) & 0x3F)))
                        out.append(UInt8(0x80 | (v & 0x3F)))
                    }
                default: return nil
                }
            } else if c < 0x80 {
                out.append(c)
                j += 1
            } else {
                guard let n = Self.utf8Sequence(base, at: j, count: count) else { return nil }
                out.append(contentsOf: UnsafeBufferPointer(start: base + j, count: n))
                j += n
            }
        }
        return nil
    }

    private func hex4(at j: Int) -> UInt32? {
        guard j + 4 <= count else { return nil }
        var v: UInt32 = 0
        for k in 0..<4 {
            let c = base[j + k]
            let d: UInt8
            switch c {
            case 0x30...0x39: d = c - 0x30
            case 0x41...0x46: d = c - 0x41 + 10
            case 0x61...0x66: d = c - 0x61 + 10
            default: return nil
            }
            v = v << 4 | UInt32(d)
        }
        return v
    }

    /// Moves past the string starting here, checking it as `string()` does; false when malformed.
    mutating func skipString() -> Bool {
        switch rawString() {
        case nil: return false
        case .plain?: return true
        case .escaped?: return escapedString() != nil
        }
    }

    // MARK: numbers and literals

    /// The number starting here: an integer (no fraction or exponent) or a real, as jansson
    /// reads it; nil when malformed or out of range.
    mutating func number() -> JSON? {
        let start = i
        var j = i
        if j < count, base[j] == 0x2D { j += 1 }
        guard j < count else { return nil }
        if base[j] == 0x30 {
            j += 1
        } else if (0x31...0x39).contains(base[j]) {
            while j < count, (0x30...0x39).contains(base[j]) { j += 1 }
        } else {
            return nil
        }
        var real = false
        if j < count, base[j] == 0x2E {
            real = true
            j += 1
            guard j < count, (0x30...0x39).contains(base[j]) else { return nil }
            while j < count, (0x30...0x39).contains(base[j]) { j += 1 }
        }
        if j < count, base[j] == 0x65 || base[j] == 0x45 {
            real = true
            j += 1
            if j < count, base[j] == 0x2B || base[j] == 0x2D { j += 1 }
            guard j < count, (0x30...0x39).contains(base[j]) else { return nil }
            while j < count, (0x30...0x39).contains(base[j]) { j += 1 }
        }
        i = j
        if !real {
            var k = start
            let negative = base[k] == 0x2D
            if negative { k += 1 }
            var v: Int64 = 0
            while k < j {
                let d = Int64(base[k] - 0x30)
                let (m, o1) = v.multipliedReportingOverflow(by: 10)
                let (s, o2) = negative ? m.subtractingReportingOverflow(d) : m.addingReportingOverflow(d)
                guard !o1, !o2 else { return nil }
                v = s
                k += 1
            }
            return .int(v)
        }
        // A real: strtod of a NUL-terminated copy, refused when it overflows (as jansson does).
        let length = j - start
        guard length < 512 else { return nil }
        return withUnsafeTemporaryAllocation(of: CChar.self, capacity: length + 1) { buffer -> JSON? in
            guard let b = buffer.baseAddress else { return nil }
            UnsafeMutableRawPointer(b).copyMemory(from: base + start, byteCount: length)
            b[length] = 0
            errno = 0
            let d = strtod(b, nil)
            if errno == ERANGE, d == .infinity || d == -.infinity { return nil }
            return .double(d)
        }
    }

    /// Takes the literal `word` (true, false, null) starting here.
    mutating func literal(_ word: StaticString) -> Bool {
        let n = word.utf8CodeUnitCount
        guard i + n <= count else { return false }
        let w = word.utf8Start
        for k in 0..<n where base[i + k] != w[k] { return false }
        i += n
        return true
    }

    // MARK: values

    /// Moves past the value starting here (after white space), checking it; false when malformed.
    mutating func skipValue(depth: Int = 0) -> Bool {
        switch next {
        case 0x22?: return skipString()
        case 0x7B?:
            guard depth < Self.maxDepth else { return false }
            i += 1
            if take(0x7D) { return true }
            while true {
                guard next == 0x22, skipString(), take(0x3A), skipValue(depth: depth + 1) else { return false }
                if take(0x2C) { continue }
                return take(0x7D)
            }
        case 0x5B?:
            guard depth < Self.maxDepth else { return false }
            i += 1
            if take(0x5D) { return true }
            while true {
                guard skipValue(depth: depth + 1) else { return false }
                if take(0x2C) { continue }
                return take(0x5D)
            }
        case 0x74?: return literal("true")
        case 0x66?: return literal("false")
        case 0x6E?: return literal("null")
        case nil: return false
        default: return number() != nil
        }
    }

    /// The value starting here (after white space), converted whole; nil when malformed.
    mutating func value(depth: Int = 0) -> JSON? {
        switch next {
        case 0x22?: return string().map { .string($0) }
        case 0x7B?:
            guard depth < Self.maxDepth else { return nil }
            i += 1
            var object = JSONObject()
            if take(0x7D) { return .object(object) }
            while true {
                guard next == 0x22, let key = string(), take(0x3A), let v = value(depth: depth + 1) else { return nil }
                object[key] = v
                if take(0x2C) { continue }
                guard take(0x7D) else { return nil }
                return .object(object)
            }
        case 0x5B?:
            guard depth < Self.maxDepth else { return nil }
            i += 1
            var items: [JSON] = []
            if take(0x5D) { return .array(items) }
            while true {
                guard let v = value(depth: depth + 1) else { return nil }
                items.append(v)
                if take(0x2C) { continue }
                guard take(0x5D) else { return nil }
                return .array(items)
            }
        case 0x74?:
            guard literal("true") else { return nil }
            return .bool(true)
        case 0x66?:
            guard literal("false") else { return nil }
            return .bool(false)
        case 0x6E?:
            // (JSON is ExpressibleByNilLiteral: a bare nil here would read as JSON.null.)
            guard literal("null") else { return Optional<JSON>.none }
            return .null
        case nil: return nil
        default: return number()
        }
    }

    /// The object starting here with only the members `keys` names, each read by `read` (the
    /// reader at the member's value, `depth` the object's own), the others checked and passed
    /// over; in `keys` order, a repeated key keeping its last value. Anything but an object is
    /// read by `other`. Nil when malformed.
    mutating func pick(_ keys: KeyTable, depth: Int,
                       read: (inout ElementReader, Int) -> JSON?,
                       other: (inout ElementReader) -> JSON?) -> JSON? {
        guard next == 0x7B else { return other(&self) }
        guard depth < Self.maxDepth else { return nil }
        i += 1
        var found = [JSON?](repeating: nil, count: keys.names.count)
        if !take(0x7D) {
            while true {
                guard next == 0x22 else { return nil }
                let slot: Int?
                switch rawString() {
                case nil: return nil
                case .plain(let bytes)?: slot = keys.slot(of: bytes)
                case .escaped?:
                    guard let key = string() else { return nil }
                    slot = keys.slot(of: key)
                }
                guard take(0x3A) else { return nil }
                if let slot {
                    skipSpace()
                    guard let v = read(&self, slot) else { return nil }
                    found[slot] = v
                } else {
                    guard skipValue(depth: depth + 1) else { return nil }
                }
                if take(0x2C) { continue }
                guard take(0x7D) else { return nil }
                break
            }
        }
        var object = JSONObject(minimumCapacity: keys.names.count)
        for (k, v) in found.enumerated() {
            if let v { object.appendDistinct(keys.names[k], v) }
        }
        return .object(object)
    }

    /// Member names to pick, found by their UTF-8 bytes.
    struct KeyTable: Sendable {
        let names: [String]
        private let bytes: [[UInt8]]

        init(_ names: [String]) {
            self.names = names
            bytes = names.map { Array($0.utf8) }
        }

        func slot(of key: UnsafeBufferPointer<UInt8>) -> Int? {
            guard let keyBase = key.baseAddress else { return nil }
            for (k, b) in bytes.enumerated() where b.count == key.count {
                if b.withUnsafeBufferPointer({ $0.baseAddress.map { memcmp($0, keyBase, key.count) == 0 } ?? false }) { return k }
            }
            return nil
        }

        /// A decoded key's slot, matched by its bytes as jansson matches keys.
        func slot(of key: String) -> Int? { names.firstIndex { $0.utf8.elementsEqual(key.utf8) } }
    }
}
