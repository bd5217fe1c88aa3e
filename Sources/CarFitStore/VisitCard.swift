import CSQLite
import CarFitCore

/// The stored form of a visit's card fields (everything but its start, key and employee, which
/// are columns): one blob per visit, written by the snapshot and by the migration that made the
/// visits table (through the SQL function `visit_card`, the same encoder), read back by the day
/// query as views of its bytes.
///
///     flags      1 byte: 1 state, 2 expectedTime, 4 phone, 8 latitude, 16 longitude, 32 timeUsed,
///                64 planned tasks
///     taskMinutes          varint (zigzag)
///     timeUsed             varint (zigzag), if flagged
///     latitude, longitude  8 bytes each (IEEE 754, little-endian), if flagged
///     name, state, expectedTime, tasks, address, phone
///                          each a varint length and its UTF-8 bytes; the optional ones if flagged
///     planned tasks        if flagged: a varint count, then per task its minutes (varint) and
///                          its title (a varint length and its UTF-8 bytes)
enum VisitCard {
    struct Fields {
        var name: UnsafeRawBufferPointer
        var state: UnsafeRawBufferPointer?
        var expectedTime: UnsafeRawBufferPointer?
        var tasks: UnsafeRawBufferPointer
        var taskMinutes: Int64
        var address: UnsafeRawBufferPointer
        var phone: UnsafeRawBufferPointer?
        var latitude: Double?
        var longitude: Double?
        var timeUsed: Int64?
        /// The planned tasks' bytes (count and tasks), read by `plannedTasks(_:)`.
        var plannedTasks: UnsafeRawBufferPointer?
    }

    static let state: UInt8 = 1, expectedTime: UInt8 = 2, phone: UInt8 = 4, latitude: UInt8 = 8,
               longitude: UInt8 = 16, timeUsed: UInt8 = 32, plannedTasks: UInt8 = 64

    /// Appends the card of `f` to `out`.
    static func encode(_ f: Fields, into out: inout [UInt8]) {
        var flags: UInt8 = 0
        if f.state != nil { flags |= state }
        if f.expectedTime != nil { flags |= expectedTime }
        if f.phone != nil { flags |= phone }
        if f.latitude != nil { flags |= latitude }
        if f.longitude != nil { flags |= longitude }
        if f.timeUsed != nil { flags |= timeUsed }
        out.append(flags)
        varint(zigzag(f.taskMinutes), &out)
        if let t = f.timeUsed { varint(zigzag(t), &out) }
        if let v = f.latitude { double(v, &out) }
        if let v = f.longitude { double(v, &out) }
        text(f.name, &out)
        if let t = f.state { text(t, &out) }
        if let t = f.expectedTime { text(t, &out) }
        text(f.tasks, &out)
        text(f.address, &out)
        if let t = f.phone { text(t, &out) }
    }

    /// The card of a `Visit` appended to `out` (the same bytes as `encode(_:into:)` of its
    /// fields).
    static func encode(_ v: Visit, into out: inout [UInt8]) {
        var flags: UInt8 = 0
        if v.state != nil { flags |= state }
        if v.expectedTime != nil { flags |= expectedTime }
        if v.phone != nil { flags |= phone }
        if v.latitude != nil { flags |= latitude }
        if v.longitude != nil { flags |= longitude }
        if v.timeUsed != nil { flags |= timeUsed }
        if !v.plannedTasks.isEmpty { flags |= plannedTasks }
        out.append(flags)
        varint(zigzag(Int64(v.taskMinutes)), &out)
        if let t = v.timeUsed { varint(zigzag(Int64(t)), &out) }
        if let x = v.latitude { double(x, &out) }
        if let x = v.longitude { double(x, &out) }
        text(v.name, &out)
        if let t = v.state { text(t, &out) }
        if let t = v.expectedTime { text(t, &out) }
        text(v.tasks, &out)
        text(v.address, &out)
        if let t = v.phone { text(t, &out) }
        if !v.plannedTasks.isEmpty {
            varint(UInt64(v.plannedTasks.count), &out)
            for task in v.plannedTasks {
                varint(UInt64(max(0, task.minutes)), &out)
                text(task.title, &out)
            }
        }
    }

