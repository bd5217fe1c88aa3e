#if canImport(Glibc)
import Glibc
#endif
import CarFitCore

/// The rows of a snapshot being written, packed into memory as they come (document order) and
/// handed back in day order (start, then arrival), each with its repetition: its place among
/// the rows of its (visitId, start) pair. A row is its visitId and employeeId (each a varint of
/// length + 1, 0 for none, then the bytes) followed by its card; rows are copied into chunks of
/// 1 MiB that are never moved, so the memory is about the rows' own size.
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

    var count: Int { entries.count }

    deinit {
        for chunk in chunks { chunk.deallocate() }
    }

    /// Appends a row starting at `start` (ms since the epoch).
    func append(start: Int64, _ row: [UInt8]) throws(CarFitError) {
        guard entries.count < Int(UInt32.max), row.count < Int(UInt32.max) else {
            throw CarFitError(.invalid, "The snapshot has too many visits to store at once.")
        }
        if row.count > left {
            let size = max(PackedRows.chunkSize, row.count)
            let chunk = UnsafeMutableRawPointer.allocate(byteCount: size, alignment: 16)
            chunks.append(chunk)
            cursor = chunk
            left = size
        }
        guard let at = cursor else { return }
        row.withUnsafeBytes { bytes in
            if let base = bytes.baseAddress { at.copyMemory(from: base, byteCount: bytes.count) }
        }
        entries.append(Entry(start: start, row: UnsafeRawPointer(at), seq: UInt32(entries.count), length: UInt32(row.count)))
        cursor = at + row.count
        left -= row.count
    }

    /// Appends `text` as a row's visitId or employeeId.
    static func appendText(_ text: String?, _ out: inout [UInt8]) {
        guard var text else {
            out.append(0)
            return
        }
        text.withUTF8 { bytes in
            VisitCard.varint(UInt64(bytes.count) + 1, &out)
            out.append(contentsOf: bytes)
        }
    }

    /// One row's parts, views of the packed bytes.
    struct Row {
        var start: Int64
        var seq: Int64
        var visitId: UnsafeRawBufferPointer?
        var employeeId: UnsafeRawBufferPointer?
        var card: UnsafeRawBufferPointer
    }

    private static func row(_ e: Entry) -> Row? {
        var r = VisitCard.Reader(bytes: UnsafeRawBufferPointer(start: e.row, count: Int(e.length)))
        func text(_ r: inout VisitCard.Reader) -> UnsafeRawBufferPointer?? {
            guard let n = r.varint() else { return .none }
            if n == 0 { return .some(nil) }
            guard n - 1 <= UInt64(r.bytes.count - r.offset) else { return .none }
            let start = r.offset
            r.offset += Int(n - 1)
            return .some(UnsafeRawBufferPointer(rebasing: r.bytes[start..<r.offset]))
        }
        guard let visitId = text(&r), let employeeId = text(&r) else { return nil }
        return Row(start: e.start, seq: Int64(e.seq), visitId: visitId, employeeId: employeeId,
                   card: UnsafeRawBufferPointer(rebasing: r.bytes[r.offset...]))
    }

    private static func same(_ a: UnsafeRawBufferPointer?, _ b: UnsafeRawBufferPointer?) -> Bool {
        guard let a, let b else { return a == nil && b == nil }
        guard a.count == b.count else { return false }
        guard a.count > 0, let pa = a.baseAddress, let pb = b.baseAddress else { return true }
        return memcmp(pa, pb, a.count) == 0
    }

    /// Hands `body` every row in day order (start, then the order they came) with its
    /// repetition.
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
                guard let row = PackedRows.row(entries[k]) else {
                    throw CarFitError(.internal, "A packed visit could not be read back.")
                }
                rows.append(row)
            }
            if rows.count <= 16 {
                for (k, row) in rows.enumerated() {
                    var repetition: Int64 = 0
                    for m in 0..<k where PackedRows.same(rows[m].visitId, row.visitId) { repetition += 1 }
                    try body(row.start, row.seq, row.visitId, repetition, row.employeeId, row.card)
                }
            } else {
                var seen: [[UInt8]?: Int64] = [:]
                for row in rows {
                    let id = row.visitId.map { [UInt8]($0) }
                    let repetition = seen[id, default: 0]
                    seen[id] = repetition + 1
                    try body(row.start, row.seq, row.visitId, repetition, row.employeeId, row.card)
                }
            }
            i = j
        }
    }
}
