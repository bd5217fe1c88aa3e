/// The known name a mistyped one was most likely meant to be: the same name in another case,
/// or one at most two edits away (an inserted, deleted or replaced letter, or two neighbours
/// swapped), ignoring case.
public enum NearestName {
    /// The most edits a name may be from a known one and still be suggested.
    static let maxEdits = 2
    /// Names are shown in messages up to this many characters.
    static let maxShown = 64

    /// The known name closest to `name`, the first in `known` on a tie, or nil when none is
    /// within `maxEdits`.
    public static func nearest(to name: String, among known: [String]) -> String? {
        let typed = Array(name.lowercased().unicodeScalars)
        // A name far longer than every known one cannot be close: no work for a huge key.
        guard typed.count <= (known.map(\.unicodeScalars.count).max() ?? 0) + maxEdits else { return nil }
        var best: (name: String, edits: Int)?
        for candidate in known {
            let target = Array(candidate.lowercased().unicodeScalars)
            guard abs(target.count - typed.count) <= maxEdits else { continue }
            let edits = distance(typed, target)
            if edits <= maxEdits, edits < best?.edits ?? Int.max { best = (candidate, edits) }
        }
        return best?.name
    }

    /// The optimal string alignment distance: insertions, deletions, substitutions and swaps
    /// of neighbours, each one edit.
    static func distance(_ a: [Unicode.Scalar], _ b: [Unicode.Scalar]) -> Int {
        if a.isEmpty { return b.count }
        if b.isEmpty { return a.count }
        let width = b.count + 1
        // Three rows of the table: two back (for swaps), the previous and the current.
        var twoBack = [Int](repeating: 0, count: width)
        var previous = Array(0..<width)
        var current = [Int](repeating: 0, count: width)
        for i in 1...a.count {
            current[0] = i
            for j in 1...b.count {
                let cost = a[i - 1] == b[j - 1] ? 0 : 1
                var d = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + cost)
                if i > 1, j > 1, a[i - 1] == b[j - 2], a[i - 2] == b[j - 1] { d = min(d, twoBack[j - 2] + 1) }
                current[j] = d
            }
            (twoBack, previous, current) = (previous, current, twoBack)
        }
        return previous[b.count]
    }

    /// `name` as a message shows it: control characters replaced, and cut at `maxShown`
    /// characters.
    public static func printable(_ name: String) -> String {
        var shown = String(String.UnicodeScalarView(name.unicodeScalars.prefix(maxShown).map {
            $0.properties.generalCategory == .control ? "?" : $0
        }))
        if name.unicodeScalars.count > maxShown { shown += "…" }
        return shown
    }
}
