/// A time zone's rules as a TZif file gives them (RFC 8536): the UTC offset of local time type 0
/// before the first transition, the offset each transition brings, and the POSIX TZ footer rule
/// after the last one (without a footer, the last transition's offset stays).
public struct ZoneRules: Sendable, Equatable {
    /// Transition instants, UTC seconds since the epoch, ascending.
    let times: [Int64]
    /// The offset (seconds east of UTC) from each transition on.
    let offsets: [Int]
    /// Before the first transition.
    let initialOffset: Int
    /// After the last transition; nil when the file has none, then the last offset stays.
    let footer: PosixTZRule?

    /// Coordinated Universal Time: offset 0 at every instant.
    public static let utc = ZoneRules(times: [], offsets: [], initialOffset: 0, footer: nil)

    init(times: [Int64], offsets: [Int], initialOffset: Int, footer: PosixTZRule?) {
        self.times = times
        self.offsets = offsets
        self.initialOffset = initialOffset
        self.footer = footer
    }

    /// The offset from UTC, in seconds, at `second` (UTC seconds since the epoch).
    public func offset(atSecond second: Int64) -> Int {
        guard let last = times.last else { return footer?.offset(atSecond: second) ?? initialOffset }
        if second < times[0] { return initialOffset }
        if second > last, let footer { return footer.offset(atSecond: second) }
        // The last transition at or before `second`.
        var low = 0
        var high = times.count
        while high - low > 1 {
            let mid = low + (high - low) / 2
            if times[mid] <= second { low = mid } else { high = mid }
        }
        return offsets[low]
    }

    /// The first second after `second` at which the offset differs from the second before it,
    /// or nil when it never changes again.
    public func nextTransition(after second: Int64) -> Int64? {
        // Transitions of the file.
        var low = 0
        var high = times.count
        while low < high {
            let mid = low + (high - low) / 2
            if times[mid] <= second { low = mid + 1 } else { high = mid }
        }
        var i = low
        while i < times.count {
            let t = times[i]
            if t > Int64.min, offset(atSecond: t) != offset(atSecond: t - 1) { return t }
            i += 1
        }
        // The footer's rule, past the last transition.
        guard let footer else { return nil }
        let from = max(second, times.last ?? Int64.min)
        var candidates: [Int64] = []
        if let last = times.last, last < Int64.max, last + 1 > second { candidates.append(last + 1) }
        guard footer.daylightOffset != nil else {
            return candidates.first { offset(atSecond: $0) != offset(atSecond: $0 - 1) }
        }
        let year = PosixTZRule.utcYear(from)
        guard year < 100_000 else { return nil }
        for y in (year - 1)...(year + 2) { candidates += footer.candidates(year: y) }
        candidates.sort()
        for c in candidates where c > second && c > (times.last ?? Int64.min) {
            if offset(atSecond: c) != offset(atSecond: c - 1) { return c }
        }
        return nil
    }

    /// Reads a TZif file (versions 1 to 4): the 64-bit data of version 2 and later with their
    /// footer, the 32-bit data of a version 1 file. Nil when the bytes are not a valid TZif file.
    public init?(tzif bytes: [UInt8]) {
        var r = Reader(bytes: bytes)
        guard let v1 = r.header() else { return nil }
        if v1.version == 0 {
            guard v1.isUsable, let data = r.block(v1, timeSize: 4) else { return nil }
            self.init(data, footer: nil)
            return
        }
        // The 32-bit data of a later version are only skipped (a writer may leave them empty).
        guard r.skip(v1.blockSize(timeSize: 4)), let v2 = r.header(), v2.version != 0, v2.isUsable,
              let data = r.block(v2, timeSize: 8) else { return nil }
        // The footer: a newline, the TZ string (possibly empty), a newline.
        guard r.byte() == 0x0A else { return nil }
        var text: [UInt8] = []
        while true {
            guard let b = r.byte(), text.count < 256 else { return nil }
            if b == 0x0A { break }
            text.append(b)
        }
        var footer: PosixTZRule?
        if !text.isEmpty {
            guard let rule = PosixTZRule(String(decoding: text, as: UTF8.self)) else { return nil }
            footer = rule
        }
        self.init(data, footer: footer)
    }

