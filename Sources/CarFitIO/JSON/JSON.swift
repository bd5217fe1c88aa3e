/// A JSON value as the domain sees it: plain Swift, no parser state.
///
/// Requests arrive as `JSON` (parsed by the I/O module's jansson parser) and results leave as
/// `JSON` (encoded into its `JSONBuffer`). Objects keep their key order so responses read the
/// way the header documents them.
public enum JSON: Sendable, Equatable {
    case null
    case bool(Bool)
    case int(Int64)
    case double(Double)
    case string(String)
    case array([JSON])
    case object(JSONObject)
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
