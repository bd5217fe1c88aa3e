import CarFitCore
import CarFitIO

/// One constrained member of an operation's request, as the schema states it (`RequestTypes`,
/// generated from it): its path from the request's root (`"[]"` stands for each item of an
/// array), the JSON types it may have (bits of `RequestCheck`; 0: any), whether it is required,
/// and the schema's `minimum`/`maximum` (and exclusive forms), `minLength`/`maxLength` (in code
/// points), `minItems`/`maxItems` and `enum`/`const` (`choices`).
struct RequestMember: Sendable {
    let path: [String]
    let types: UInt8
    let required: Bool
    let minimum: Double?
    let exclusiveMinimum: Double?
    let maximum: Double?
    let exclusiveMaximum: Double?
    let minLength: Int?
    let maxLength: Int?
    let minItems: Int?
    let maxItems: Int?
    let choices: [JSON]?

    init(_ path: [String], types: UInt8, required: Bool = false,
         minimum: Double? = nil, exclusiveMinimum: Double? = nil, maximum: Double? = nil, exclusiveMaximum: Double? = nil,
         minLength: Int? = nil, maxLength: Int? = nil, minItems: Int? = nil, maxItems: Int? = nil, choices: [JSON]? = nil) {
        self.path = path
        self.types = types
        self.required = required
        self.minimum = minimum
        self.exclusiveMinimum = exclusiveMinimum
        self.maximum = maximum
        self.exclusiveMaximum = exclusiveMaximum
        self.minLength = minLength
        self.maxLength = maxLength
        self.minItems = minItems
        self.maxItems = maxItems
        self.choices = choices
    }
}

/// The request half of the contract: before an operation runs, each request member the
/// schema constrains (`RequestTypes`, generated from include/carfit.schema.json) is checked,
/// parents before their members, in the schema's order, first every member's JSON type, then
/// the other rules; the first that breaks one makes the call `invalid` with the member's path as `field` (`start.latitude`, `dates[2]`), whether
/// or not the operation would read it. A null member reads as absent (as everywhere in
/// requests): a required member must be present, and not null unless null is one of its types;
/// an absent or null optional member is not checked further. What the schema cannot say (a
/// date's format, one of several members, a domain rule) is the operation's.
enum RequestCheck {
    static let string: UInt8 = 1, integer: UInt8 = 2, number: UInt8 = 4, boolean: UInt8 = 8
    static let array: UInt8 = 16, object: UInt8 = 32, null: UInt8 = 64

    /// Refuses the first member of `request` (in the schema's order) that the schema of the
    /// operation `symbol` does not allow.
    static func check(_ symbol: String, _ request: Fields) throws(CarFitError) {
        guard let members = RequestTypes.members[symbol] else { return }
        try check(members, request)
    }

    /// Refuses the first of `members` that `request` breaks: first a member of a JSON type the
    /// schema refuses (in the schema's order), then a required member missing or a value out of
    /// its bounds, lengths, item counts or choices (in the schema's order).
    static func check(_ members: [RequestMember], _ request: Fields) throws(CarFitError) {
        for pass in [Pass.types, .rules] {
            for member in members {
                try check(member, pass, in: .object(request.object), at: 0, shown: request.path)
            }
        }
    }

    /// What a pass over the members checks.
    private enum Pass { case types, rules }

    /// Checks `member` below `value`, the value at `member.path[..<depth]` (shown as `shown`):
    /// nothing when a parent on the way is absent, null or not of the kind the path goes into
    /// (the parent's own check refuses it).
    private static func check(_ member: RequestMember, _ pass: Pass, in value: JSON, at depth: Int,
                              shown: String) throws(CarFitError) {
        if depth == member.path.count {
            try checkValue(member, pass, value, shown)
            return
        }
        let step = member.path[depth]
        if step == "[]" {
            guard case .array(let items) = value else { return }
            for (i, item) in items.enumerated() {
                try check(member, pass, in: item, at: depth + 1, shown: "\(shown)[\(i)]")
            }
            return
        }
        guard case .object(let object) = value else { return }
        let path = shown.isEmpty ? step : shown + "." + step
        let last = depth + 1 == member.path.count
        let found = object[step]
        // Absent, or null where null is not one of its types: it reads as absent.
        let absent = found.map { $0.isNull && (!last || (member.types != 0 && member.types & null == 0)) } ?? true
        guard let found, !absent else {
            if pass == .rules && member.required && last { throw .invalid(path, "\(path) is required.") }
            return
        }
        try check(member, pass, in: found, at: depth + 1, shown: path)
    }