    private init(_ data: Reader.Block, footer: PosixTZRule?) {
        times = data.times
        offsets = data.indices.map { data.typeOffsets[Int($0)] }
        initialOffset = data.typeOffsets[0]
        self.footer = footer
    }

    /// A big-endian cursor over a TZif file.
    private struct Reader {
        let bytes: [UInt8]
        var i = 0

        struct Header {
            var version: UInt8
            var isutcnt, isstdcnt, leapcnt, timecnt, typecnt, charcnt: Int

            /// At least one local time type, and the optional indicator arrays of its length.
            var isUsable: Bool {
                typecnt >= 1 && charcnt >= 1 && (isutcnt == 0 || isutcnt == typecnt) && (isstdcnt == 0 || isstdcnt == typecnt)
            }

            func blockSize(timeSize: Int) -> Int {
                timecnt * timeSize + timecnt + typecnt * 6 + charcnt + leapcnt * (timeSize + 4) + isstdcnt + isutcnt
            }
        }

        struct Block {
            var times: [Int64]
            var indices: [UInt8]
            var typeOffsets: [Int]
        }

        mutating func byte() -> UInt8? {
            guard i < bytes.count else { return nil }
            defer { i += 1 }
            return bytes[i]
        }

        mutating func skip(_ n: Int) -> Bool {
            guard n >= 0, n <= bytes.count - i else { return false }
            i += n
            return true
        }

        mutating func integer(_ size: Int) -> Int64? {
            guard size <= bytes.count - i else { return nil }
            var v: UInt64 = 0
            for k in 0..<size { v = v << 8 | UInt64(bytes[i + k]) }
            i += size
            if size == 4 { return Int64(Int32(bitPattern: UInt32(truncatingIfNeeded: v))) }
            return Int64(bitPattern: v)
        }

        mutating func header() -> Header? {
            guard bytes.count - i >= 44, bytes[i] == 0x54, bytes[i + 1] == 0x5A, bytes[i + 2] == 0x69,
                  bytes[i + 3] == 0x66 else { return nil }
            let version: UInt8 = switch bytes[i + 4] {
            case 0: 0
            case 0x32, 0x33, 0x34: bytes[i + 4] - 0x30
            default: 255
            }
            guard version != 255 else { return nil }
            i += 20
            var counts: [Int] = []
            for _ in 0..<6 {
                guard let c = integer(4), c >= 0, c <= 1 << 20 else { return nil }
                counts.append(Int(c))
            }
            let h = Header(version: version, isutcnt: counts[0], isstdcnt: counts[1], leapcnt: counts[2],
                           timecnt: counts[3], typecnt: counts[4], charcnt: counts[5])
            guard h.typecnt <= 256 else { return nil }
            return h
        }

        mutating func block(_ h: Header, timeSize: Int) -> Block? {
            guard h.blockSize(timeSize: timeSize) <= bytes.count - i else { return nil }
            var times: [Int64] = []
            times.reserveCapacity(h.timecnt)
            for _ in 0..<h.timecnt {
                guard let t = integer(timeSize) else { return nil }
                if let previous = times.last, t <= previous { return nil }
                times.append(t)
            }
            var indices: [UInt8] = []
            for _ in 0..<h.timecnt {
                guard let b = byte(), Int(b) < h.typecnt else { return nil }
                indices.append(b)
            }
            var typeOffsets: [Int] = []
            for _ in 0..<h.typecnt {
                guard let utoff = integer(4), utoff > -90_000, utoff < 93_600,
                      let isdst = byte(), isdst <= 1, let index = byte(), Int(index) < h.charcnt else { return nil }
                typeOffsets.append(Int(utoff))
            }
            guard skip(h.charcnt + h.leapcnt * (timeSize + 4) + h.isstdcnt + h.isutcnt) else { return nil }
            return Block(times: times, indices: indices, typeOffsets: typeOffsets)
        }
    }
}
