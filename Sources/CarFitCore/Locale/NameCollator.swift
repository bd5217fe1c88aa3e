/// The name order of a locale, as ICU's collator for it orders names of letters, spaces,
/// hyphens and apostrophes (the root collation for en and de; the Danish, Norwegian and Swedish
/// tailorings: æ, ø, å after z and "aa" as å; å, ä, ö after z). Three levels: the letters
/// (ignoring accents and case; a space, a hyphen and an apostrophe are characters too, before
/// the letters), then the accents, then the case. The elements of each character come from the
/// generated `CollationTable`s; a character outside their repertoire sorts after all of it, by
/// code point.
public struct NameCollator: Sendable {
    let table: CollationTable
    let root: CollationTable

    init(_ table: CollationTable) {
        self.table = table
        root = .root
    }

    /// A name's comparison key: its elements' weights level by level.
    public struct Key: Sendable {
        var primary: [UInt32] = []
        var secondary: [UInt8] = []
        var tertiary: [UInt8] = []
    }

    /// The key of `text`.
    public func key(_ text: String) -> Key {
        var key = Key()
        let scalars = Array(text.unicodeScalars.map(\.value))
        var i = 0
        while i < scalars.count {
            if i + 1 < scalars.count, !table.contractions.isEmpty {
                let pair = UInt64(scalars[i]) << 32 | UInt64(scalars[i + 1])
                if let k = NameCollator.index(of: pair, in: table.contractions), table.contractionElements.indices.contains(k) {
                    for e in table.contractionElements[k] { add(e, to: &key) }
                    i += 2
                    continue
                }
            }
            let cp = scalars[i]
            let known = table.forEachElement(of: cp) { add($0, to: &key) }
                || (table !== root && root.forEachElement(of: cp) { add($0, to: &key) })
            if !known {
                // Outside the repertoire: after everything in it, by code point.
                add(UInt64(0xFF00_0000 | (cp & 0x00FF_FFFF)) << 32 | 0x0505, to: &key)
            }
            i += 1
        }
        return key
    }

    private func add(_ e: UInt64, to key: inout Key) {
        let p = UInt32(truncatingIfNeeded: e >> 32)
        let s = UInt8(truncatingIfNeeded: e >> 8)
        var t = UInt8(truncatingIfNeeded: e)
        if p != 0 { key.primary.append(p) }
        if s != 0 { key.secondary.append(s) }
        if t != 0 {
            if table.caseFirstUpper {
                // Upper case first: the case bits of lower (00) and upper (10) trade places.
                if t & 0xC0 != 0x40 { t ^= 0x80 }
            } else {
                t &= 0x3F
            }
            key.tertiary.append(t)
        }
    }

    static func index<T: Comparable>(of value: T, in sorted: [T]) -> Int? {
        var low = 0
        var high = sorted.count
        while low < high {
            let mid = low + (high - low) / 2
            if sorted[mid] < value { low = mid + 1 } else { high = mid }
        }
        return low < sorted.count && sorted[low] == value ? low : nil
    }

    /// -1, 0 or 1: the order of two keys, level by level.
    public static func compare(_ a: Key, _ b: Key) -> Int {
        let p = compare(a.primary, b.primary)
        if p != 0 { return p }
        let s = compare(a.secondary, b.secondary)
        if s != 0 { return s }
        return compare(a.tertiary, b.tertiary)
    }

    static func compare<T: Comparable>(_ a: [T], _ b: [T]) -> Int {
        for (x, y) in zip(a, b) where x != y { return x < y ? -1 : 1 }
        return a.count == b.count ? 0 : (a.count < b.count ? -1 : 1)
    }

    /// The positions `0..<count` in the order `less` gives them (one sort for every list the
    /// collator orders).
    @inline(never)
    public static func sortedPositions(_ count: Int, by less: (Int, Int) -> Bool) -> [Int] {
        Array(0..<max(0, count)).sorted(by: less)
    }

    /// -1, 0 or 1: the order of two names.
    public func compare(_ a: String, _ b: String) -> Int {
        NameCollator.compare(key(a), key(b))
    }
}
