#if canImport(Glibc)
import Glibc
#endif
import CarFitCore

/// The rows of a snapshot being written, packed into memory as they come (document order) and
/// handed back in day order (start, then arrival), each with its repetition: its place among
/// the rows of its (visitId, start) pair. A row is its visitId, its employeeId and its card;
/// rows are copied into chunks of 1 MiB that are never moved, so the memory is about the rows'
/// own size. The usual ids take less: a visitId that is a lower-case UUID is kept as its 16
/// bytes, and an employeeId (a few dozen washers) once, each row holding its number.
///
/// A large snapshot is handed back in runs: `inDayOrder` hands on the rows packed so far and
/// lets their memory go, and the rows packed after them make the next run, their `seq` going
/// on from the last. A row's repetition counts the rows of earlier runs too: those of its pair
/// are counted by the caller's `earlier` (in the table the runs went to), asked only when an
/// earlier run may have had the pair (a filter of the pairs handed on, and the largest start
/// handed on: a document in day order never asks).
///
///     visitId     varint: 0 none, 1 a UUID (16 bytes follow), n >= 2 text of n - 2 bytes
///     employeeId  varint: 0 none, 1 text (varint length and bytes follow), n >= 2 the n - 2nd
///                 of the employee ids kept once
///     card        the rest
final class PackedRows {
    private struct Entry {
        var start: Int64
        var row: UnsafeRawPointer
        var seq: UInt32
        var length: UInt32
    }

    private var entries: [Entry] = []
    private var chunks: [UnsafeMutableRawPointer] = []
    private var cursor: UnsafeMutableRawPointer?
    private var left = 0
    static let chunkSize = 1 << 20
    /// The `seq` of the next row (the rows of earlier runs included).
    private var nextSeq: UInt32 = 0
    /// The largest start of the rows of earlier runs (nil before the first run is handed on).
    private var largestHandedOn: Int64?
    /// The (start, visitId) pairs of earlier runs (`PairFilter`), made when a run is handed on
    /// and more may follow.
    private var handedOn: PairFilter?
    /// The employee ids kept once (each its own allocation, kept across runs), and their numbers.
    private var employees: [UnsafeRawBufferPointer] = []
    private var employeeNumbers: [String: Int] = [:]
    /// Employee ids kept once at most (any others are kept in their rows).
    static let maxEmployees = 4096
    /// Where packed UUIDs are written out as text for their inserts: `textSlots` in turn, so that
    /// each stays valid while the rows after it are handed on.
    private let uuidText = UnsafeMutableRawBufferPointer.allocate(byteCount: 36 * (PackedRows.textSlots + 1), alignment: 1)
    private var nextSlot = 0
    /// How many rows `inDayOrder` hands on while a visitId's text stays valid.
    static let textSlots = 64

    /// Rows appended in all, those of earlier runs included.
    var count: Int { Int(nextSeq) }

    /// The memory the rows of the present run take (their chunks and entries), in bytes.
    var runBytes: Int { chunks.count * PackedRows.chunkSize + entries.capacity * MemoryLayout<Entry>.stride }

    /// Rows in the present run.
    var runCount: Int { entries.count }

    deinit {
        releaseRun()
        for id in employees { id.baseAddress.map { UnsafeMutableRawPointer(mutating: $0).deallocate() } }
        uuidText.deallocate()
    }

    /// Lets the present run's rows go (their chunks; the entries' array is kept for the next):
    /// the views `inDayOrder` handed on are no longer valid.
    func releaseRun() {
        for chunk in chunks { chunk.deallocate() }
        chunks.removeAll(keepingCapacity: true)
        cursor = nil
        left = 0
        entries.removeAll(keepingCapacity: true)
    }

    /// Appends a row starting at `start` (ms since the epoch): `row` as `appendVisitId`,
    /// `appendEmployeeId` and the card wrote it.
    func append(start: Int64, _ row: [UInt8]) throws(CarFitError) {
        guard nextSeq < UInt32.max, row.count < Int(UInt32.max) else {
            throw CarFitError(.invalid, "The snapshot has too many visits to store at once.")
        }
        let at = row.withUnsafeBytes { keep($0) }
        entries.append(Entry(start: start, row: at, seq: nextSeq, length: UInt32(row.count)))
        nextSeq += 1
    }

