/// A product id as the source gave it: an integer (wine.com's `Id`) or a string. Both forms
/// name the same product when their text is equal (`101` and `"101"`); responses write the id
/// in the form it was last imported with.
public struct ProductID: Sendable, Hashable {
    /// The decimal text of an integer id, or the string id as given.
    public var key: String
    public var isInteger: Bool

    public static let maxLength = 200

    public init(key: String, isInteger: Bool) {
        self.key = key
        self.isInteger = isInteger
    }

    /// The member `key` as a product id: an integer, or a non-blank string of at most 200
    /// characters. Missing is `invalid`.
    public static func read(_ f: Fields, _ key: String) throws(CarFitError) -> ProductID {
        let path = f.path(key)
        guard let value = f.value(key) else { throw .invalid(path, "\(path) is required.") }
        switch value {
        case .int(let n):
            return ProductID(key: String(n), isInteger: true)
        case .double(let d) where d.rounded() == d && abs(d) < 9.0e15:
            return ProductID(key: String(Int64(d)), isInteger: true)
        case .string(let s):
            guard !s.trimmed.isEmpty else { throw .invalid(path, "\(path) must not be blank.") }
            guard s.count <= maxLength else { throw .invalid(path, "\(path) must be at most \(maxLength) characters.") }
            return ProductID(key: s, isInteger: false)
        default:
            throw .invalid(path, "\(path) must be a string or a whole number.")
        }
    }
}
