import CTextScan
import CarFitCore

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The encoder's output: UTF-8 bytes in `malloc`ed memory that grows as it fills, so a finished
/// text goes to a C host as it is (`takeCString()`), without a copy. If memory runs out, further
/// appends are dropped and `takeCString()` answers nil; nothing traps.
public struct JSONBuffer: ~Copyable {
    private var base: UnsafeMutablePointer<UInt8>?
    public private(set) var count = 0
    private var capacity = 0
    private var failed = false

    public init(capacity: Int = 1024) {
        _ = grow(to: max(capacity, 16))
    }

    deinit { free(base) }

    /// Makes room for `extra` more bytes (and a NUL); false once memory has run out.
    @inline(__always)
    private mutating func reserve(_ extra: Int) -> Bool {
        let (needed, overflow) = count.addingReportingOverflow(extra + 1)
        if !overflow, needed <= capacity, base != nil { return true }
        return !overflow && grow(to: needed)
    }

    private mutating func grow(to needed: Int) -> Bool {
        guard !failed else { return false }
        var size = max(capacity, 16)
        while size < needed {
            let (doubled, overflow) = size.multipliedReportingOverflow(by: 2)
            guard !overflow else { failed = true; return false }
            size = doubled
        }
        guard let p = realloc(base, size) else { failed = true; return false }
        base = p.assumingMemoryBound(to: UInt8.self)
        capacity = size
        return true
    }

    @inline(__always)
    public mutating func append(_ byte: UInt8) {
        guard reserve(1), let base else { return }
        base[count] = byte
        count += 1
    }

    @inline(__always)
    public mutating func append(_ bytes: UnsafeRawBufferPointer) {
        guard bytes.count > 0, let source = bytes.baseAddress, reserve(bytes.count), let base else { return }
        JSONBuffer.copy(to: base + count, from: source.assumingMemoryBound(to: UInt8.self), count: bytes.count)
        count += bytes.count
    }

    /// Copies `count` bytes that do not overlap the target: up to 32 as whole words (two
    /// overlapping loads each way), more through `memcpy`. Text and keys are mostly short, and
    /// a call of `memcpy` costs more than the copy.
    @inline(__always)
    private static func copy(to target: UnsafeMutablePointer<UInt8>, from source: UnsafePointer<UInt8>, count n: Int) {
        let t = UnsafeMutableRawPointer(target), s = UnsafeRawPointer(source)
        if n > 32 {
            target.update(from: source, count: n)
        } else if n >= 16 {
            let a = s.loadUnaligned(as: UInt64.self), b = s.loadUnaligned(fromByteOffset: 8, as: UInt64.self)
            let c = s.loadUnaligned(fromByteOffset: n - 16, as: UInt64.self)
            let d = s.loadUnaligned(fromByteOffset: n - 8, as: UInt64.self)
            t.storeBytes(of: a, as: UInt64.self)
            t.storeBytes(of: b, toByteOffset: 8, as: UInt64.self)
            t.storeBytes(of: c, toByteOffset: n - 16, as: UInt64.self)
            t.storeBytes(of: d, toByteOffset: n - 8, as: UInt64.self)
        } else if n >= 8 {
            let a = s.loadUnaligned(as: UInt64.self), b = s.loadUnaligned(fromByteOffset: n - 8, as: UInt64.self)
            t.storeBytes(of: a, as: UInt64.self)
            t.storeBytes(of: b, toByteOffset: n - 8, as: UInt64.self)
        } else if n >= 4 {
            let a = s.loadUnaligned(as: UInt32.self), b = s.loadUnaligned(fromByteOffset: n - 4, as: UInt32.self)
            t.storeBytes(of: a, as: UInt32.self)
            t.storeBytes(of: b, toByteOffset: n - 4, as: UInt32.self)
        } else {
            var i = 0
            while i < n {
                target[i] = source[i]
                i += 1
            }
        }
    }

