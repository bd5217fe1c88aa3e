import PlannerPush

/// The delivery's side of the queue: leases with an expiry (a killed process's lease runs out),
/// only each device's lowest queued `seq`.
extension SQLPlannerStore {
    public func claimDue(platforms: Set<String>, now: Int64, limit: Int, leaseMillis: Int64) async throws -> [QueuedPush] {
        let wanted = platforms.sorted().filter { $0 == "fcm" || $0 == "apns" }
        guard !wanted.isEmpty, limit > 0 else { return [] }
        let marks = wanted.map { _ in "?" }.joined(separator: ", ")
        return try await write { tx in
            let candidates = try await tx.query("""
                SELECT p.id, p.client_id, p.washer_id, d.platform, d.token, p.seq, p.attempts
                FROM pushes p JOIN devices d ON d.client_id = p.client_id
                WHERE p.state = 'queued' AND d.token IS NOT NULL AND d.platform IN (\(marks))
                  AND p.seq = (SELECT min(q.seq) FROM pushes q WHERE q.client_id = p.client_id AND q.state = 'queued')
                  AND p.not_before_ms <= ? AND p.lease_until_ms <= ?
                ORDER BY p.not_before_ms, p.created_ms, p.client_id
                LIMIT ?
                """, wanted.map(SQLValue.text) + [.int(now), .int(now), .int(Int64(limit))])
            var claimed: [QueuedPush] = []
            for row in candidates {
                guard let id = row[0].text else { continue }
                // Taken only when no other process leased it since the select.
                let leased = try await tx.first("UPDATE pushes SET lease_until_ms = ?, platform = ? WHERE id = ? AND state = 'queued' AND lease_until_ms <= ? RETURNING id",
                                                .int(now &+ max(0, leaseMillis)), row[3], .text(id), .int(now))
                guard leased != nil else { continue }
                claimed.append(QueuedPush(id: id, clientId: row[1].text ?? "", washerId: row[2].text ?? "",
                                          platform: row[3].text ?? "", deviceToken: row[4].text ?? "",
                                          seq: row[5].int ?? 0, attempts: Int(row[6].int ?? 0)))
            }
            return claimed
        }
    }

    public func markSent(id: String, attempts: Int) async throws {
        try await write { tx in
            try await tx.run("UPDATE pushes SET state = 'sent', attempts = ?, lease_until_ms = 0 WHERE id = ?",
                             .int(Int64(attempts)), .text(id))
        }
    }

    public func markRetry(id: String, attempts: Int, notBefore: Int64, lastError: String) async throws {
        try await write { tx in
            try await tx.run("UPDATE pushes SET attempts = ?, not_before_ms = ?, lease_until_ms = 0, last_error = ? WHERE id = ? AND state = 'queued'",
                             .int(Int64(attempts)), .int(notBefore), .text(lastError), .text(id))
        }
    }

    public func markDropped(id: String, attempts: Int, lastError: String) async throws {
        try await write { tx in
            try await tx.run("UPDATE pushes SET state = 'dropped', attempts = ?, lease_until_ms = 0, last_error = ? WHERE id = ?",
                             .int(Int64(attempts)), .text(lastError), .text(id))
        }
    }

    public func dropDevice(pushId: String, attempts: Int, lastError: String) async throws {
        try await write { tx in
            guard let row = try await tx.first("SELECT client_id FROM pushes WHERE id = ?", .text(pushId)),
                  let clientId = row[0].text else { return }
            try await tx.run("UPDATE pushes SET attempts = ?, lease_until_ms = 0 WHERE id = ?", .int(Int64(attempts)), .text(pushId))
            try await tx.run("UPDATE devices SET token = NULL WHERE client_id = ?", .text(clientId))
            try await tx.run("UPDATE pushes SET state = 'dropped', last_error = ?, lease_until_ms = 0 WHERE client_id = ? AND (state = 'queued' OR id = ?)",
                             .text(lastError), .text(clientId), .text(pushId))
        }
    }
}
