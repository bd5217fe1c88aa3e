import CarFitCore
import CarFitHTTP
import CarFitIO
import CarFitStore

/// The washer's updates on their way to the server: the push of the outbox to the configured
/// `sources.visitUpdates` and the sync status.
public struct SyncService {
    public let db: Database
    public let sync: SyncStore
    public let clock: Clock

    public init(db: Database, clock: Clock) {
        self.db = db
        sync = SyncStore(db)
        self.clock = clock
    }

    /// The largest answer body a push reads.
    public static let maxAnswerBytes: Int64 = 16 << 20

    /// `{"clientId", "pending", "lastAttemptAt", "lastSuccessAt", "lastError",
    /// "consecutiveFailures", "nextAttemptAt", "rejected": [...]}`.
    public func status() throws(CarFitError) -> JSON {
        var document = try sync.state().json
        document["pending"] = .int(Int64(try sync.pendingCount()))
        document["rejected"] = .array(try sync.rejected())
        return .object(document)
    }

    /// Sends the outbox, oldest first, at most `PushRequest.maxMutations` a request, until it is
    /// empty, a request fails, or an answer leaves some entry unnamed (that one waits for the
    /// next push). Each answer is committed as it comes: applied entries leave the outbox,
    /// rejected ones are undone and listed. Any failure is `unavailable` with its reason, and
    /// sets the backoff; every entry its request carried stays pending. `{"ifDue": true}`
    /// skips the push while the backoff lasts or while another push of the database runs.
    /// `lock` is held only around database work, never while the network is waited for.
    public func push(_ request: Fields, source: String?, client: CurlClient, pushLock: PushLock, waitMs: Int,
                     lock: some Serializer) throws(CarFitError) -> JSON {
        let ifDue = try request.bool("ifDue") ?? false
        guard let url = source else {
            throw .invalid("sources.visitUpdates", "No update server is configured: set sources.visitUpdates when opening the core.")
        }
        let sync = sync
        let clock = clock
        if ifDue, let skipped = try lock.locked({ () throws(CarFitError) -> JSON? in try skippedForBackoff() }) {
            return skipped
        }
        guard let held = try pushLock.acquire(waitMs: ifDue ? 0 : waitMs) else {
            if ifDue {
                let pending = try lock.locked { () throws(CarFitError) in try sync.pendingCount() }
                return .obj(["pushed": .int(0), "rejected": .int(0), "pending": .int(pending), "skipped": .string("busy")])
            }
            throw CarFitError(.unavailable, "Another push of this database did not end within \(waitMs) ms; every change stays pending.",
                              extra: JSONObject(["reason": "busy"]))
        }
        defer { held.release() }
        var pushed = 0
        var rejected = 0
        while true {
            let batch = try lock.locked { () throws(CarFitError) -> PushRequest? in
                let pending = try sync.pending(limit: PushRequest.maxMutations)
                return pending.isEmpty ? nil : PushRequest(clientId: try sync.state().clientId, mutations: pending)
            }
            guard let batch else { break }
            let outcome: PushOutcome
            do throws(CarFitError) {
                outcome = try SyncService.send(batch, to: url, client: client)
            } catch {
                try lock.locked { () throws(CarFitError) in
                    try db.transaction { () throws(CarFitError) in
                        var state = try sync.state()
                        var random = KernelRandom()
                        state.failed(at: clock.now, error: error, random: &random)
                        try sync.save(state)
                    }
                }
                throw error
            }
            let counts = try lock.locked { () throws(CarFitError) in
                try db.transaction { () throws(CarFitError) in
                    let counts = try sync.record(outcome)
                    var state = try sync.state()
                    state.succeeded(at: clock.now)
                    try sync.save(state)
                    return counts
                }
            }
            pushed += counts.applied
            rejected += counts.rejected
            if !outcome.pending.isEmpty { break }
        }
        let pending = try lock.locked { () throws(CarFitError) in try sync.pendingCount() }
        return .obj(["pushed": .int(pushed), "rejected": .int(rejected), "pending": .int(pending)])
    }

    /// The answer of an `ifDue` push during the backoff, or nil when a push is due.
    func skippedForBackoff() throws(CarFitError) -> JSON? {
        let state = try sync.state()
        guard !Backoff.isDue(now: clock.now, nextAttempt: state.nextAttemptAt), let next = state.nextAttemptAt else { return nil }
        return .obj(["pushed": .int(0), "rejected": .int(0), "pending": .int(try sync.pendingCount()),
                     "skipped": .string("backoff"), "nextAttemptAt": .string(OutboxMutation.iso(next))])
    }

    /// POSTs one request and reads its answer: what it does to the entries sent, or
    /// `unavailable` with the reason (a transfer failure's, `http_status`, or `malformed`).
    static func send(_ batch: PushRequest, to url: String, client: CurlClient) throws(CarFitError) -> PushOutcome {
        let answer: HTTPResponseBody
        do throws(HTTPError) {
            answer = try client.fetch(.postJSON(url, body: batch.json.encodedBytes()), maxBytes: maxAnswerBytes)
        } catch {
            let invalid = error.reason == .invalidRequest
            throw CarFitError(invalid ? .invalid : .unavailable,
                              "The update server could not be reached (\(error.message.prefix(300))); every change stays pending.",
                              field: invalid ? "sources.visitUpdates" : nil,
                              extra: JSONObject(["reason": .string(error.reason.rawValue), "url": .string(String(url.prefix(2000)))]))
        }
        guard answer.response.isSuccess else {
            let status = answer.response.status
            throw CarFitError(.unavailable, "The update server answered with HTTP status \(status); every change stays pending.",
                              extra: JSONObject(["reason": "http_status", "httpStatus": .int(Int64(status)),
                                                 "url": .string(String(url.prefix(2000)))]))
        }
        guard case .success(let json) = JanssonParser.parse(bytes: answer.body) else {
            throw PushAnswer.malformed("is not JSON")
        }
        return try PushAnswer(json: json).outcome(sent: batch.mutationIds)
    }
}
