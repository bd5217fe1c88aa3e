/// First and last names: required, trimmed, non-empty.
public enum PersonName {
    public static let maxLength = 100

    /// `raw` trimmed; blank, longer than `maxLength` or holding a control character is
    /// `invalid`, naming `path`.
    public static func normalized(_ raw: String, path: String) throws(CarFitError) -> String {
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
