/// A JSON value as the domain sees it: plain Swift, no parser state.
///
/// Requests arrive as `JSON` (parsed by the export layer) and results leave as `JSON`
/// (encoded by `JSON.encoded()`). Objects keep their key order so responses read the way the
/// contract writes them.
public enum JSON: Sendable, Equatable {
    case null
    case bool(Bool)
    case int(Int64)
    case double(Double)
    case string(String)
    case array([JSON])
    case object(JSONObject)
}

/// A JSON object with its keys in insertion order. A repeated key keeps its first position and
/// its last value (jansson's rule for duplicated keys in input).
///
/// Request objects are small, so members live in an array searched linearly; an index by key
/// is built only once an object grows past `indexThreshold` members.
public struct JSONObject: Sendable, Equatable {
    /// One member. A struct rather than a tuple: arrays of it are destroyed through its own
    /// compiled value witness instead of the runtime's generic tuple walk.
    fileprivate struct Member: Sendable {
        var key: String
        var value: JSON
    }

    fileprivate var members: [Member] = []
    private var index: [String: Int]?
    /// The encoded text, kept only when asked for (`JSON.keepingEncoding()`); any change drops it.
    fileprivate var encoding: [UInt8]?

    static let indexThreshold = 16

    public init() {}

    public init(_ pairs: KeyValuePairs<String, JSON>) {
        members.reserveCapacity(pairs.count)
        for (key, value) in pairs { self[key] = value }
    }

    public init(minimumCapacity: Int) {
        members.reserveCapacity(minimumCapacity)
    }

    public var count: Int { members.count }
    public var keys: [String] { members.map(\.key) }

    private func position(of key: String) -> Int? {
        if let index { return index[key] }
        return members.withUnsafeBufferPointer { buffer -> Int? in
            for i in buffer.indices where buffer[i].key == key { return i }
            return nil
        }
    }

    public subscript(key: String) -> JSON? {
        get { position(of: key).map { members[$0].value } }
        set {
            encoding = nil
            if let newValue {
                if let i = position(of: key) {
                    members[i].value = newValue
                } else {
                    appendMember(key, newValue)
                }
            } else if let i = position(of: key) {
                members.remove(at: i)
                if index != nil {
                    var built: [String: Int] = [:]
                    for (i, m) in members.enumerated() { built[m.key] = i }
                    index = built
                }
            }
        }
    }

    /// Adds a member whose key the caller knows is not there yet (the keys of an object jansson
    /// has parsed are distinct), without looking for it.
    public mutating func appendDistinct(_ key: String, _ value: JSON) {
        encoding = nil
        appendMember(key, value)
    }

    private mutating func appendMember(_ key: String, _ value: JSON) {
        members.append(Member(key: key, value: value))
        if index != nil {
            index?[key] = members.count - 1
        } else if members.count > JSONObject.indexThreshold {
            var built: [String: Int] = [:]
            built.reserveCapacity(members.count * 2)
            for (i, m) in members.enumerated() { built[m.key] = i }
            index = built
        }
    }

    /// Members in insertion order.
    public var pairs: [(key: String, value: JSON)] { members.map { ($0.key, $0.value) } }

    public static func == (lhs: JSONObject, rhs: JSONObject) -> Bool {
        guard lhs.count == rhs.count else { return false }
        for m in lhs.members where rhs[m.key] != m.value { return false }
        return true
    }
}

extension JSON {
    /// Builds an object from literal pairs: `.obj(["a": 1, "b": .null])`.
    public static func obj(_ pairs: KeyValuePairs<String, JSON>) -> JSON { .object(JSONObject(pairs)) }

    public static func str(_ s: String?) -> JSON { s.map(JSON.string) ?? .null }
    public static func num(_ d: Double?) -> JSON { d.map(JSON.double) ?? .null }
    public static func int(_ i: Int?) -> JSON { i.map { JSON.int(Int64($0)) } ?? .null }

    public var objectValue: JSONObject? { if case .object(let o) = self { return o }; return nil }
    public var isNull: Bool { if case .null = self { return true }; return false }

    /// The same value, carrying its encoded text so that encoding it again is a copy of bytes:
    /// for a document a cache hands out many times. Only objects carry it; other values come
    /// back as they are. Changing the object drops the text.
    public func keepingEncoding() -> JSON {
        guard case .object(var object) = self else { return self }
        object.encoding = encodedBytes()
        return .object(object)
    }
}

extension JSON: ExpressibleByStringLiteral, ExpressibleByIntegerLiteral, ExpressibleByBooleanLiteral,
    ExpressibleByFloatLiteral, ExpressibleByArrayLiteral, ExpressibleByNilLiteral
{
    public init(stringLiteral value: String) { self = .string(value) }
    public init(integerLiteral value: Int64) { self = .int(value) }
    public init(booleanLiteral value: Bool) { self = .bool(value) }
    public init(floatLiteral value: Double) { self = .double(value) }
    public init(arrayLiteral elements: JSON...) { self = .array(elements) }
    public init(nilLiteral: ()) { self = .null }
}

