/// The category bar: "all", the challenge's five in its order, then the other categories of the
/// data alphabetically (by code point; categories are stored lower-case).
public enum TransactionCategories {
    public static let all = "all"
    public static let standard = ["food", "health", "entertainment", "shopping", "travel"]

    /// The categories without "all": the five, then `others` (minus the five) sorted.
    public static func ordered(_ present: some Sequence<String>) -> [String] {
        let fixed = Set(standard)
        let extra = Set(present).subtracting(fixed).subtracting([all])
            .sorted { $0.unicodeScalars.map(\.value).lexicographicallyPrecedes($1.unicodeScalars.map(\.value)) }
        return standard + extra
    }

    /// The bar: `["all"] + ordered(present)`.
    public static func bar(_ present: some Sequence<String>) -> [String] { [all] + ordered(present) }

    /// A category as stored: trimmed, lower-cased, non-empty and not "all".
    public static func normalized(_ text: String, field: String) throws(CarFitError) -> String {
        let c = text.trimmed.lowercased()
        guard !c.isEmpty else { throw .invalid(field, "\(field) must not be empty.") }
        guard c != all else { throw .invalid(field, "\(field) \"all\" is reserved for the whole list; use another name.") }
        guard c.utf8.count <= 256, !c.utf8.contains(0) else { throw .invalid(field, "\(field) must be at most 256 bytes long, without NUL.") }
        return c
    }
}