    /// The planned tasks of a card's `plannedTasks` bytes (none for nil or damaged bytes).
    static func plannedTasks(_ bytes: UnsafeRawBufferPointer?) -> [PlannedTask] {
        guard let bytes else { return [] }
        var r = Reader(bytes: bytes)
        guard let n = r.varint(), n <= UInt64(bytes.count) else { return [] }
        var out: [PlannedTask] = []
        out.reserveCapacity(Int(n))
        for _ in 0..<n {
            guard let m = r.varint(), m <= 100_000, let t = r.text() else { return [] }
            out.append(PlannedTask(title: String(decoding: t, as: UTF8.self), minutes: Int(m)))
        }
        return out
    }

    static func text(_ t: String, _ out: inout [UInt8]) {
        let utf8 = t.utf8
        varint(UInt64(utf8.count), &out)
        out.append(contentsOf: utf8)
    }

    /// The fields of a stored card, views of `card`'s bytes; nil for bytes that are not a card.
    static func decode(_ card: UnsafeRawBufferPointer) -> Fields? {
        var r = Reader(bytes: card)
        guard let flags = r.byte(), let minutes = r.varint() else { return nil }
        var f = Fields(name: UnsafeRawBufferPointer(start: nil, count: 0), tasks: UnsafeRawBufferPointer(start: nil, count: 0),
                       taskMinutes: unzigzag(minutes), address: UnsafeRawBufferPointer(start: nil, count: 0))
        if flags & timeUsed != 0 {
            guard let t = r.varint() else { return nil }
            f.timeUsed = unzigzag(t)
        }
        if flags & latitude != 0 {
            guard let v = r.double() else { return nil }
            f.latitude = v
        }
        if flags & longitude != 0 {
            guard let v = r.double() else { return nil }
            f.longitude = v
        }
        guard let name = r.text() else { return nil }
        f.name = name
        if flags & state != 0 {
            guard let t = r.text() else { return nil }
            f.state = t
        }
        if flags & expectedTime != 0 {
            guard let t = r.text() else { return nil }
            f.expectedTime = t
        }
        guard let tasks = r.text(), let address = r.text() else { return nil }
        f.tasks = tasks
        f.address = address
        if flags & phone != 0 {
            guard let t = r.text() else { return nil }
            f.phone = t
        }
        if flags & plannedTasks != 0 {
            f.plannedTasks = UnsafeRawBufferPointer(rebasing: card[r.offset...])
            return f
        }
        guard r.offset == card.count else { return nil }
        return f
    }

    @inline(__always) static func zigzag(_ v: Int64) -> UInt64 { UInt64(bitPattern: (v << 1) ^ (v >> 63)) }
    @inline(__always) static func unzigzag(_ v: UInt64) -> Int64 { Int64(bitPattern: (v >> 1) ^ (0 &- (v & 1))) }

    @inline(__always) static func varint(_ value: UInt64, _ out: inout [UInt8]) {
        var v = value
        while v >= 0x80 {
            out.append(UInt8(truncatingIfNeeded: v) | 0x80)
            v >>= 7
        }
        out.append(UInt8(v))
    }

    /// A zero is stored as +0, as the REAL columns before cards kept it (SQLite stores an
    /// integral real as an integer): the cards show what they showed.
    static func double(_ v: Double, _ out: inout [UInt8]) {
        var bits = (v == 0 ? 0 : v).bitPattern.littleEndian
        withUnsafeBytes(of: &bits) { out.append(contentsOf: $0) }
    }

    static func text(_ t: UnsafeRawBufferPointer, _ out: inout [UInt8]) {
        varint(UInt64(t.count), &out)
        out.append(contentsOf: t)
    }