    /// Appends a copy of bytes already written (`range`, within `0..<count`); nothing for a
    /// range outside them.
    public mutating func appendCopy(of range: Range<Int>) {
        guard range.lowerBound >= 0, range.upperBound <= count, !range.isEmpty, reserve(range.count), let base else { return }
        JSONBuffer.copy(to: base + count, from: base + range.lowerBound, count: range.count)
        count += range.count
    }

    /// Appends `text` with, at each of `breaks` (ascending offsets into it), a copy of the bytes
    /// already written at `first`, `separator` and a copy of those at `second` (both within
    /// `0..<count`): links that repeat a pair of numbers written before, with one reservation
    /// for all of it. Nothing for a range outside the written bytes or a break outside `text`.
    public mutating func appendLinks(_ text: [UInt8], breaks: [Int], first: Range<Int>, separator: UInt8,
                                     second: Range<Int>) {
        guard first.lowerBound >= 0, first.upperBound <= count, second.lowerBound >= 0, second.upperBound <= count
        else { return }
        let pair = first.count + 1 + second.count
        let total = text.count + pair * breaks.count
        guard reserve(total), let base else { return }
        let written = text.withUnsafeBufferPointer { t in
            breaks.withUnsafeBufferPointer { b -> Bool in
                guard let source = t.baseAddress else { return t.isEmpty && b.isEmpty }
                var at = base + count
                var from = 0
                for end in b {
                    guard end >= from, end <= t.count else { return false }
                    JSONBuffer.copy(to: at, from: source + from, count: end - from)
                    at += end - from
                    JSONBuffer.copy(to: at, from: base + first.lowerBound, count: first.count)
                    at[first.count] = separator
                    JSONBuffer.copy(to: at + first.count + 1, from: base + second.lowerBound, count: second.count)
                    at += pair
                    from = end
                }
                JSONBuffer.copy(to: at, from: source + from, count: t.count - from)
                return true
            }
        }
        if written { count += total }
    }

    /// Text written as it is (keys and punctuation known to need no escaping), copied as whole
    /// words (`copy`: the length is known where this is inlined, so only one way remains).
    @inline(__always)
    public mutating func append(_ text: StaticString) {
        let n = text.utf8CodeUnitCount
        guard reserve(n), let base else { return }
        JSONBuffer.copy(to: base + count, from: text.utf8Start, count: n)
        count += n
    }

    public mutating func appendNull() { append(JSON.nullText) }

    /// A real: the shortest text that reads back as the same double (Swift's description, so
    /// whole reals keep ".0"); non-finite reals, which JSON cannot carry, as `null`.
    public mutating func appendDouble(_ d: Double) {
        if appendShortDecimal(d) { return }
        if d.isFinite { appendASCII(d.description) } else { append(JSON.nullText) }
    }

    /// Writes `d` without building its description when it is the double nearest to a decimal
    /// with at most six places, between 0.001 and 10^9 in magnitude (or +0.0): coordinates,
    /// kilometres, prices. That decimal is then the only one of so few places that reads back
    /// as `d` (the gap between such decimals, 10^-6, exceeds the spacing of doubles there), so
    /// without its trailing zeros it is the shortest round-trip text, and its plain form is what
    /// `description` writes. False, having written nothing, for any other value.
    private mutating func appendShortDecimal(_ d: Double) -> Bool {
        if d.bitPattern == 0 {
            append("0.0")
            return true
        }
        let magnitude = d.magnitude
        guard magnitude >= 0.001, magnitude < 1e9 else { return false }
        // Millionths, rounded (below 10^15, so exact in a double and an Int64); off the
        // decimal's by less than a half when there is such a decimal.
        let n = Int64(magnitude * 1e6 + 0.5)
        guard Double(n) / 1e6 == magnitude else { return false }
        let fraction = Int(n % 1_000_000)
        appendASCII(maxCount: 24) { b in
            var i = 0
            if d < 0 {
                b[0] = UInt8(ascii: "-")
                i = 1
            }
            i += JSONBuffer.writeDigits(UInt64(n / 1_000_000), into: b, at: i)
            b[i] = UInt8(ascii: ".")
            i += 1
            // Six places, two at a time, then the trailing zeros taken off (one place stays).
            let high = fraction / 10_000, rest = fraction - high * 10_000, middle = rest / 100
            JSONBuffer.writePair(high, into: b, at: i)
            JSONBuffer.writePair(middle, into: b, at: i + 2)
            JSONBuffer.writePair(rest - middle * 100, into: b, at: i + 4)
            var places = 6
            while places > 1 && b[i + places - 1] == UInt8(ascii: "0") { places -= 1 }
            return i + places
        }
        return true
    }

