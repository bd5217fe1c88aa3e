import Foundation
import PlannerPush

/// The store on a SQL database (SQLite or PostgreSQL): every rule written once, the two
/// databases differing only in their driver (`SQLDatabase`).
///
/// Exactly once: a mutation's (clientId, mutationId) and a point's (clientId, id) are unique keys
/// inserted in the same transaction as the effect, so whichever process receives a resend finds
/// the first answer. Pushes' `seq` comes from the device's counter row, incremented in the
/// transaction that queues the push.
public final class SQLPlannerStore: PlannerStore, @unchecked Sendable {
    public let db: any SQLDatabase

    public init(db: any SQLDatabase) {
        self.db = db
    }

    public func migrate() async throws {
        try await db.migrate(Schema.steps)
    }

    public func close() async {
        await db.close()
    }

    func write<T: Sendable>(_ body: @Sendable (any SQLExecutor) async throws -> T) async throws -> T {
        try await db.transaction(readOnly: false, body)
    }

    func read<T: Sendable>(_ body: @Sendable (any SQLExecutor) async throws -> T) async throws -> T {
        try await db.transaction(readOnly: true, body)
    }

    // MARK: Washers

    public func addWasher(id: String, name: String, tokenHash: String, now: Int64) async throws -> Washer {
        try await write { tx in
            try await tx.run("INSERT INTO washers (id, name, token_hash, created_ms) VALUES (?, ?, ?, ?)",
                             .text(id), .text(name), .text(tokenHash), .int(now))
            return Washer(id: id, name: name)
        }
    }

    public func replaceToken(washerId: String, tokenHash: String) async throws -> Washer? {
        try await write { tx in
            guard let row = try await tx.first("UPDATE washers SET token_hash = ? WHERE id = ? RETURNING id, name",
                                               .text(tokenHash), .text(washerId)) else { return nil }
            return Washer(id: row[0].text ?? washerId, name: row[1].text ?? "")
        }
    }

    public func washer(tokenHash: String) async throws -> Washer? {
        try await read { tx in
            try await tx.first("SELECT id, name FROM washers WHERE token_hash = ?", .text(tokenHash))
                .map { Washer(id: $0[0].text ?? "", name: $0[1].text ?? "") }
        }
    }

    public func washer(id: String) async throws -> Washer? {
        try await read { tx in
            try await tx.first("SELECT id, name FROM washers WHERE id = ?", .text(id))
                .map { Washer(id: $0[0].text ?? "", name: $0[1].text ?? "") }
        }
    }

    // MARK: Visits

    static let visitColumns = "visit_id, start_ms, washer_id, record, state, time_used, cancelled, started_ms, finished_ms"

    static func visit(_ row: SQLRow) -> VisitRow {
        VisitRow(visitId: row[0].text ?? "", startMs: row[1].int ?? 0, washerId: row[2].text ?? "",
                 record: JSON.parse(row[3].text ?? "")?.objectValue ?? [:],
                 state: VisitState(rawValue: row[4].text ?? "") ?? .todo, timeUsedMinutes: row[5].int,
                 cancelled: (row[6].int ?? 0) != 0, startedMs: row[7].int, finishedMs: row[8].int)
    }

    public func snapshot(washerId: String, window: ClosedRange<Int64>) async throws -> [VisitRow] {
        try await read { tx in
            try await tx.query("SELECT \(Self.visitColumns) FROM visits WHERE washer_id = ? AND cancelled = 0 AND start_ms >= ? AND start_ms <= ? ORDER BY start_ms, visit_id",
                               [.text(washerId), .int(window.lowerBound), .int(window.upperBound)]).map(Self.visit)
        }
    }

    public func hasVisit(washerId: String, visitId: String, startMs: Int64) async throws -> Bool {
        try await read { tx in
            try await tx.first("SELECT 1 FROM visits WHERE visit_id = ? AND start_ms = ? AND washer_id = ?",
                               .text(visitId), .int(startMs), .text(washerId)) != nil
        }
    }

    /// Claims `clientId` for the washer when it is new; throws when another washer has it.
    static func claimClient(_ tx: any SQLExecutor, clientId: String, washerId: String) async throws {
        try await tx.run("INSERT INTO clients (client_id, washer_id) VALUES (?, ?) ON CONFLICT (client_id) DO NOTHING",
                         .text(clientId), .text(washerId))
        let owner = try await tx.first("SELECT washer_id FROM clients WHERE client_id = ?", .text(clientId))
        guard owner?[0].text == washerId else { throw StoreRefusal.clientOfAnotherWasher }
    }

