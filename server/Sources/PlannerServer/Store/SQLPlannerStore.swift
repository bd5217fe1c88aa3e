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

    public func applyUpdates(washerId: String, clientId: String, mutations: [Mutation], now: Int64) async throws -> [MutationAnswer] {
        let forUpdate = db.dialect.forUpdate
        return try await write { tx in
            try await Self.claimClient(tx, clientId: clientId, washerId: washerId)
            var answers: [MutationAnswer] = []
            var seen = Set<String>()
            for m in mutations where seen.insert(m.mutationId).inserted {
                // The ledger's row first: a concurrent resend waits here for this transaction.
                let fresh = try await tx.first("INSERT INTO mutations (client_id, mutation_id, applied, reason, at_ms) VALUES (?, ?, 0, NULL, ?) ON CONFLICT (client_id, mutation_id) DO NOTHING RETURNING mutation_id",
                                               .text(clientId), .text(m.mutationId), .int(now))
                guard fresh != nil else {
                    let first = try await tx.first("SELECT applied, reason FROM mutations WHERE client_id = ? AND mutation_id = ?",
                                                   .text(clientId), .text(m.mutationId))
                    let applied = (first?[0].int ?? 0) != 0
                    answers.append(MutationAnswer(mutationId: m.mutationId, reason: applied ? nil : (first?[1].text ?? "rejected")))
                    continue
                }
                let reason = try await Self.apply(m, washerId: washerId, tx: tx, forUpdate: forUpdate, now: now)
                try await tx.run("UPDATE mutations SET applied = ?, reason = ? WHERE client_id = ? AND mutation_id = ?",
                                 .int(reason == nil ? 1 : 0), .opt(reason), .text(clientId), .text(m.mutationId))
                answers.append(MutationAnswer(mutationId: m.mutationId, reason: reason))
            }
            return answers
        }
    }

    /// Applies one new mutation; the reason it is rejected, or nil.
    static func apply(_ m: Mutation, washerId: String, tx: any SQLExecutor, forUpdate: String, now: Int64) async throws -> String? {
        guard let visitId = m.visitId,
              let row = try await tx.first("SELECT state, cancelled, washer_id FROM visits WHERE visit_id = ? AND start_ms = ?\(forUpdate)",
                                           .text(visitId), .int(m.startMs)),
              row[2].text == washerId else { return "unknown visit" }
        if (row[1].int ?? 0) != 0 { return "cancelled by the planner" }
        let current = VisitState(rawValue: row[0].text ?? "") ?? .todo
        guard current.allows(m.state) else {
            return "a visit in state \(current.rawValue) cannot become \(m.state.rawValue)"
        }
        let key: [SQLValue] = [.text(visitId), .int(m.startMs)]
        switch m.state {
        case .inProgress:
            try await tx.query("UPDATE visits SET state = 'InProgress', started_ms = ?, updated_ms = ? WHERE visit_id = ? AND start_ms = ?",
                               [.int(m.atMs), .int(now)] + key)
        case .todo:
            try await tx.query("UPDATE visits SET state = 'Todo', started_ms = NULL, updated_ms = ? WHERE visit_id = ? AND start_ms = ?",
                               [.int(now)] + key)
        case .done:
            try await tx.query("UPDATE visits SET state = 'Done', finished_ms = ?, time_used = ?, updated_ms = ? WHERE visit_id = ? AND start_ms = ?",
                               [.int(m.atMs), .opt(m.timeUsedMinutes), .int(now)] + key)
        case .rejected:
            try await tx.query("UPDATE visits SET state = 'Rejected', rejected_ms = ?, reason = ?, updated_ms = ? WHERE visit_id = ? AND start_ms = ?",
                               [.int(m.atMs), .opt(m.reason), .int(now)] + key)
        }
        return nil
    }

    // MARK: Points, devices, attachments

    public func addPoints(washerId: String, clientId: String, points: [Point]) async throws -> [String] {
        try await write { tx in
            try await Self.claimClient(tx, clientId: clientId, washerId: washerId)
            var ids: [String] = []
            var seen = Set<String>()
            for p in points where seen.insert(p.id).inserted {
                try await tx.run("INSERT INTO points (client_id, id, washer_id, latitude, longitude, accuracy, at_ms) VALUES (?, ?, ?, ?, ?, ?, ?) ON CONFLICT (client_id, id) DO NOTHING",
                                 .text(clientId), .text(p.id), .text(washerId), .double(p.latitude), .double(p.longitude),
                                 .double(p.accuracyMeters), .int(p.atMs))
                ids.append(p.id)
            }
            return ids
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