    /// The two digits of `n` (0...99) at `b[at]` and `b[at + 1]`.
    @inline(__always)
    private static func writePair(_ n: Int, into b: UnsafeMutableBufferPointer<UInt8>, at: Int) {
        let tens = n / 10
        b[at] = UInt8(truncatingIfNeeded: 48 &+ tens)
        b[at + 1] = UInt8(truncatingIfNeeded: 48 &+ (n &- tens &* 10))
    }

    /// The text `appendDouble` writes for `Double(tenths) / 10` (a whole number of tenths, such
    /// as kilometres with one decimal), from the integer: its digits, a point and the last digit.
    public mutating func appendTenths(_ tenths: Int) {
        // Below 10^15 the double nearest to the one-place decimal reads back as that decimal
        // and nothing shorter (see `appendShortDecimal`), which `description` writes in full.
        guard tenths.magnitude < 1_000_000_000_000_000 else {
            appendDouble(Double(tenths) / 10)
            return
        }
        appendASCII(maxCount: 24) { b in
            var i = 0
            if tenths < 0 {
                b[0] = UInt8(ascii: "-")
                i = 1
            }
            let magnitude = UInt64(tenths.magnitude)
            i += JSONBuffer.writeDigits(magnitude / 10, into: b, at: i)
            b[i] = UInt8(ascii: ".")
            b[i + 1] = UInt8(truncatingIfNeeded: 48 &+ magnitude % 10)
            return i + 2
        }
    }

    /// Writes the decimal digits of `n` at `b[at...]` and answers how many (at most 20).
    private static func writeDigits(_ n: UInt64, into b: UnsafeMutableBufferPointer<UInt8>, at: Int) -> Int {
        // The length by comparisons, then the digits from the last, two per division.
        let length = decimalLength(n)
        var v = n
        var k = at + length - 1
        while v >= 100 {
            let q = v / 100
            let r = v &- q &* 100
            let tens = r / 10
            b[k] = UInt8(truncatingIfNeeded: 48 &+ (r &- tens &* 10))
            b[k - 1] = UInt8(truncatingIfNeeded: 48 &+ tens)
            k -= 2
            v = q
        }
        if v >= 10 {
            let tens = v / 10
            b[k] = UInt8(truncatingIfNeeded: 48 &+ (v &- tens &* 10))
            b[k - 1] = UInt8(truncatingIfNeeded: 48 &+ tens)
        } else {
            b[k] = UInt8(truncatingIfNeeded: 48 &+ v)
        }
        return length
    }

    /// The number of decimal digits of `n` (1–20), by a few comparisons rather than one per
    /// digit: times in milliseconds have thirteen.
    @inline(__always)
    private static func decimalLength(_ n: UInt64) -> Int {
        if n < 100_000 {
            return n < 10 ? 1 : n < 100 ? 2 : n < 1_000 ? 3 : n < 10_000 ? 4 : 5
        }
        if n < 10_000_000_000 {
            return n < 1_000_000 ? 6 : n < 10_000_000 ? 7 : n < 100_000_000 ? 8 : n < 1_000_000_000 ? 9 : 10
        }
        if n < 1_000_000_000_000_000 {
            return n < 100_000_000_000 ? 11 : n < 1_000_000_000_000 ? 12 : n < 10_000_000_000_000 ? 13
                : n < 100_000_000_000_000 ? 14 : 15
        }
        return n < 10_000_000_000_000_000 ? 16 : n < 100_000_000_000_000_000 ? 17 : n < 1_000_000_000_000_000_000 ? 18
            : n < 10_000_000_000_000_000_000 ? 19 : 20
    }

