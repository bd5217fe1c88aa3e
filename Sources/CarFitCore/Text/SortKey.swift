import Foundation

/// Text compared the way people expect in a list: case and accents ignored ("Étienne" among
/// the E's, "Ålborg" among the A's).
public enum SortKey {
    public static func fold(_ text: String) -> String {
        text.folding(options: [.caseInsensitive, .diacriticInsensitive], locale: nil)
    }

    /// Folded order, then the exact text, so the order is total and stable across runs.
    public static func less(_ a: String, _ b: String) -> Bool {
        let (fa, fb) = (fold(a), fold(b))
        if fa != fb { return fa < fb }
        return a < b
    }
}
