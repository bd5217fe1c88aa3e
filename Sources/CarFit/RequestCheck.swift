import CarFitCore
import CarFitIO

/// One typed member of an operation's request: its path from the request's root, the JSON
/// types the schema allows it (bits of `RequestCheck`), and for an array of plain values the
/// types of its items (0: not checked here).
struct RequestMember: Sendable {
    let path: [String]
    let types: UInt8
    let items: UInt8

    init(_ path: [String], types: UInt8, items: UInt8) {
        self.path = path
        self.types = types
        self.items = items
    }
}

/// The request half of the contract: before an operation runs, each request member whose type
/// include/carfit.schema.json declares (`RequestTypes`, generated from it) must have one of
/// those types, else the call is `invalid` with the member's path as `field`. A null member
/// reads as absent (as everywhere in requests) and is left to the operation.
enum RequestCheck {
    static let string: UInt8 = 1, integer: UInt8 = 2, number: UInt8 = 4, boolean: UInt8 = 8
    static let array: UInt8 = 16, object: UInt8 = 32

    /// Refuses the first member of `request` (in the schema's order) whose type the schema of
    /// the operation `symbol` does not allow.
    static func check(_ symbol: String, _ request: Fields) throws(CarFitError) {
        guard let members = RequestTypes.members[symbol] else { return }
        for member in members {
            guard let (value, path) = find(member.path, in: request.object) else { continue }
            if value.isNull { continue }
            guard fits(value, member.types) else { throw .invalid(path, "\(path) must be \(describe(member.types)).") }
            if member.items != 0, case .array(let items) = value {
                for (i, item) in items.enumerated() where !fits(item, member.items) {
                    throw .invalid("\(path)[\(i)]", "\(path)[\(i)] must be \(describe(member.items)).")
                }
            }
        }
    }

    /// The value at `path` and its dotted path; nil when a member on the way is absent or is
    /// not an object (the parent's own type is checked as a member of its own).
    static func find(_ path: [String], in object: JSONObject) -> (JSON, String)? {
        var current = object
        var shown = ""
        for (i, key) in path.enumerated() {
            guard let value = current[key] else { return nil }
            shown = shown.isEmpty ? key : shown + "." + key
            if i == path.count - 1 { return (value, shown) }
            guard case .object(let inner) = value else { return nil }
            current = inner
        }
        return nil
    }

    /// Whether `value` is of one of `types`: a whole real counts as an integer, any number as
    /// a number (JSON Schema's rules).
    static func fits(_ value: JSON, _ types: UInt8) -> Bool {
        switch value {
        case .null: true
        case .bool: types & boolean != 0
        case .int: types & (integer | number) != 0
        case .double(let d): types & number != 0 || (types & integer != 0 && d.rounded() == d && d.isFinite)
        case .string: types & string != 0
        case .array: types & array != 0
        case .object: types & object != 0
        }
    }

    /// "a string", "a whole number or a string", ... in the words of the request readers.
    static func describe(_ types: UInt8) -> String {
        var words: [String] = []
        if types & integer != 0 && types & number == 0 { words.append("a whole number") }
        if types & number != 0 { words.append("a number") }
        if types & string != 0 { words.append("a string") }
        if types & boolean != 0 { words.append("true or false") }
        if types & array != 0 { words.append("an array") }
        if types & object != 0 { words.append("an object") }
        guard let last = words.popLast() else { return "absent" }
        return words.isEmpty ? last : words.joined(separator: ", ") + " or " + last
    }
}