    /// The most rows one statement of `applyUpdates` names (its binds stay far below both
    /// databases' limits).
    static let rowsPerStatement = 100

    /// A request's mutations in a handful of statements whatever their number: the ledger's rows
    /// first (in one order, so two requests never wait on each other crosswise), the recorded
    /// answers of resends, the visits the new ones name (locked), then every change worked out in
    /// memory in the request's order (a later mutation sees an earlier one's effect) and written
    /// back, one row per visit, with the rejected ones' reasons.
    public func applyUpdates(washerId: String, clientId: String, mutations: [Mutation], now: Int64) async throws -> [MutationAnswer] {
        let forUpdate = db.dialect.forUpdate
        var seen = Set<String>()
        let batch = mutations.filter { seen.insert($0.mutationId).inserted }
        return try await write { tx in
            try await Self.claimClient(tx, clientId: clientId, washerId: washerId)
            guard !batch.isEmpty else { return [] }
            let step = Self.rowsPerStatement

            // The ledger's rows first, as applied: a concurrent resend waits here for this
            // transaction, then finds the answer it recorded. Rejections are set below.
            var fresh = Set<String>()
            let ids = batch.map(\.mutationId).sorted()
            for chunk in Self.chunks(ids, step) {
                var binds: [SQLValue] = []
                binds.reserveCapacity(chunk.count * 3)
                for id in chunk { binds += [.text(clientId), .text(id), .int(now)] }
                let rows = try await tx.query("INSERT INTO mutations (client_id, mutation_id, applied, reason, at_ms) VALUES \(Self.tuples(chunk.count, "(?, ?, 1, NULL, ?)")) ON CONFLICT (client_id, mutation_id) DO NOTHING RETURNING mutation_id",
                                              binds)
                for row in rows { if let id = row[0].text { fresh.insert(id) } }
            }

            // A resend's answer is the first one.
            var recorded: [String: String?] = [:]
            let old = ids.filter { !fresh.contains($0) }
            for chunk in Self.chunks(old, step) {
                let rows = try await tx.query("SELECT mutation_id, applied, reason FROM mutations WHERE client_id = ? AND mutation_id IN (\(Self.tuples(chunk.count, "?")))",
                                              [.text(clientId)] + chunk.map(SQLValue.text))
                for row in rows {
                    guard let id = row[0].text else { continue }
                    let reason: String? = (row[1].int ?? 0) != 0 ? nil : (row[2].text ?? "rejected")
                    recorded[id] = .some(reason)
                }
            }

            // The visits the new mutations name, locked until the transaction ends.
            var keys: [VisitKey] = []
            var keySet = Set<VisitKey>()
            for m in batch where fresh.contains(m.mutationId) {
                if let visitId = m.visitId, keySet.insert(VisitKey(visitId: visitId, startMs: m.startMs)).inserted {
                    keys.append(VisitKey(visitId: visitId, startMs: m.startMs))
                }
            }
            keys.sort { ($0.visitId, $0.startMs) < ($1.visitId, $1.startMs) }
            var visits: [VisitKey: VisitNow] = [:]
            for chunk in Self.chunks(keys, step) {
                var binds: [SQLValue] = []
                binds.reserveCapacity(chunk.count * 2)
                for k in chunk { binds += [.text(k.visitId), .int(k.startMs)] }
                let rows = try await tx.query("SELECT visit_id, start_ms, washer_id, state, cancelled, started_ms, finished_ms, time_used, rejected_ms, reason FROM visits WHERE \(Array(repeating: "(visit_id = ? AND start_ms = ?)", count: chunk.count).joined(separator: " OR ")) ORDER BY visit_id, start_ms\(forUpdate)",
                                              binds)
                for row in rows {
                    guard let visitId = row[0].text, let startMs = row[1].int else { continue }
                    visits[VisitKey(visitId: visitId, startMs: startMs)] = VisitNow(
                        washerId: row[2].text ?? "", state: VisitState(rawValue: row[3].text ?? "") ?? .todo,
                        cancelled: (row[4].int ?? 0) != 0, startedMs: row[5].int, finishedMs: row[6].int, timeUsed: row[7].int,
                        rejectedMs: row[8].int, reason: row[9].text)
                }
            }

            // In the request's order.
            var answers: [MutationAnswer] = []
            answers.reserveCapacity(batch.count)
            var rejected: [(id: String, reason: String)] = []
            for m in batch {
                guard fresh.contains(m.mutationId) else {
                    answers.append(MutationAnswer(mutationId: m.mutationId, reason: recorded[m.mutationId] ?? "rejected"))
                    continue
                }
                let reason = Self.apply(m, washerId: washerId, to: &visits)
                if let reason { rejected.append((id: m.mutationId, reason: reason)) }
                answers.append(MutationAnswer(mutationId: m.mutationId, reason: reason))
            }

            var changed: [(VisitKey, VisitNow)] = []
            for k in keys { if let v = visits[k], v.changed { changed.append((k, v)) } }
            for chunk in Self.chunks(changed, step) {
                var binds: [SQLValue] = [.int(now)]
                binds.reserveCapacity(1 + chunk.count * 8)
                for (k, v) in chunk {
                    binds += [.text(k.visitId), .int(k.startMs), .text(v.state.rawValue), .opt(v.startedMs), .opt(v.finishedMs),
                              .opt(v.timeUsed), .opt(v.rejectedMs), .opt(v.reason)]
                }
                let row = "(CAST(? AS TEXT), CAST(? AS BIGINT), CAST(? AS TEXT), CAST(? AS BIGINT), CAST(? AS BIGINT), CAST(? AS BIGINT), CAST(? AS BIGINT), CAST(? AS TEXT))"
                _ = try await tx.query("UPDATE visits SET updated_ms = ?, state = u.column3, started_ms = u.column4, finished_ms = u.column5, time_used = u.column6, rejected_ms = u.column7, reason = u.column8 FROM (VALUES \(Self.tuples(chunk.count, row))) AS u WHERE visits.visit_id = u.column1 AND visits.start_ms = u.column2",
                                   binds)
            }
            for chunk in Self.chunks(rejected, step) {
                var binds: [SQLValue] = []
                for r in chunk { binds += [.text(r.id), .text(r.reason)] }
                binds.append(.text(clientId))
                _ = try await tx.query("UPDATE mutations SET applied = 0, reason = u.column2 FROM (VALUES \(Self.tuples(chunk.count, "(CAST(? AS TEXT), CAST(? AS TEXT))"))) AS u WHERE mutations.client_id = ? AND mutations.mutation_id = u.column1",
                                   binds)
            }
            return answers
        }
    }

