/// First and last names: required, trimmed, non-empty.
public enum PersonName {
    public static let maxLength = 100

    public static func read(_ f: Fields, _ key: String) throws(CarFitError) -> String {
        let path = f.path(key)
        guard let raw = try f.string(key) else { throw .invalid(path, "\(path) is required.") }
        let name = raw.trimmed
        guard !name.isEmpty else { throw .invalid(path, "\(path) must not be blank.") }
        guard name.count <= maxLength else { throw .invalid(path, "\(path) must be at most \(maxLength) characters.") }
        guard !name.unicodeScalars.contains(where: { $0.properties.generalCategory == .control }) else {
            throw .invalid(path, "\(path) must not contain control characters.")
        }
        return name
    }

    /// Lower-cased for the case-insensitive uniqueness of last names.
    public static func uniquenessKey(_ name: String) -> String { name.lowercased() }
}