    /// A copy of `bytes` in the chunks.
    private func keep(_ bytes: UnsafeRawBufferPointer) -> UnsafeRawPointer {
        if bytes.count > left || cursor == nil {
            let size = max(PackedRows.chunkSize, bytes.count)
            let chunk = UnsafeMutableRawPointer.allocate(byteCount: size, alignment: 16)
            chunks.append(chunk)
            cursor = chunk
            left = size
        }
        let at = cursor ?? chunks[chunks.count - 1]
        if let base = bytes.baseAddress { at.copyMemory(from: base, byteCount: bytes.count) }
        cursor = at + bytes.count
        left -= bytes.count
        return UnsafeRawPointer(at)
    }

    /// Appends a row's visitId to `out`.
    func appendVisitId(_ id: String?, _ out: inout [UInt8]) {
        guard var id else {
            out.append(0)
            return
        }
        id.withUTF8 { bytes in
            if bytes.count == 36, PackedRows.packUUID(UnsafeRawBufferPointer(bytes), into: &out) { return }
            VisitCard.varint(UInt64(bytes.count) + 2, &out)
            out.append(contentsOf: bytes)
        }
    }

    /// Appends a row's employeeId to `out`.
    func appendEmployeeId(_ id: String?, _ out: inout [UInt8]) {
        guard var id else {
            out.append(0)
            return
        }
        if let number = employeeNumbers[id] {
            VisitCard.varint(UInt64(number) + 2, &out)
            return
        }
        let key = id
        id.withUTF8 { bytes in
            if employees.count < PackedRows.maxEmployees {
                let number = employees.count
                let copy = UnsafeMutableRawPointer.allocate(byteCount: max(1, bytes.count), alignment: 1)
                if let base = bytes.baseAddress { copy.copyMemory(from: base, byteCount: bytes.count) }
                employees.append(UnsafeRawBufferPointer(start: copy, count: bytes.count))
                employeeNumbers[key] = number
                VisitCard.varint(UInt64(number) + 2, &out)
            } else {
                out.append(1)
                VisitCard.varint(UInt64(bytes.count), &out)
                out.append(contentsOf: bytes)
            }
        }
    }

    /// Appends 1 and the 16 bytes of `text` when it is a UUID in lower case (8-4-4-4-12 hex
    /// digits), which `unpackUUID` writes back as the same text; false (nothing appended) for
    /// any other text.
    static func packUUID(_ text: UnsafeRawBufferPointer, into out: inout [UInt8]) -> Bool {
        guard text.count == 36 else { return false }
        @inline(__always) func nibble(_ c: UInt8) -> UInt8? {
            switch c {
            case 0x30...0x39: return c - 0x30
            case 0x61...0x66: return c - 0x61 + 10
            default: return nil
            }
        }
        var bytes: (UInt64, UInt64) = (0, 0)
        var n = 0
        var i = 0
        while i < 36 {
            if i == 8 || i == 13 || i == 18 || i == 23 {
                guard text[i] == 0x2D else { return false }
                i += 1
                continue
            }
            guard let high = nibble(text[i]), let low = nibble(text[i + 1]) else { return false }
            let byte = UInt64(high << 4 | low)
            if n < 8 { bytes.0 |= byte << (8 * UInt64(n)) } else { bytes.1 |= byte << (8 * UInt64(n - 8)) }
            n += 1
            i += 2
        }
        out.append(1)
        bytes = (bytes.0.littleEndian, bytes.1.littleEndian)
        withUnsafeBytes(of: &bytes) { out.append(contentsOf: $0) }
        return true
    }

    /// Writes the text of the 16 bytes of a packed UUID into `text` (36 bytes).
    static func unpackUUID(_ packed: UnsafeRawBufferPointer, into text: UnsafeMutableRawBufferPointer) {
        let digits: StaticString = "0123456789abcdef"
        let hex = UnsafeRawBufferPointer(start: digits.utf8Start, count: 16)
        var o = 0
        for (k, byte) in packed.prefix(16).enumerated() {
            if k == 4 || k == 6 || k == 8 || k == 10 {
                text[o] = 0x2D
                o += 1
            }
            text[o] = hex[Int(byte >> 4)]
            text[o + 1] = hex[Int(byte & 0x0F)]
            o += 2
        }
    }

    /// A row as it is inserted: views of the packed bytes and of a visitId's text.
    struct Parts {
        var start: Int64
        var seq: Int64
        var visitId: UnsafeRawBufferPointer?
        var repetition: Int64
        var employeeId: UnsafeRawBufferPointer?
        var card: UnsafeRawBufferPointer
    }

