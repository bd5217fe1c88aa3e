/// PINs: 4 to 12 ASCII digits, given as a string.
public enum PIN {
    public static let lengths = 4...12

    public static func isValid(_ text: String) -> Bool {
        let bytes = text.utf8
        return lengths.contains(bytes.count) && bytes.allSatisfy { $0 >= 48 && $0 <= 57 }
    }

    /// The member `key` as a PIN; missing, not a string, or not 4–12 digits is `invalid`.
    public static func read(_ f: Fields, _ key: String) throws(CarFitError) -> String {
        let path = f.path(key)
        guard let value = f.value(key) else { throw .invalid(path, "\(path) is required: 4 to 12 digits.") }
        guard case .string(let text) = value else {
            throw .invalid(path, "\(path) must be a string of 4 to 12 digits (write it in quotes).")
        }
        guard isValid(text) else { throw .invalid(path, "\(path) must be 4 to 12 digits (0-9).") }
        return text
    }
}