    /// A bounds-checked walk over a card's bytes.
    struct Reader {
        let bytes: UnsafeRawBufferPointer
        var offset = 0

        @inline(__always) mutating func byte() -> UInt8? {
            guard offset < bytes.count else { return nil }
            defer { offset += 1 }
            return bytes[offset]
        }

        @inline(__always) mutating func varint() -> UInt64? {
            var value: UInt64 = 0
            var shift: UInt64 = 0
            while offset < bytes.count, shift < 64 {
                let b = bytes[offset]
                offset += 1
                value |= UInt64(b & 0x7F) << shift
                if b < 0x80 { return value }
                shift += 7
            }
            return nil
        }

        mutating func double() -> Double? {
            guard bytes.count - offset >= 8 else { return nil }
            defer { offset += 8 }
            return Double(bitPattern: UInt64(littleEndian: bytes.loadUnaligned(fromByteOffset: offset, as: UInt64.self)))
        }

        @inline(__always) mutating func text() -> UnsafeRawBufferPointer? {
            guard let n = varint(), n <= UInt64(bytes.count - offset) else { return nil }
            let start = offset
            offset += Int(n)
            return UnsafeRawBufferPointer(rebasing: bytes[start..<offset])
        }
    }
}

extension VisitCard {
    /// Registers `visit_card(name, state, expected_time, tasks, task_minutes, address, phone,
    /// latitude, longitude, time_used)` on `handle`: the card of those column values (NULL for
    /// the optional ones that are absent), for the migration that moved the columns into cards.
    static func registerFunction(on handle: OpaquePointer) -> Int32 {
        sqlite3_create_function_v2(handle, "visit_card", 10, SQLITE_UTF8 | SQLITE_DETERMINISTIC, nil, { context, count, values in
            VisitCard.function(context, count, values)
        }, nil, nil, nil)
    }

    private static func function(_ context: OpaquePointer?, _ count: Int32,
                                 _ values: UnsafeMutablePointer<OpaquePointer?>?) {
        guard count == 10, let values else {
            sqlite3_result_error(context, "visit_card takes 10 arguments", -1)
            return
        }
        func text(_ i: Int) -> UnsafeRawBufferPointer? {
            guard let v = values[i], sqlite3_value_type(v) != SQLITE_NULL else { return nil }
            let p = sqlite3_value_text(v)
            return UnsafeRawBufferPointer(start: p.map(UnsafeRawPointer.init), count: Int(sqlite3_value_bytes(v)))
        }
        func int(_ i: Int) -> Int64? {
            guard let v = values[i], sqlite3_value_type(v) != SQLITE_NULL else { return nil }
            return sqlite3_value_int64(v)
        }
        func real(_ i: Int) -> Double? {
            guard let v = values[i], sqlite3_value_type(v) != SQLITE_NULL else { return nil }
            return sqlite3_value_double(v)
        }
        let empty = UnsafeRawBufferPointer(start: nil, count: 0)
        // Each text is read (and so converted) once: the views stay valid as long as their
        // value is not read as another type.
        let name = text(0) ?? empty, state = text(1), expected = text(2), tasks = text(3) ?? empty
        let minutes = int(4) ?? 0
        let address = text(5) ?? empty, phone = text(6)
        var out: [UInt8] = []
        out.reserveCapacity(64 + name.count + tasks.count + address.count)
        encode(Fields(name: name, state: state, expectedTime: expected, tasks: tasks, taskMinutes: minutes,
                      address: address, phone: phone, latitude: real(7), longitude: real(8), timeUsed: int(9)),
               into: &out)
        guard out.count <= Int(Int32.max) else {
            sqlite3_result_error_toobig(context)
            return
        }
        out.withUnsafeBytes { bytes in
            sqlite3_result_blob(context, bytes.baseAddress, Int32(bytes.count), cf_sqlite_transient())
        }
    }
}