// MARK: - Encoding

extension JSON {
    /// Compact UTF-8 JSON text. Reals use the shortest text that reads back as the same double
    /// (so 472.08 prints as `472.08`); non-finite reals, which JSON cannot carry, print as `null`.
    public func encoded() -> String {
        String(decoding: encodedBytes(), as: UTF8.self)
    }

    /// The same text as UTF-8 bytes.
    public func encodedBytes() -> [UInt8] {
        var buffer = JSONBuffer()
        encode(into: &buffer)
        return buffer.bytes
    }

    public func encode(into out: inout [UInt8]) {
        out.append(contentsOf: encodedBytes())
    }

    /// Appends the text to `out`.
    public func encode(into out: inout JSONBuffer) {
        switch self {
        case .null: out.append(JSON.nullText)
        case .bool(let b): out.append(b ? JSON.trueText : JSON.falseText)
        case .int(let i): out.appendInt(i)
        case .double(let d):
            // Swift's description is the shortest round-trip text; whole reals keep ".0".
            if d.isFinite { out.appendASCII(d.description) } else { out.append(JSON.nullText) }
        case .string(let s): out.appendString(s)
        case .array(let items):
            out.append(UInt8(ascii: "["))
            items.withUnsafeBufferPointer { items in
                for i in items.indices {
                    if i > 0 { out.append(UInt8(ascii: ",")) }
                    items[i].encode(into: &out)
                }
            }
            out.append(UInt8(ascii: "]"))
        case .object(let object):
            if let text = object.encoding {
                text.withUnsafeBytes { out.append($0) }
                return
            }
            out.append(UInt8(ascii: "{"))
            object.members.withUnsafeBufferPointer { members in
                for i in members.indices {
                    if i > 0 { out.append(UInt8(ascii: ",")) }
                    out.appendString(members[i].key)
                    out.append(UInt8(ascii: ":"))
                    members[i].value.encode(into: &out)
                }
            }
            out.append(UInt8(ascii: "}"))
        }
    }

    static let nullText: StaticString = "null"
    static let trueText: StaticString = "true"
    static let falseText: StaticString = "false"
}

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The encoder's output: UTF-8 bytes in `malloc`ed memory that grows as it fills, so a finished
/// text goes to a C host as it is (`takeCString()`), without a copy. If memory runs out, further
/// appends are dropped and `takeCString()` answers nil; nothing traps.
public struct JSONBuffer: ~Copyable {
    private var base: UnsafeMutablePointer<UInt8>?
    public private(set) var count = 0
    private var capacity = 0
    private var failed = false

    public init(capacity: Int = 1024) {
        _ = grow(to: max(capacity, 16))
    }

    deinit { free(base) }

    /// Makes room for `extra` more bytes (and a NUL); false once memory has run out.
    @inline(__always)
    private mutating func reserve(_ extra: Int) -> Bool {
        let (needed, overflow) = count.addingReportingOverflow(extra + 1)
        if !overflow, needed <= capacity, base != nil { return true }
        return !overflow && grow(to: needed)
    }

    private mutating func grow(to needed: Int) -> Bool {
        guard !failed else { return false }
        var size = max(capacity, 16)
        while size < needed {
            let (doubled, overflow) = size.multipliedReportingOverflow(by: 2)
            guard !overflow else { failed = true; return false }
            size = doubled
        }
        guard let p = realloc(base, size) else { failed = true; return false }
        base = p.assumingMemoryBound(to: UInt8.self)
        capacity = size
        return true
    }

    @inline(__always)
    public mutating func append(_ byte: UInt8) {
        guard reserve(1), let base else { return }
        base[count] = byte
        count += 1
    }

    @inline(__always)
    public mutating func append(_ bytes: UnsafeRawBufferPointer) {
        guard bytes.count > 0, let source = bytes.baseAddress, reserve(bytes.count), let base else { return }
        (base + count).update(from: source.assumingMemoryBound(to: UInt8.self), count: bytes.count)
        count += bytes.count
    }

    mutating func append(_ text: StaticString) {
        append(UnsafeRawBufferPointer(start: text.utf8Start, count: text.utf8CodeUnitCount))
    }

    /// Text known to need no escaping (numbers).
    mutating func appendASCII(_ text: String) {
        if text.utf8.withContiguousStorageIfAvailable({ append(UnsafeRawBufferPointer($0)) }) == nil {
            Array(text.utf8).withUnsafeBytes { append($0) }
        }
    }

