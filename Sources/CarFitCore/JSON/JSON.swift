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
    private var members: [(key: String, value: JSON)] = []
    private var index: [String: Int]?

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
        return members.firstIndex { $0.key == key }
    }

    public subscript(key: String) -> JSON? {
        get { position(of: key).map { members[$0].value } }
        set {
            if let newValue {
                if let i = position(of: key) {
                    members[i].value = newValue
                } else {
                    members.append((key, newValue))
                    if index != nil {
                        index?[key] = members.count - 1
                    } else if members.count > JSONObject.indexThreshold {
                        var built: [String: Int] = [:]
                        built.reserveCapacity(members.count * 2)
                        for (i, m) in members.enumerated() { built[m.key] = i }
                        index = built
                    }
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

    /// Members in insertion order.
    public var pairs: [(key: String, value: JSON)] { members }

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
        var out: [UInt8] = []
        out.reserveCapacity(512)
        encode(into: &out)
        return out
    }

    public func encode(into out: inout [UInt8]) {
        switch self {
        case .null: out.append(contentsOf: JSON.nullBytes)
        case .bool(let b): out.append(contentsOf: b ? JSON.trueBytes : JSON.falseBytes)
        case .int(let i): out.append(contentsOf: String(i).utf8)
        case .double(let d):
            // Swift's description is the shortest round-trip text; whole reals keep ".0".
            if d.isFinite { out.append(contentsOf: d.description.utf8) } else { out.append(contentsOf: JSON.nullBytes) }
        case .string(let s): JSON.encodeString(s, into: &out)
        case .array(let items):
            out.append(UInt8(ascii: "["))
            var first = true
            for item in items {
                if !first { out.append(UInt8(ascii: ",")) }
                first = false
                item.encode(into: &out)
            }
            out.append(UInt8(ascii: "]"))
        case .object(let object):
            out.append(UInt8(ascii: "{"))
            var first = true
            for (key, value) in object.pairs {
                if !first { out.append(UInt8(ascii: ",")) }
                first = false
                JSON.encodeString(key, into: &out)
                out.append(UInt8(ascii: ":"))
                value.encode(into: &out)
            }
            out.append(UInt8(ascii: "}"))
        }
    }

    static let nullBytes = Array("null".utf8)
    static let trueBytes = Array("true".utf8)
    static let falseBytes = Array("false".utf8)
    static let hexDigits = Array("0123456789abcdef".utf8)

    /// A JSON string: `"` and `\` and control characters escaped, U+2028/U+2029 escaped (for
    /// hosts that embed the text in JavaScript), everything else as raw UTF-8.
    static func encodeString(_ s: String, into out: inout [UInt8]) {
        out.append(UInt8(ascii: "\""))
        let done: Void? = s.utf8.withContiguousStorageIfAvailable { appendEscaped($0, into: &out) }
        if done == nil { Array(s.utf8).withUnsafeBufferPointer { appendEscaped($0, into: &out) } }
        out.append(UInt8(ascii: "\""))
    }

    private static func appendEscaped(_ bytes: UnsafeBufferPointer<UInt8>, into out: inout [UInt8]) {
        var pending = 0
        var index = 0
        let count = bytes.count
        while index < count {
            let c = bytes[index]
            var escape: [UInt8]?
            switch c {
            case UInt8(ascii: "\""): escape = [0x5C, 0x22]
            case UInt8(ascii: "\\"): escape = [0x5C, 0x5C]
            case 0x0A: escape = [0x5C, UInt8(ascii: "n")]
            case 0x0D: escape = [0x5C, UInt8(ascii: "r")]
            case 0x09: escape = [0x5C, UInt8(ascii: "t")]
            case 0x08: escape = [0x5C, UInt8(ascii: "b")]
            case 0x0C: escape = [0x5C, UInt8(ascii: "f")]
            case 0x00..<0x20:
                escape = [0x5C, UInt8(ascii: "u"), 0x30, 0x30, hexDigits[Int(c >> 4)], hexDigits[Int(c & 0xF)]]
            case 0xE2 where index + 2 < count && bytes[index + 1] == 0x80 && (bytes[index + 2] == 0xA8 || bytes[index + 2] == 0xA9):
                escape = [0x5C, UInt8(ascii: "u"), 0x32, 0x30, 0x32, bytes[index + 2] == 0xA8 ? 0x38 : 0x39]
            default:
                escape = nil
            }
            if let escape {
                out.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[pending..<index]))
                out.append(contentsOf: escape)
                index += c == 0xE2 ? 3 : 1
                pending = index
            } else {
                index += 1
            }
        }
        out.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[pending..<count]))
    }
}