    /// One row's parts, views of the packed bytes: its visitId as packed (for comparing).
    private struct Row {
        var start: Int64
        var seq: Int64
        var visitId: UnsafeRawBufferPointer?
        var employeeId: UnsafeRawBufferPointer?
        var card: UnsafeRawBufferPointer
    }

    private func row(_ e: Entry) -> Row? {
        var r = VisitCard.Reader(bytes: UnsafeRawBufferPointer(start: e.row, count: Int(e.length)))
        func take(_ r: inout VisitCard.Reader, _ n: UInt64) -> UnsafeRawBufferPointer? {
            guard n <= UInt64(r.bytes.count - r.offset) else { return nil }
            let start = r.offset
            r.offset += Int(n)
            return UnsafeRawBufferPointer(rebasing: r.bytes[start..<r.offset])
        }
        // The visitId with its tag, as packed.
        let idStart = r.offset
        guard let idTag = r.varint() else { return nil }
        switch idTag {
        case 0: break
        case 1: guard take(&r, 16) != nil else { return nil }
        default: guard take(&r, idTag - 2) != nil else { return nil }
        }
        let visitId = idTag == 0 ? nil : UnsafeRawBufferPointer(rebasing: r.bytes[idStart..<r.offset])
        guard let employeeTag = r.varint() else { return nil }
        let employeeId: UnsafeRawBufferPointer?
        switch employeeTag {
        case 0: employeeId = nil
        case 1:
            guard let n = r.varint(), let text = take(&r, n) else { return nil }
            employeeId = text
        default:
            guard employeeTag - 2 < UInt64(employees.count) else { return nil }
            employeeId = employees[Int(employeeTag - 2)]
        }
        return Row(start: e.start, seq: Int64(e.seq), visitId: visitId, employeeId: employeeId,
                   card: UnsafeRawBufferPointer(rebasing: r.bytes[r.offset...]))
    }

    /// The text of a packed visitId (valid for the next `textSlots - 1` calls), or with `probe`
    /// written to a place of its own (valid until the next such call).
    private func visitIdText(_ packed: UnsafeRawBufferPointer?, probe: Bool = false) -> UnsafeRawBufferPointer? {
        guard let packed, let tag = packed.first else { return nil }
        if tag == 1 {
            let at = probe ? PackedRows.textSlots : nextSlot
            let slot = UnsafeMutableRawBufferPointer(rebasing: uuidText[(at * 36)..<(at * 36 + 36)])
            if !probe { nextSlot = (nextSlot + 1) % PackedRows.textSlots }
            PackedRows.unpackUUID(UnsafeRawBufferPointer(rebasing: packed[1...]), into: slot)
            return UnsafeRawBufferPointer(slot)
        }
        // A text's tag is one varint; its bytes are the rest.
        var r = VisitCard.Reader(bytes: packed)
        _ = r.varint()
        return UnsafeRawBufferPointer(rebasing: packed[r.offset...])
    }

    private static func same(_ a: UnsafeRawBufferPointer?, _ b: UnsafeRawBufferPointer?) -> Bool {
        guard let a, let b else { return a == nil && b == nil }
        guard a.count == b.count else { return false }
        guard a.count > 0, let pa = a.baseAddress, let pb = b.baseAddress else { return true }
        return memcmp(pa, pb, a.count) == 0
    }

