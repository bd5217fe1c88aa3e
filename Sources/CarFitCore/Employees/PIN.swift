/// PINs: 4 to 12 ASCII digits, given as a string.
public enum PIN {
    public static let lengths = 4...12

    public static func isValid(_ text: String) -> Bool {
        let bytes = text.utf8
        return lengths.contains(bytes.count) && bytes.allSatisfy { $0 >= 48 && $0 <= 57 }
    }
}