    struct VisitKey: Hashable, Sendable {
        var visitId: String
        var startMs: Int64
    }

    /// The columns of a visit a washer's mutation reads or changes.
    struct VisitNow: Sendable {
        var washerId: String
        var state: VisitState
        var cancelled: Bool
        var startedMs: Int64?
        var finishedMs: Int64?
        var timeUsed: Int64?
        var rejectedMs: Int64?
        var reason: String?
        var changed = false
    }

    /// Applies one new mutation to the visits read; the reason it is rejected, or nil.
    static func apply(_ m: Mutation, washerId: String, to visits: inout [VisitKey: VisitNow]) -> String? {
        guard let visitId = m.visitId else { return "unknown visit" }
        let key = VisitKey(visitId: visitId, startMs: m.startMs)
        guard var v = visits[key], v.washerId == washerId else { return "unknown visit" }
        if v.cancelled { return "cancelled by the planner" }
        guard v.state.allows(m.state) else {
            return "a visit in state \(v.state.rawValue) cannot become \(m.state.rawValue)"
        }
        switch m.state {
        case .inProgress:
            v.startedMs = m.atMs
        case .todo:
            v.startedMs = nil
        case .done:
            v.finishedMs = m.atMs
            v.timeUsed = m.timeUsedMinutes
        case .rejected:
            v.rejectedMs = m.atMs
            v.reason = m.reason
        }
        v.state = m.state
        v.changed = true
        visits[key] = v
        return nil
    }

    /// `count` copies of `tuple`, comma-separated.
    static func tuples(_ count: Int, _ tuple: String) -> String {
        Array(repeating: tuple, count: count).joined(separator: ", ")
    }