    /// The member's own rules on its value `value` (present).
    private static func checkValue(_ member: RequestMember, _ pass: Pass, _ value: JSON, _ path: String) throws(CarFitError) {
        if value.isNull { return }  // allowed by its types (else it read as absent)
        guard pass == .rules else {
            if member.types != 0 && !fits(value, member.types) {
                throw .invalid(path, "\(path) must be \(describe(member.types)).")
            }
            return
        }
        if let choices = member.choices, !choices.contains(where: { same(value, $0) }) {
            throw .invalid(path, "\(path) must be \(listed(choices)).")
        }
        switch value {
        case .int, .double:
            let n: Double
            switch value {
            case .int(let i): n = Double(i)
            case .double(let d): n = d
            default: return
            }
            if let bound = member.minimum, n < bound { throw .invalid(path, "\(path) must be at least \(text(bound)).") }
            if let bound = member.exclusiveMinimum, n <= bound {
                throw .invalid(path, "\(path) must be greater than \(text(bound)).")
            }
            if let bound = member.maximum, n > bound { throw .invalid(path, "\(path) must be at most \(text(bound)).") }
            if let bound = member.exclusiveMaximum, n >= bound {
                throw .invalid(path, "\(path) must be less than \(text(bound)).")
            }
        case .string(let s):
            guard member.minLength != nil || member.maxLength != nil else { return }
            let length = s.unicodeScalars.count
            if let bound = member.minLength, length < bound {
                throw .invalid(path, bound == 1 ? "\(path) must not be empty." : "\(path) must be at least \(bound) characters long.")
            }
            if let bound = member.maxLength, length > bound {
                throw .invalid(path, "\(path) is longer than \(bound) characters.")
            }
        case .array(let items):
            if let bound = member.minItems, items.count < bound {
                throw .invalid(path, "\(path) must have at least \(bound) item\(bound == 1 ? "" : "s").")
            }
            if let bound = member.maxItems, items.count > bound {
                throw .invalid(path, "\(path) must have at most \(bound) item\(bound == 1 ? "" : "s").")
            }
        default:
            return
        }
    }

    /// Whether `value` is of one of `types`: a whole real counts as an integer, any number as
    /// a number (JSON Schema's rules).
    static func fits(_ value: JSON, _ types: UInt8) -> Bool {
        switch value {
        case .null: true  // null reads as absent (`check` decides whether that is allowed)
        case .bool: types & boolean != 0
        case .int: types & (integer | number) != 0
        case .double(let d): types & number != 0 || (types & integer != 0 && d.rounded() == d && d.isFinite)
        case .string: types & string != 0
        case .array: types & array != 0
        case .object: types & object != 0
        }
    }

    /// JSON Schema's equality of an enum's value: numbers by value (1 is 1.0).
    static func same(_ value: JSON, _ choice: JSON) -> Bool {
        switch (value, choice) {
        case (.int(let a), .double(let b)), (.double(let b), .int(let a)): Double(a) == b
        default: value == choice
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

    /// `"a"`, `"a" or "b"`, `"a", "b" or "c"` (a null choice is not named: null reads as absent).
    static func listed(_ choices: [JSON]) -> String {
        var words: [String] = []
        for choice in choices {
            switch choice {
            case .null: continue
            case .string(let s): words.append("\"\(s)\"")
            case .int(let i): words.append(String(i))
            case .double(let d): words.append(text(d))
            case .bool(let b): words.append(b ? "true" : "false")
            case .array, .object: continue
            }
        }
        guard let last = words.popLast() else { return "absent" }
        return words.isEmpty ? last : words.joined(separator: ", ") + " or " + last
    }

    /// A bound as written in the schema: whole numbers without a fraction.
    static func text(_ value: Double) -> String {
        if value.rounded() == value, abs(value) < 1e15 { return String(Int64(value)) }
        return "\(value)"
    }
}
