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
    /// The employee ids kept once, and their numbers.
    private var employees: [UnsafeRawBufferPointer] = []
    private var employeeNumbers: [String: Int] = [:]
    /// Employee ids kept once at most (any others are kept in their rows).
    static let maxEmployees = 4096
    /// Where packed UUIDs are written out as text for their inserts: `textSlots` in turn, so that
    /// each stays valid while the rows after it are handed on.
    private let uuidText = UnsafeMutableRawBufferPointer.allocate(byteCount: 36 * PackedRows.textSlots, alignment: 1)
    private var nextSlot = 0
    /// How many rows `inDayOrder` hands on while a visitId's text stays valid.
    static let textSlots = 64

    var count: Int { entries.count }

    deinit {
        for chunk in chunks { chunk.deallocate() }
        uuidText.deallocate()
    }

    /// Appends a row starting at `start` (ms since the epoch): `row` as `appendVisitId`,
    /// `appendEmployeeId` and the card wrote it.
    func append(start: Int64, _ row: [UInt8]) throws(CarFitError) {
        guard entries.count < Int(UInt32.max), row.count < Int(UInt32.max) else {
            throw CarFitError(.invalid, "The snapshot has too many visits to store at once.")
        }
        let at = row.withUnsafeBytes { keep($0) }
        entries.append(Entry(start: start, row: at, seq: UInt32(entries.count), length: UInt32(row.count)))
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
                employees.append(UnsafeRawBufferPointer(start: keep(UnsafeRawBufferPointer(bytes)), count: bytes.count))
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

    /// The text of a packed visitId (valid for the next `textSlots - 1` calls).
    private func visitIdText(_ packed: UnsafeRawBufferPointer?) -> UnsafeRawBufferPointer? {
        guard let packed, let tag = packed.first else { return nil }
        if tag == 1 {
            let slot = UnsafeMutableRawBufferPointer(rebasing: uuidText[(nextSlot * 36)..<(nextSlot * 36 + 36)])
            nextSlot = (nextSlot + 1) % PackedRows.textSlots
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

    /// Hands `body` every row in day order (start, then the order they came) with its
    /// repetition: (start, seq, visitId, repetition, employeeId, card), views valid until the
    /// rows are released, the visitId's for the next `textSlots - 1` rows.
    func inDayOrder(_ body: (Int64, Int64, UnsafeRawBufferPointer?, Int64, UnsafeRawBufferPointer?,
                             UnsafeRawBufferPointer) throws(CarFitError) -> Void) throws(CarFitError) {
        entries.sort { $0.start != $1.start ? $0.start < $1.start : $0.seq < $1.seq }
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
                    var repetition: Int64 = 0
                    for m in 0..<k where PackedRows.same(rows[m].visitId, row.visitId) { repetition += 1 }
                    try body(row.start, row.seq, visitIdText(row.visitId), repetition, row.employeeId, row.card)
                }
            } else {
                var seen: [[UInt8]?: Int64] = [:]
                for row in rows {
                    let id = row.visitId.map { [UInt8]($0) }
                    let repetition = seen[id, default: 0]
                    seen[id] = repetition + 1
                    try body(row.start, row.seq, visitIdText(row.visitId), repetition, row.employeeId, row.card)
                }
            }
            i = j
        }
    }
}