    /// `items` in runs of at most `size`.
    static func chunks<T>(_ items: [T], _ size: Int) -> [ArraySlice<T>] {
        stride(from: 0, to: items.count, by: size).map { items[$0..<min($0 + size, items.count)] }
    }

    // MARK: Points, devices, attachments

    public func addPoints(washerId: String, clientId: String, points: [Point]) async throws -> [String] {
        try await write { tx in
            try await Self.claimClient(tx, clientId: clientId, washerId: washerId)
            var seen = Set<String>()
            let unique = points.filter { seen.insert($0.id).inserted }
            // Many rows a statement, in the ids' order (two requests lock them in one order).
            for chunk in Self.chunks(unique.sorted { $0.id < $1.id }, Self.rowsPerStatement) {
                var binds: [SQLValue] = []
                binds.reserveCapacity(chunk.count * 7)
                for p in chunk {
                    binds += [.text(clientId), .text(p.id), .text(washerId), .double(p.latitude), .double(p.longitude),
                              .double(p.accuracyMeters), .int(p.atMs)]
                }
                _ = try await tx.query("INSERT INTO points (client_id, id, washer_id, latitude, longitude, accuracy, at_ms) VALUES \(Self.tuples(chunk.count, "(?, ?, ?, ?, ?, ?, ?)")) ON CONFLICT (client_id, id) DO NOTHING",
                                   binds)
            }
            return unique.map(\.id)
        }
    }

    public func registerDevice(washerId: String, clientId: String, platform: String?, token: String?, now: Int64) async throws {
        try await write { tx in
            try await Self.claimClient(tx, clientId: clientId, washerId: washerId)
            try await tx.run("INSERT INTO devices (client_id, washer_id, platform, token, last_seq, updated_ms) VALUES (?, ?, ?, ?, 0, ?) ON CONFLICT (client_id) DO UPDATE SET platform = excluded.platform, token = excluded.token, washer_id = excluded.washer_id, updated_ms = excluded.updated_ms",
                             .text(clientId), .text(washerId), .opt(platform), .opt(token), .int(now))
            if token == nil {
                try await tx.run("UPDATE pushes SET state = 'dropped', last_error = 'the device was unregistered' WHERE client_id = ? AND state = 'queued'",
                                 .text(clientId))
            }
        }
    }

    static let attachmentColumns = "id, washer_id, visit_id, start_ms, kind, content_type, bytes, sha256, file"

    static func attachment(_ row: SQLRow) -> AttachmentRecord {
        AttachmentRecord(id: row[0].text ?? "", washerId: row[1].text ?? "", visitId: row[2].text ?? "",
                         startMs: row[3].int ?? 0, kind: row[4].text ?? "", contentType: row[5].text ?? "",
                         bytes: row[6].int ?? 0, sha256: row[7].text ?? "", file: row[8].text ?? "")
    }

    public func attachment(id: String) async throws -> AttachmentRecord? {
        try await read { tx in
            try await tx.first("SELECT \(Self.attachmentColumns) FROM attachments WHERE id = ?", .text(id)).map(Self.attachment)
        }
    }

    public func addAttachment(_ a: AttachmentRecord, now: Int64) async throws -> (AttachmentRecord, created: Bool) {
        try await write { tx in
            let inserted = try await tx.first("INSERT INTO attachments (\(Self.attachmentColumns), created_ms) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT (id) DO NOTHING RETURNING id",
                                              .text(a.id), .text(a.washerId), .text(a.visitId), .int(a.startMs), .text(a.kind),
                                              .text(a.contentType), .int(a.bytes), .text(a.sha256), .text(a.file), .int(now))
            if inserted != nil { return (a, true) }
            guard let stored = try await tx.first("SELECT \(Self.attachmentColumns) FROM attachments WHERE id = ?", .text(a.id)) else {
                throw StoreError("the attachment \(a.id) vanished")
            }
            return (Self.attachment(stored), false)
        }
    }

    // MARK: The planner's changes

