/// Text compared the way people expect in a list: case and accents ignored ("Étienne" among
/// the E's, "Ålborg" among the A's). A text's key is its compatibility decomposition (NFKD)
/// without nonspacing marks, case-folded (`NameFoldingTable`, generated from Unicode's data for
/// the Latin, Greek and Cyrillic blocks; any other character is its own key). Keys, and then
/// the texts themselves, compare by code points.
public enum SortKey {
    /// The key of `text` as code points.
    public static func key(_ text: String) -> [UInt32] {
        var out: [UInt32] = []
        out.reserveCapacity(text.utf8.count)
        for scalar in text.unicodeScalars {
            let v = scalar.value
            if v < 0x80 {
                out.append(v >= 0x41 && v <= 0x5A ? v + 0x20 : v)
                continue
            }
            let table = NameFoldingTable.scalars
            var low = 0
            var high = table.count
            while low < high {
                let mid = low + (high - low) / 2
                if table[mid] < v { low = mid + 1 } else { high = mid }
            }
            if low < table.count, table[low] == v, low + 1 < NameFoldingTable.starts.count {
                let from = Int(NameFoldingTable.starts[low])
                let to = Int(NameFoldingTable.starts[low + 1])
                if from <= to, to <= NameFoldingTable.values.count {
                    out += NameFoldingTable.values[from..<to]
                }
            } else {
                out.append(v)
            }
        }
        return out
    }

    /// The key as text.
    public static func fold(_ text: String) -> String {
        var s = String.UnicodeScalarView()
        for v in key(text) { if let scalar = Unicode.Scalar(v) { s.append(scalar) } }
        return String(s)
    }

    /// The code points of `text`.
    public static func scalars(_ text: String) -> [UInt32] { text.unicodeScalars.map(\.value) }

    /// -1, 0 or 1 as `a` is below, equal to or above `b`, element by element.
    public static func compare(_ a: [UInt32], _ b: [UInt32]) -> Int {
        for (x, y) in zip(a, b) where x != y { return x < y ? -1 : 1 }
        return a.count == b.count ? 0 : (a.count < b.count ? -1 : 1)
    }

    /// -1, 0 or 1: by key, then by the texts' code points.
    public static func compare(_ a: String, _ b: String) -> Int {
        let byKey = compare(key(a), key(b))
        if byKey != 0 { return byKey }
        return compare(scalars(a), scalars(b))
    }

    /// Key order, then the exact text, so the order is total and stable across runs.
    public static func less(_ a: String, _ b: String) -> Bool { compare(a, b) < 0 }
}