    /// Up to `maxCount` bytes written by `write` straight into the buffer, which answers how many
    /// it wrote: for fixed-width text known to need no escaping (times, dates), written in place.
    @inline(__always)
    public mutating func appendASCII(maxCount: Int, _ write: (UnsafeMutableBufferPointer<UInt8>) -> Int) {
        guard maxCount >= 0, reserve(maxCount), let base else { return }
        let written = write(UnsafeMutableBufferPointer(start: base + count, count: maxCount))
        count += min(max(written, 0), maxCount)
    }

    /// Text known to need no escaping (numbers).
    mutating func appendASCII(_ text: String) {
        if text.utf8.withContiguousStorageIfAvailable({ append(UnsafeRawBufferPointer($0)) }) == nil {
            Array(text.utf8).withUnsafeBytes { append($0) }
        }
    }

    /// Decimal digits of `i`.
    public mutating func appendInt(_ i: Int64) {
        appendASCII(maxCount: 21) { b in  // a sign and 20 digits
            let sign = i < 0 ? 1 : 0
            if sign == 1 { b[0] = UInt8(ascii: "-") }
            return sign + JSONBuffer.writeDigits(i.magnitude, into: b, at: sign)
        }
    }

    /// A JSON string: `"` and `\` and control characters escaped, U+2028/U+2029 escaped (for
    /// hosts that embed the text in JavaScript), everything else as raw UTF-8.
    public mutating func appendString(_ s: String) {
        if s.utf8.withContiguousStorageIfAvailable({ appendString(utf8: $0) }) == nil {
            Array(s.utf8).withUnsafeBufferPointer { appendString(utf8: $0) }
        }
    }

    /// The JSON string of text given as UTF-8 bytes, exactly as `appendString` writes the
    /// `String` decoded from them: valid UTF-8 is escaped as it is, anything else is first
    /// repaired the way `String(decoding:as:)` repairs it (U+FFFD for each bad sequence).
    public mutating func appendString(utf8 bytes: UnsafeBufferPointer<UInt8>) {
        // Most text goes out as it is: copied in place, behind its opening quote, by the scan
        // that looks at every byte (sixteen at a time) for what JSON escapes and checks text
        // that is not ASCII as UTF-8. Otherwise the copy is written over.
        let n = bytes.count
        guard reserve(n + 2), let base else { return }
        let marks = text_scan_copy(base + count + 1, bytes.baseAddress, n)
        if marks == 0 {
            base[count] = UInt8(ascii: "\"")
            base[count + 1 + n] = UInt8(ascii: "\"")
            count += n + 2
        } else if marks & TEXT_SCAN_INVALID != 0 {
            appendString(String(decoding: bytes, as: UTF8.self))
        } else {
            appendEscaped(bytes)
        }
    }

    static var lows: UInt64 { 0x0101_0101_0101_0101 }
    static var highs: UInt64 { 0x8080_8080_8080_8080 }

    /// Whether `bytes` is well-formed UTF-8 (no overlong forms, no surrogates, nothing past
    /// U+10FFFF), the bytes a Swift `String` holds.
    static func isValidUTF8(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        var separators: Int32 = 0
        return text_scan_utf8(bytes.baseAddress, bytes.count, &separators) != 0
    }