    public func createVisit(_ visit: VisitRow, now: Int64, window: ClosedRange<Int64>) async throws -> VisitRow {
        try await write { tx in
            guard try await tx.first("SELECT 1 FROM washers WHERE id = ?", .text(visit.washerId)) != nil else {
                throw StoreRefusal.invalid(field: "homeBobEmployeeId", message: "homeBobEmployeeId names no washer.")
            }
            if let existing = try await tx.first("SELECT cancelled FROM visits WHERE visit_id = ? AND start_ms = ?",
                                                 .text(visit.visitId), .int(visit.startMs)) {
                guard (existing[0].int ?? 0) != 0 else {
                    throw StoreRefusal.conflict("The visit \(visit.visitId) at \(Instant.format(visit.startMs)) is already there.")
                }
                // A cancelled visit planned again starts over.
                try await tx.run("DELETE FROM visits WHERE visit_id = ? AND start_ms = ?", .text(visit.visitId), .int(visit.startMs))
            }
            try await Self.insert(visit, tx: tx, now: now)
            try await Self.queuePushes(tx, washers: [visit.washerId], starts: [visit.startMs], window: window, now: now)
            return visit
        }
    }

    static func insert(_ v: VisitRow, tx: any SQLExecutor, now: Int64) async throws {
        try await tx.run("INSERT INTO visits (\(visitColumns), updated_ms) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                         .text(v.visitId), .int(v.startMs), .text(v.washerId), .text(JSON.object(v.record).text),
                         .text(v.state.rawValue), .opt(v.timeUsedMinutes), .int(v.cancelled ? 1 : 0),
                         .opt(v.startedMs), .opt(v.finishedMs), .int(now))
    }

    public func updateVisit(visitId: String, startMs: Int64, now: Int64, window: ClosedRange<Int64>,
                            change: @Sendable (VisitRow) throws -> VisitRow) async throws -> VisitRow {
        let forUpdate = db.dialect.forUpdate
        return try await write { tx in
            guard let row = try await tx.first("SELECT \(Self.visitColumns) FROM visits WHERE visit_id = ? AND start_ms = ? AND cancelled = 0\(forUpdate)",
                                               .text(visitId), .int(startMs)) else {
                throw StoreRefusal.notFound("No visit \(visitId) at \(Instant.format(startMs)).")
            }
            let old = Self.visit(row)
            let new = try change(old)
            if new == old { return new }
            guard try await tx.first("SELECT 1 FROM washers WHERE id = ?", .text(new.washerId)) != nil else {
                throw StoreRefusal.invalid(field: "homeBobEmployeeId", message: "homeBobEmployeeId names no washer.")
            }
            if new.startMs != old.startMs || new.visitId != old.visitId {
                if let there = try await tx.first("SELECT cancelled FROM visits WHERE visit_id = ? AND start_ms = ?",
                                                  .text(new.visitId), .int(new.startMs)) {
                    guard (there[0].int ?? 0) != 0 else {
                        throw StoreRefusal.conflict("The visit \(new.visitId) at \(Instant.format(new.startMs)) is already there.")
                    }
                    try await tx.run("DELETE FROM visits WHERE visit_id = ? AND start_ms = ?", .text(new.visitId), .int(new.startMs))
                }
            }
            try await tx.run("UPDATE visits SET visit_id = ?, start_ms = ?, washer_id = ?, record = ?, state = ?, time_used = ?, updated_ms = ? WHERE visit_id = ? AND start_ms = ?",
                             .text(new.visitId), .int(new.startMs), .text(new.washerId), .text(JSON.object(new.record).text),
                             .text(new.state.rawValue), .opt(new.timeUsedMinutes), .int(now), .text(visitId), .int(startMs))
            try await Self.queuePushes(tx, washers: [old.washerId, new.washerId], starts: [old.startMs, new.startMs],
                                       window: window, now: now)
            return new
        }
    }

    public func cancelVisit(visitId: String, startMs: Int64, now: Int64, window: ClosedRange<Int64>) async throws -> VisitRow {
        let forUpdate = db.dialect.forUpdate
        return try await write { tx in
            guard let row = try await tx.first("SELECT \(Self.visitColumns) FROM visits WHERE visit_id = ? AND start_ms = ? AND cancelled = 0\(forUpdate)",
                                               .text(visitId), .int(startMs)) else {
                throw StoreRefusal.notFound("No visit \(visitId) at \(Instant.format(startMs)).")
            }
            var visit = Self.visit(row)
            visit.cancelled = true
            try await tx.run("UPDATE visits SET cancelled = 1, updated_ms = ? WHERE visit_id = ? AND start_ms = ?",
                             .int(now), .text(visitId), .int(startMs))
            try await Self.queuePushes(tx, washers: [visit.washerId], starts: [startMs], window: window, now: now)
            return visit
        }
    }

