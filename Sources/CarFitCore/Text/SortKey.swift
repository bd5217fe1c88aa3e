/// Text compared the way people expect in a list: case and accents ignored ("Étienne" among
/// the E's, "Ålborg" among the A's). A text's key is its compatibility decomposition (NFKD)
/// without nonspacing marks, case-folded, over all of Unicode (`NameFoldingTable`, generated from
/// Python's `unicodedata`; the Hangul syllables decompose by Unicode's arithmetic). A character
/// assigned after the table's Unicode version (`NameFoldingTable.unicodeVersion`, older than the
/// Swift runtime's own) is its own key. As NFKD does, the marks the key keeps are put in
/// canonical order (by combining class: `orderedKey`). Keys, and then the texts themselves,
/// compare by code points.
public enum SortKey {
    /// The key of `text` as code points.
    public static func key(_ text: String) -> [UInt32] {
        var out: [UInt32] = []
        out.reserveCapacity(text.utf8.count)
        let firstOrdered = NameFoldingTable.orderedStarts.first ?? UInt32.max
        for scalar in text.unicodeScalars {
            let v = scalar.value
            if v >= firstOrdered, orderedItems(of: v) != nil { return orderedKey(text) }
            appendUnordered(v, to: &out)
        }
        return out
    }

    /// The key of a code point by the table (or Hangul's arithmetic), without regard to order.
    @inline(__always)
    static func appendUnordered(_ v: UInt32, to out: inout [UInt32]) {
        if v < 0x80 {
            out.append(v >= 0x41 && v <= 0x5A ? v + 0x20 : v)
        } else if v >= SortKey.hangulFirst && v <= SortKey.hangulLast {
            let s = v - SortKey.hangulFirst
            out.append(0x1100 + s / 588)
            out.append(0x1161 + (s % 588) / 28)
            if s % 28 != 0 { out.append(0x11A7 + s % 28) }
        } else {
            SortKey.appendKey(of: v, to: &out)
        }
    }

    /// The key of a text that holds a code point of `NameFoldingTable.orderedStarts`: each run of
    /// marks with a combining class (between characters of class 0, removed ones included) in
    /// the order of their classes, equal classes as they come (canonical order), the removed
    /// marks left out.
    static func orderedKey(_ text: String) -> [UInt32] {
        var out: [UInt32] = []
        out.reserveCapacity(text.utf8.count)
        // The pending run: (class, place in the run, code point), sorted when it ends.
        var run: [(UInt32, Int, UInt32)] = []
        func flush() {
            guard !run.isEmpty else { return }
            run.sort { ($0.0, $0.1) < ($1.0, $1.1) }
            for item in run { out.append(item.2) }
            run.removeAll(keepingCapacity: true)
        }
        var part: [UInt32] = []
        for scalar in text.unicodeScalars {
            let v = scalar.value
            if let items = orderedItems(of: v) {
                for item in items {
                    if item == NameFoldingTable.orderBreak {
                        flush()
                    } else if item >> 21 == 0 {
                        flush()
                        out.append(item & 0x1F_FFFF)
                    } else {
                        run.append((item >> 21, run.count, item & 0x1F_FFFF))
                    }
                }
                continue
            }
            part.removeAll(keepingCapacity: true)
            appendUnordered(v, to: &part)
            if !part.isEmpty {
                // Every character a key keeps but the ordered marks has class 0.
                flush()
                out += part
            } else if breaks(v) {
                flush()
            }
        }
        flush()
        return out
    }

    /// The items of an ordered code point's decomposition (`NameFoldingTable.orderedItems`), or nil.
    static func orderedItems(of v: UInt32) -> ArraySlice<UInt32>? {
        let starts = NameFoldingTable.orderedStarts
        var low = 0
        var high = starts.count
        while low < high {
            let mid = low + (high - low) / 2
            if starts[mid] < v { low = mid + 1 } else { high = mid }
        }
        guard low < starts.count, starts[low] == v, low < NameFoldingTable.orderedSpans.count else { return nil }
        let span = NameFoldingTable.orderedSpans[low]
        let from = Int(span >> 8)
        let to = from + Int(span & 0xFF)
        guard to <= NameFoldingTable.orderedItems.count else { return nil }
        return NameFoldingTable.orderedItems[from..<to]
    }

    /// Whether `v`, whose key is empty, has a character of combining class 0 in its
    /// decomposition (`NameFoldingTable.breakingRanges`).
    static func breaks(_ v: UInt32) -> Bool {
        let ranges = NameFoldingTable.breakingRanges
        // The last run whose first code point is at or below v.
        var low = 0
        var high = ranges.count / 2
        while low < high {
            let mid = low + (high - low) / 2
            if ranges[2 * mid] <= v { low = mid + 1 } else { high = mid }
        }
        guard low > 0, 2 * (low - 1) + 1 < ranges.count else { return false }
        return v <= ranges[2 * (low - 1) + 1]
    }

    static let hangulFirst: UInt32 = 0xAC00
    static let hangulLast: UInt32 = 0xD7A3

    /// Appends the key of the code point `v` by the table (its layout is described in
    /// `scripts/gen-unicode-tables`): the run whose first code point is the last one at or below
    /// `v`, then `v`'s place in it.
    static func appendKey(of v: UInt32, to out: inout [UInt32]) {
        let starts = NameFoldingTable.starts
        let words = NameFoldingTable.words
        var low = 0
        var high = starts.count
        while low < high {
            let mid = low + (high - low) / 2
            if starts[mid] <= v { low = mid + 1 } else { high = mid }
        }
        guard low > 0, low - 1 < words.count else { out.append(v); return }
        let start = starts[low - 1]
        let word = words[low - 1]
        let length = (word >> 19 & 0x3FF) + 1
        let payload = word & 0x7FFFF
        let offset = v - start          // start <= v by the search
        switch word >> 29 {
        case 0 where offset < length:
            return
        case 1 where offset < length:
            out.append(payload + offset)
        case 2 where offset < 2 * length - 1 && offset % 2 == 0:
            out.append(payload + offset)
        case 3 where offset < length:
            out.append(payload)
        case 4 where offset == 0:
            let from = Int(payload >> 5)
            let to = from + Int(payload & 31)
            if to <= NameFoldingTable.values.count { out += NameFoldingTable.values[from..<to] } else { out.append(v) }
        default:
            out.append(v)
        }
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