    /// `bytes` in quotes with the characters that need it escaped.
    private mutating func appendEscaped(_ bytes: UnsafeBufferPointer<UInt8>) {
        append(UInt8(ascii: "\""))
        var pending = 0
        var index = 0
        let count = bytes.count
        while index < count {
            // Eight bytes at a time while none of them needs a look (see `isPlain`).
            if count - index >= 8, let start = bytes.baseAddress,
               JSONBuffer.isPlain(UnsafeRawPointer(start + index).loadUnaligned(as: UInt64.self)) {
                index += 8
                continue
            }
            let c = bytes[index]
            // Most bytes go out as they are: printable ASCII other than " and \, and UTF-8
            // sequences other than those starting with 0xE2.
            if c >= 0x20 && c != 0x22 && c != 0x5C && c != 0xE2 {
                index += 1
                continue
            }
            let escape: StaticString?
            var control = false
            switch c {
            case UInt8(ascii: "\""): escape = "\\\""
            case UInt8(ascii: "\\"): escape = "\\\\"
            case 0x0A: escape = "\\n"
            case 0x0D: escape = "\\r"
            case 0x09: escape = "\\t"
            case 0x08: escape = "\\b"
            case 0x0C: escape = "\\f"
            case 0x00..<0x20:
                escape = nil
                control = true
            case 0xE2 where index + 2 < count && bytes[index + 1] == 0x80 && (bytes[index + 2] == 0xA8 || bytes[index + 2] == 0xA9):
                escape = bytes[index + 2] == 0xA8 ? "\\u2028" : "\\u2029"
            default:
                index += 1
                continue
            }
            append(UnsafeRawBufferPointer(UnsafeBufferPointer(rebasing: bytes[pending..<index])))
            if control {
                append(JSONBuffer.controlPrefix)
                append(JSONBuffer.hexDigits[Int(c >> 4)])
                append(JSONBuffer.hexDigits[Int(c & 0xF)])
            } else if let escape {
                append(escape)
            }
            index += c == 0xE2 ? 3 : 1
            pending = index
        }
        append(UnsafeRawBufferPointer(UnsafeBufferPointer(rebasing: bytes[pending..<count])))
        append(UInt8(ascii: "\""))
    }

    /// Whether all eight bytes of `w` go out as they are: none below 0x20, no `"`, no `\` and
    /// no 0xE2 (the lead byte of U+2028 and U+2029); other UTF-8 bytes pass.
    @inline(__always)
    static func isPlain(_ w: UInt64) -> Bool { needsLook(w) == 0 }

    /// The high bit of each byte of `w` that the escaper must look at (see `isPlain`); exact
    /// word-at-a-time tests for a byte below n and a byte equal to c, which may also mark a
    /// byte above a marked one, so only zero or not counts.
    @inline(__always)
    static func needsLook(_ w: UInt64) -> UInt64 {
        let ones = lows
        let control = (w &- 0x20 &* ones) & ~w & highs
        let q = w ^ (0x22 &* ones)
        let quote = (q &- ones) & ~q & highs
        let b = w ^ (0x5C &* ones)
        let backslash = (b &- ones) & ~b & highs
        let e = w ^ (0xE2 &* ones)
        let e2 = (e &- ones) & ~e & highs
        return control | quote | backslash | e2
    }

    static let controlPrefix: StaticString = "\\u00"
    static let hexDigits: [UInt8] = Array("0123456789abcdef".utf8)

    /// A copy of the bytes.
    public var bytes: [UInt8] {
        guard let base, count > 0 else { return [] }
        return Array(UnsafeBufferPointer(start: base, count: count))
    }

    /// The text followed by a NUL, in `malloc`ed memory that the caller frees with `free`; nil
    /// if memory ran out while encoding.
    public consuming func takeCString() -> UnsafeMutablePointer<CChar>? {
        guard !failed, reserve(0), let base else { return nil }
        base[count] = 0
        self.base = nil
        return UnsafeMutableRawPointer(base).assumingMemoryBound(to: CChar.self)
    }
}