    /// Queues one push to every registered device of each washer when any of `starts` lies in
    /// the window; each device's `seq` is its counter row's next value.
    static func queuePushes(_ tx: any SQLExecutor, washers: [String], starts: [Int64], window: ClosedRange<Int64>, now: Int64) async throws {
        guard starts.contains(where: window.contains) else { return }
        var done = Set<String>()
        for washer in washers where done.insert(washer).inserted {
            let devices = try await tx.query("SELECT client_id FROM devices WHERE washer_id = ? AND token IS NOT NULL ORDER BY client_id",
                                             [.text(washer)])
            for device in devices {
                guard let clientId = device[0].text,
                      let counted = try await tx.first("UPDATE devices SET last_seq = last_seq + 1 WHERE client_id = ? RETURNING last_seq, platform",
                                                       .text(clientId)),
                      let seq = counted[0].int else { continue }
                try await tx.run("INSERT INTO pushes (id, client_id, washer_id, platform, seq, state, attempts, not_before_ms, lease_until_ms, last_error, created_ms) VALUES (?, ?, ?, ?, ?, 'queued', 0, ?, 0, NULL, ?)",
                                 .text(UUID().uuidString.lowercased()), .text(clientId), .text(washer),
                                 .text(counted[1].text ?? "fcm"), .int(seq), .int(now), .int(now))
            }
        }
    }

    // MARK: The planner's views

    public func day(range: Range<Int64>) async throws -> [DayWasher] {
        try await read { tx in
            let washers = try await tx.query("SELECT id, name FROM washers ORDER BY name, id", [])
            let visits = try await tx.query("SELECT \(Self.visitColumns), (SELECT count(*) FROM attachments a WHERE a.visit_id = v.visit_id AND a.start_ms = v.start_ms) FROM visits v WHERE cancelled = 0 AND start_ms >= ? AND start_ms < ? ORDER BY start_ms, visit_id",
                                            [.int(range.lowerBound), .int(range.upperBound)])
            var byWasher: [String: [VisitRow]] = [:]
            for row in visits {
                var visit = Self.visit(row)
                visit.attachments = Int(row[9].int ?? 0)
                byWasher[visit.washerId, default: []].append(visit)
            }
            var out: [DayWasher] = []
            for w in washers {
                let id = w[0].text ?? ""
                let last = try await tx.first("SELECT latitude, longitude, accuracy, at_ms FROM points WHERE washer_id = ? ORDER BY at_ms DESC, id DESC LIMIT 1",
                                              .text(id))
                let position = last.map { Position(latitude: $0[0].double ?? 0, longitude: $0[1].double ?? 0,
                                                   accuracyMeters: $0[2].double ?? 0, atMs: $0[3].int ?? 0) }
                out.append(DayWasher(washer: Washer(id: id, name: w[1].text ?? ""), lastPosition: position,
                                     visits: byWasher[id] ?? []))
            }
            return out
        }
    }

    public func finishedVisits(limit: Int) async throws -> [VisitRow] {
        try await read { tx in
            try await tx.query("SELECT \(Self.visitColumns) FROM visits WHERE state = 'Done' AND started_ms IS NOT NULL AND finished_ms IS NOT NULL ORDER BY finished_ms DESC, visit_id LIMIT ?",
                               [.int(Int64(limit))]).map(Self.visit)
        }
    }

    public func pushes(washerId: String?) async throws -> [PushRow] {
        try await read { tx in
            let columns = "SELECT id, platform, seq, state, attempts, last_error, client_id FROM pushes"
            let rows: [SQLRow]
            if let washerId {
                rows = try await tx.query("\(columns) WHERE washer_id = ? ORDER BY created_ms, client_id, seq", [.text(washerId)])
            } else {
                rows = try await tx.query("\(columns) ORDER BY created_ms, client_id, seq", [])
            }
            return rows.map { PushRow(id: $0[0].text ?? "", platform: $0[1].text ?? "", seq: $0[2].int ?? 0,
                                      state: $0[3].text ?? "", attempts: $0[4].int ?? 0, lastError: $0[5].text,
                                      clientId: $0[6].text ?? "") }
        }
    }
}
