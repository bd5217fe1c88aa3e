/// Well-formed UTF-8 as Unicode's table of well-formed byte sequences (Table 3-7) defines it,
/// the check jansson makes: no overlong form, no surrogate, nothing past U+10FFFF, nothing cut
/// short. The record reader checks text with it as it reads a string; the encoder's check
/// (`text_scan_utf8` in CTextScan, sixteen bytes at a time over ASCII) follows the same table,
/// and the tests hold each to an independent reference (jansson, Swift's own validation).
enum UTF8Sequence {
    /// The length of the well-formed sequence that starts with the non-ASCII byte at `j` of the
    /// `count` bytes at `p`, or nil.
    @inline(__always)
    static func length(_ p: UnsafePointer<UInt8>, at j: Int, count: Int) -> Int? {
        let n: Int
        var low: UInt8 = 0x80
        var high: UInt8 = 0xBF
        switch p[j] {
        case 0xC2...0xDF: n = 2
        case 0xE0: n = 3; low = 0xA0
        case 0xE1...0xEC, 0xEE...0xEF: n = 3
        case 0xED: n = 3; high = 0x9F
        case 0xF0: n = 4; low = 0x90
        case 0xF1...0xF3: n = 4
        case 0xF4: n = 4; high = 0x8F
        default: return nil
        }
        guard count - j >= n else { return nil }
        let second = p[j + 1]
        guard second >= low, second <= high else { return nil }
        var k = 2
        while k < n {
            let next = p[j + k]
            guard next >= 0x80, next <= 0xBF else { return nil }
            k += 1
        }
        return n
    }
}
