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

    /// A string id: non-blank and at most 200 characters; anything else is `invalid` with `path`.
    public init(text s: String, path: String) throws(CarFitError) {
        guard !s.trimmed.isEmpty else { throw .invalid(path, "\(path) must not be blank.") }
        guard s.count <= ProductID.maxLength else { throw .invalid(path, "\(path) must be at most \(ProductID.maxLength) characters.") }
        self.init(key: s, isInteger: false)
    }

    /// A whole number as an id (a real without fraction below 9e15 counts as one); nil for
    /// any other number.
    public init?(number d: Double) {
        guard d.rounded() == d && abs(d) < 9.0e15 else { return nil }
        self.init(key: String(Int64(d)), isInteger: true)
    }

    /// The refusal of an id that is neither a string nor a whole number.
    public static func notAnID(_ path: String) -> CarFitError {
        .invalid(path, "\(path) must be a string or a whole number.")
    }
}
