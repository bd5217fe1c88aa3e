import Foundation

/// A JSON value as the server reads and writes it. Objects keep no member order: they are
/// written with sorted keys, so equal documents are equal bytes (the snapshot's ETag relies on it).
public enum JSON: Sendable, Equatable {
    case null
    case bool(Bool)
    case int(Int64)
    case double(Double)
    case string(String)
    case array([JSON])
    case object([String: JSON])

    /// Parses UTF-8 JSON text; nil when it is not JSON.
    public static func parse(_ bytes: some Collection<UInt8>) -> JSON? {
        try? JSONDecoder().decode(JSON.self, from: Data(bytes))
    }

    public static func parse(_ text: String) -> JSON? { parse(Array(text.utf8)) }

    public subscript(key: String) -> JSON? {
        if case .object(let members) = self { return members[key] }
        return nil
    }

    public var objectValue: [String: JSON]? { if case .object(let o) = self { return o } else { return nil } }
    public var arrayValue: [JSON]? { if case .array(let a) = self { return a } else { return nil } }
    public var stringValue: String? { if case .string(let s) = self { return s } else { return nil } }
    public var isNull: Bool { self == .null }

    /// The value as a number (integers and reals alike).
    public var numberValue: Double? {
        switch self {
        case .int(let i): return Double(i)
        case .double(let d): return d
        default: return nil
        }
    }

    /// A whole number (an integer, or a real with no fraction that fits).
    public var intValue: Int64? {
        switch self {
        case .int(let i): return i
        case .double(let d) where d.rounded() == d && abs(d) < 9.0e15: return Int64(d)
        default: return nil
        }
    }

    /// `nil` becomes null.
    public static func str(_ s: String?) -> JSON { s.map(JSON.string) ?? .null }
    public static func num(_ i: Int64?) -> JSON { i.map(JSON.int) ?? .null }
    public static func real(_ d: Double?) -> JSON { d.map(JSON.double) ?? .null }

    /// Compact JSON text (no white space), keys sorted.
    public var text: String {
        var out = ""
        write(to: &out)
        return out
    }

    public var bytes: [UInt8] { Array(text.utf8) }

    func write(to out: inout String) {
        switch self {
        case .null: out += "null"
        case .bool(let b): out += b ? "true" : "false"
        case .int(let i): out += String(i)
        case .double(let d):
            if d.isFinite {
                if d.rounded() == d && abs(d) < 1e15 { out += String(Int64(d)) + ".0" } else { out += "\(d)" }
            } else {
                out += "null"
            }
        case .string(let s): JSON.quote(s, into: &out)
        case .array(let items):
            out += "["
            for (i, item) in items.enumerated() {
                if i > 0 { out += "," }
                item.write(to: &out)
            }
            out += "]"
        case .object(let members):
            out += "{"
            for (i, key) in members.keys.sorted().enumerated() {
                if i > 0 { out += "," }
                JSON.quote(key, into: &out)
                out += ":"
                members[key, default: .null].write(to: &out)
            }
            out += "}"
        }
    }

    static func quote(_ s: String, into out: inout String) {
        out += "\""
        for scalar in s.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            case "\u{2028}": out += "\\u2028"
            case "\u{2029}": out += "\\u2029"
            default:
                if scalar.value < 0x20 || scalar == "<" || scalar == ">" || scalar == "&" {
                    let hex = String(scalar.value, radix: 16)
                    out += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
                } else {
                    out.unicodeScalars.append(scalar)
                }
            }
        }
        out += "\""
    }
}

extension JSON: Decodable {
    public init(from decoder: any Decoder) throws {
        if var array = try? decoder.unkeyedContainer() {
            var items: [JSON] = []
            while !array.isAtEnd { items.append(try array.decode(JSON.self)) }
            self = .array(items)
            return
        }
        if let object = try? decoder.container(keyedBy: AnyKey.self) {
            var members: [String: JSON] = [:]
            for key in object.allKeys { members[key.stringValue] = try object.decode(JSON.self, forKey: key) }
            self = .object(members)
            return
        }
        let single = try decoder.singleValueContainer()
        if single.decodeNil() { self = .null; return }
        if let b = try? single.decode(Bool.self) { self = .bool(b); return }
        if let s = try? single.decode(String.self) { self = .string(s); return }
        if let i = try? single.decode(Int64.self) { self = .int(i); return }
        let d = try single.decode(Double.self)
        self = .double(d)
    }

    struct AnyKey: CodingKey {
        var stringValue: String
        var intValue: Int? { nil }
        init(stringValue: String) { self.stringValue = stringValue }
        init?(intValue: Int) { nil }
    }
}

extension JSON: ExpressibleByStringLiteral, ExpressibleByArrayLiteral, ExpressibleByDictionaryLiteral,
    ExpressibleByNilLiteral, ExpressibleByBooleanLiteral {
    public init(stringLiteral value: String) { self = .string(value) }
    public init(arrayLiteral elements: JSON...) { self = .array(elements) }
    public init(dictionaryLiteral elements: (String, JSON)...) {
        self = .object(Dictionary(elements, uniquingKeysWith: { _, last in last }))
    }
    public init(nilLiteral: ()) { self = .null }
    public init(booleanLiteral value: Bool) { self = .bool(value) }
}
