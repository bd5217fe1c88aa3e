import Foundation
@testable import PlannerPush

/// The store's queue as the tests keep it: the rules of `PushQueue`'s doc comments, in memory.
actor InMemoryPushQueue: PushQueue {
    struct Record: Equatable {
        var id: String
        var clientId: String
        var platform: String
        var seq: Int64
        var state = "queued"
        var attempts = 0
        var notBefore: Int64 = 0
        var leaseUntil: Int64 = 0
        var lastError: String?
    }

    private(set) var records: [Record] = []
    /// clientId → token (nil once unregistered).
    private(set) var tokens: [String: String?] = [:]
    private var nextSeq: [String: Int64] = [:]
    /// Ids in the order `claimDue` handed them out.
    private(set) var claimed: [String] = []

    /// Queues a push to the device, registering it with `token` if it is new; returns the push's id.
    @discardableResult
    func enqueue(clientId: String, platform: String, token: String) -> String {
        if tokens[clientId] == nil { tokens[clientId] = .some(token) }
        let seq = (nextSeq[clientId] ?? 0) + 1
        nextSeq[clientId] = seq
        let id = UUID().uuidString
        records.append(Record(id: id, clientId: clientId, platform: platform, seq: seq))
        return id
    }

    func record(_ id: String) -> Record? { records.first { $0.id == id } }
    func require(_ id: String) throws -> Record {
        guard let found = record(id) else { throw QueueError.unknown(id) }
        return found
    }
    func token(of clientId: String) -> String?? { tokens[clientId] }
    var queuedCount: Int { records.filter { $0.state == "queued" }.count }

    func claimDue(platforms: Set<String>, now: Int64, limit: Int, leaseMillis: Int64) async throws -> [QueuedPush] {
        var lowest: [String: Int] = [:]
        for (index, record) in records.enumerated() where record.state == "queued" && platforms.contains(record.platform) {
            if let known = lowest[record.clientId], records[known].seq < record.seq { continue }
            lowest[record.clientId] = index
        }
        var out: [QueuedPush] = []
        for index in lowest.values.sorted() where out.count < limit {
            let record = records[index]
            guard record.notBefore <= now, record.leaseUntil <= now,
                  case .some(.some(let token)) = tokens[record.clientId] else { continue }
            records[index].leaseUntil = now + leaseMillis
            claimed.append(record.id)
            out.append(QueuedPush(id: record.id, clientId: record.clientId, washerId: "w", platform: record.platform,
                                  deviceToken: token, seq: record.seq, attempts: record.attempts))
        }
        return out
    }

    private func update(_ id: String, _ change: (inout Record) -> Void) throws {
        guard let index = records.firstIndex(where: { $0.id == id }) else { throw QueueError.unknown(id) }
        change(&records[index])
    }

    func markSent(id: String, attempts: Int) async throws {
        try update(id) { $0.state = "sent"; $0.attempts = attempts; $0.leaseUntil = 0 }
    }

    func markRetry(id: String, attempts: Int, notBefore: Int64, lastError: String) async throws {
        try update(id) { $0.attempts = attempts; $0.notBefore = notBefore; $0.lastError = lastError; $0.leaseUntil = 0 }
    }

    func markDropped(id: String, attempts: Int, lastError: String) async throws {
        try update(id) { $0.state = "dropped"; $0.attempts = attempts; $0.lastError = lastError; $0.leaseUntil = 0 }
    }

    func dropDevice(pushId: String, attempts: Int, lastError: String) async throws {
        try update(pushId) { $0.attempts = attempts }
        guard let clientId = record(pushId)?.clientId else { return }
        tokens[clientId] = .some(nil)
        for index in records.indices where records[index].clientId == clientId && records[index].state == "queued" {
            records[index].state = "dropped"
            records[index].lastError = lastError
            records[index].leaseUntil = 0
        }
    }

    enum QueueError: Error { case unknown(String) }
}

/// A clock the test moves by hand.
final class TestClock: @unchecked Sendable {
    private let lock = NSLock()
    private var millis: Int64

    init(millis: Int64 = 1_800_000_000_000) { self.millis = millis }

    var now: Int64 { lock.withLock { millis } }
    func advance(seconds: Double) { lock.withLock { millis += Int64(seconds * 1000) } }

    var pushClock: PushClock {
        PushClock(now: { self.now }, sleep: { _ in await Task.yield() })
    }
}

/// Log lines collected for assertions (that no secret is written).
final class LogLines: @unchecked Sendable {
    private let lock = NSLock()
    private var stored: [String] = []
    func append(_ line: String) { lock.withLock { stored.append(line) } }
    var lines: [String] { lock.withLock { stored } }
}