    /// Hands `body` every row of the present run in day order (start, then the order they came)
    /// with its repetition: (start, seq, visitId, repetition, employeeId, card), views valid
    /// until `releaseRun`, the visitId's for the next `textSlots - 1` rows. `earlier(start,
    /// visitId, seq)` counts the rows of the pair in earlier runs, whose seqs are below `seq`
    /// (asked only when there may be some); `more` says whether further runs may follow (their repetitions then need this
    /// run's pairs).
    func inDayOrder(more: Bool,
                    earlier: (Int64, UnsafeRawBufferPointer?, Int64) throws(CarFitError) -> Int64,
                    _ body: (Int64, Int64, UnsafeRawBufferPointer?, Int64, UnsafeRawBufferPointer?,
                             UnsafeRawBufferPointer) throws(CarFitError) -> Void) throws(CarFitError) {
        entries.sort { $0.start != $1.start ? $0.start < $1.start : $0.seq < $1.seq }
        let previous = largestHandedOn
        let firstSeq = Int64(nextSeq) - Int64(entries.count)
        if more && handedOn == nil { handedOn = PairFilter() }
        /// The rows of the pair in earlier runs: none unless one may have had it.
        func before(_ row: Row) throws(CarFitError) -> Int64 {
            guard let previous, row.start <= previous, let filter = handedOn,
                  filter.mayContain(start: row.start, visitId: row.visitId) else { return 0 }
            return try earlier(row.start, visitIdText(row.visitId, probe: true), firstSeq)
        }
        var rows: [Row] = []
        var i = 0
        while i < entries.count {
            // The rows of one start, in arrival order.
            var j = i + 1
            while j < entries.count && entries[j].start == entries[i].start { j += 1 }
            rows.removeAll(keepingCapacity: true)
            for k in i..<j {
                guard let row = row(entries[k]) else {
                    throw CarFitError(.internal, "A packed visit could not be read back.")
                }
                rows.append(row)
            }
            if rows.count <= 16 {
                for (k, row) in rows.enumerated() {
                    var repetition = try before(row)
                    for m in 0..<k where PackedRows.same(rows[m].visitId, row.visitId) { repetition += 1 }
                    if more { handedOn?.insert(start: row.start, visitId: row.visitId) }
                    try body(row.start, row.seq, visitIdText(row.visitId), repetition, row.employeeId, row.card)
                }
            } else {
                var seen: [[UInt8]?: Int64] = [:]
                for row in rows {
                    let id = row.visitId.map { [UInt8]($0) }
                    let repetition: Int64
                    if let known = seen[id] { repetition = known } else { repetition = try before(row) }
                    seen[id] = repetition + 1
                    if more { handedOn?.insert(start: row.start, visitId: row.visitId) }
                    try body(row.start, row.seq, visitIdText(row.visitId), repetition, row.employeeId, row.card)
                }
            }
            i = j
        }
        if let last = entries.last { largestHandedOn = max(previous ?? last.start, last.start) }
    }
}

/// A fixed-size filter of (start, visitId) pairs (a Bloom filter of 4 MiB, three bits a pair):
/// `mayContain` is true for every pair inserted, and for few others while the pairs are not
/// many millions. Its memory does not grow with the pairs.
struct PairFilter {
    private var words: [UInt64]
    private static let wordCount = 1 << 19
    private static let mask = UInt64(wordCount * 64 - 1)

    init() { words = [UInt64](repeating: 0, count: PairFilter.wordCount) }

    /// A 64-bit hash of the pair (FNV-1a over the packed visitId, mixed with the start).
    private static func hash(start: Int64, visitId: UnsafeRawBufferPointer?) -> UInt64 {
        var h: UInt64 = 0xcbf2_9ce4_8422_2325
        if let visitId {
            for byte in visitId {
                h ^= UInt64(byte)
                h = h &* 0x0000_0100_0000_01b3
            }
        } else {
            h ^= 0xff
        }
        h ^= UInt64(bitPattern: start) &* 0x9e37_79b9_7f4a_7c15
        // A finalizer (splitmix64's) so every bit depends on every input bit.
        h = (h ^ (h >> 30)) &* 0xbf58_476d_1ce4_e5b9
        h = (h ^ (h >> 27)) &* 0x94d0_49bb_1331_11eb
        return h ^ (h >> 31)
    }

    private static func bits(_ h: UInt64) -> (UInt64, UInt64, UInt64) {
        (h & mask, (h >> 22) & mask, ((h >> 44) ^ (h &* 0x9e37_79b9_7f4a_7c15)) & mask)
    }

    mutating func insert(start: Int64, visitId: UnsafeRawBufferPointer?) {
        let (a, b, c) = PairFilter.bits(PairFilter.hash(start: start, visitId: visitId))
        words[Int(a >> 6)] |= 1 << (a & 63)
        words[Int(b >> 6)] |= 1 << (b & 63)
        words[Int(c >> 6)] |= 1 << (c & 63)
    }

    func mayContain(start: Int64, visitId: UnsafeRawBufferPointer?) -> Bool {
        let (a, b, c) = PairFilter.bits(PairFilter.hash(start: start, visitId: visitId))
        return words[Int(a >> 6)] & (1 << (a & 63)) != 0 && words[Int(b >> 6)] & (1 << (b & 63)) != 0
            && words[Int(c >> 6)] & (1 << (c & 63)) != 0
    }
}
