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
public struct JSONObject: Sendable, Equatable {
    public private(set) var keys: [String] = []
    private var values: [String: JSON] = [:]

    public init() {}

    public init(_ pairs: KeyValuePairs<String, JSON>) {
        for (key, value) in pairs { self[key] = value }
    }

    public var count: Int { keys.count }

    public subscript(key: String) -> JSON? {
        get { values[key] }
        set {
            if let newValue {
                if values.updateValue(newValue, forKey: key) == nil { keys.append(key) }
            } else if values.removeValue(forKey: key) != nil {
                keys.removeAll { $0 == key }
            }
        }
    }

    public static func == (lhs: JSONObject, rhs: JSONObject) -> Bool {
        lhs.values == rhs.values
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
        var out = ""
        out.reserveCapacity(256)
        encode(into: &out)
        return out
    }

    public func encode(into out: inout String) {
        switch self {
        case .null: out += "null"
        case .bool(let b): out += b ? "true" : "false"
        case .int(let i): out += String(i)
        case .double(let d):
            if d.isFinite {
                // Swift's description is the shortest round-trip text; whole reals keep ".0".
                out += d.description
            } else {
                out += "null"
            }
        case .string(let s): JSON.encodeString(s, into: &out)
        case .array(let items):
            out += "["
            var first = true
            for item in items {
                if !first { out += "," }
                first = false
                item.encode(into: &out)
            }
            out += "]"
        case .object(let object):
            out += "{"
            var first = true
            for key in object.keys {
                guard let value = object[key] else { continue }
                if !first { out += "," }
                first = false
                JSON.encodeString(key, into: &out)
                out += ":"
                value.encode(into: &out)
            }
            out += "}"
        }
    }

    static func encodeString(_ s: String, into out: inout String) {
        out += "\""
        var plainStart = s.unicodeScalars.startIndex
        var index = plainStart
        let scalars = s.unicodeScalars
        while index < scalars.endIndex {
            let scalar = scalars[index]
            let escape: String?
            switch scalar {
            case "\"": escape = "\\\""
            case "\\": escape = "\\\\"
            case "\n": escape = "\\n"
            case "\r": escape = "\\r"
            case "\t": escape = "\\t"
            case "\u{08}": escape = "\\b"
            case "\u{0C}": escape = "\\f"
            default:
                if scalar.value < 0x20 || scalar.value == 0x2028 || scalar.value == 0x2029 {
                    let hex = String(scalar.value, radix: 16, uppercase: false)
                    escape = "\\u" + String(repeating: "0", count: max(0, 4 - hex.count)) + hex
                } else {
                    escape = nil
                }
            }
            if let escape {
                out += String(scalars[plainStart..<index])
                out += escape
                index = scalars.index(after: index)
                plainStart = index
            } else {
                index = scalars.index(after: index)
            }
        }
        out += String(scalars[plainStart..<scalars.endIndex])
        out += "\""
    }
}
