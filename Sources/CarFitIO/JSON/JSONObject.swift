/// A JSON object with its keys in insertion order. A repeated key keeps its first position and
/// its last value (jansson's rule for duplicated keys in input).
///
/// Request objects are small, so members live in an array searched linearly; an index by key
/// is built only once an object grows past `indexThreshold` members.
public struct JSONObject: Sendable, Equatable {
    /// One member. A struct rather than a tuple: arrays of it are destroyed through its own
    /// compiled value witness instead of the runtime's generic tuple walk.
    public struct Member: Sendable {
        public var key: String
        public var value: JSON
    }

    /// The members in order (the encoder walks them).
    public private(set) var members: [Member] = []
    private var index: [String: Int]?
    /// The encoded text, kept only when asked for (`JSON.keepingEncoding()`); any change drops it.
    public var encoding: [UInt8]?

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
        let members = members.span
        for i in members.indices where members[i].key == key { return i }
        return nil
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