    /// Decimal digits of `i`.
    mutating func appendInt(_ i: Int64) {
        var digits: (UInt64, UInt64, UInt64) = (0, 0, 0)  // 24 bytes: 20 digits and a sign fit
        withUnsafeMutableBytes(of: &digits) { raw in
            var v = i.magnitude
            var p = raw.count
            repeat {
                p -= 1
                raw[p] = UInt8(truncatingIfNeeded: 48 + v % 10)
                v /= 10
            } while v > 0
            if i < 0 {
                p -= 1
                raw[p] = UInt8(ascii: "-")
            }
            append(UnsafeRawBufferPointer(rebasing: raw[p...]))
        }
    }

    /// A JSON string: `"` and `\` and control characters escaped, U+2028/U+2029 escaped (for
    /// hosts that embed the text in JavaScript), everything else as raw UTF-8.
    mutating func appendString(_ s: String) {
        if s.utf8.withContiguousStorageIfAvailable({ appendQuoted($0) }) == nil {
            Array(s.utf8).withUnsafeBufferPointer { appendQuoted($0) }
        }
    }

    private mutating func appendQuoted(_ bytes: UnsafeBufferPointer<UInt8>) {
        append(UInt8(ascii: "\""))
        var pending = 0
        var index = 0
        let count = bytes.count
        while index < count {
            // Eight bytes at a time while they are all printable ASCII other than " and \.
            if count - index >= 8, let start = bytes.baseAddress,
               JSONBuffer.isPlain(UnsafeRawPointer(start + index).loadUnaligned(as: UInt64.self)) {
                index += 8
                continue
            }
            let c = bytes[index]
            // Most bytes go out as they are: printable ASCII other than " and \, and UTF-8
            // sequences other than those starting with 0xE2.
            if c >= 0x20 && c != 0x22 && c != 0x5C && c != 0xE2 {
                index += 1
                continue
            }
            let escape: StaticString?
            var control = false
            switch c {
            case UInt8(ascii: "\""): escape = "\\\""
            case UInt8(ascii: "\\"): escape = "\\\\"
            case 0x0A: escape = "\\n"
            case 0x0D: escape = "\\r"
            case 0x09: escape = "\\t"
            case 0x08: escape = "\\b"
            case 0x0C: escape = "\\f"
            case 0x00..<0x20:
                escape = nil
                control = true
            case 0xE2 where index + 2 < count && bytes[index + 1] == 0x80 && (bytes[index + 2] == 0xA8 || bytes[index + 2] == 0xA9):
                escape = bytes[index + 2] == 0xA8 ? "\\u2028" : "\\u2029"
            default:
                index += 1
                continue
            }
            append(UnsafeRawBufferPointer(UnsafeBufferPointer(rebasing: bytes[pending..<index])))
            if control {
                append(JSONBuffer.controlPrefix)
                append(JSONBuffer.hexDigits[Int(c >> 4)])
                append(JSONBuffer.hexDigits[Int(c & 0xF)])
            } else if let escape {
                append(escape)
            }
            index += c == 0xE2 ? 3 : 1
            pending = index
        }
        append(UnsafeRawBufferPointer(UnsafeBufferPointer(rebasing: bytes[pending..<count])))
        append(UInt8(ascii: "\""))
    }

    /// Whether all eight bytes of `w` go out unescaped: none below 0x20, none from 0x80 up,
    /// no `"` and no `\` (exact word-at-a-time tests for a byte below n and a byte equal to c).
    @inline(__always)
    static func isPlain(_ w: UInt64) -> Bool {
        let ones: UInt64 = 0x0101_0101_0101_0101
        let highs: UInt64 = 0x8080_8080_8080_8080
        let control = (w &- 0x20 &* ones) & ~w & highs
        let q = w ^ (0x22 &* ones)
        let quote = (q &- ones) & ~q & highs
        let b = w ^ (0x5C &* ones)
        let backslash = (b &- ones) & ~b & highs
        return (w & highs) | control | quote | backslash == 0
    }

    static let controlPrefix: StaticString = "\\u00"
    static let hexDigits: [UInt8] = Array("0123456789abcdef".utf8)

    /// A copy of the bytes.
    public var bytes: [UInt8] {
        guard let base, count > 0 else { return [] }
        return Array(UnsafeBufferPointer(start: base, count: count))
    }

    /// The text followed by a NUL, in `malloc`ed memory that the caller frees with `free`; nil
    /// if memory ran out while encoding.
    public consuming func takeCString() -> UnsafeMutablePointer<CChar>? {
        guard !failed, reserve(0), let base else { return nil }
        base[count] = 0
        self.base = nil
        return UnsafeMutableRawPointer(base).assumingMemoryBound(to: CChar.self)
    }
}
