import CarFitCore
import CarFitHTTP
import CarFitIO
import CarFitNet
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
    /// sets the backoff; every entry its request carried stays pending. A 401 or 403 is
    /// `unauthorized` instead: recorded as the last error without counting for the backoff.
    /// `{"ifDue": true}` skips the push after such a refusal until a token is set (the next
    /// push after that, `ifDue` or not, tries at once, whatever the backoff), while the
    /// backoff lasts, or while another push of the database runs. The requests go through
    /// `client` with the planner's token where it belongs. `lock` is held only around
    /// database work, never while the network is waited for.
    /// With `locations` (the planner's URL) the trail's pending points follow the updates
    /// (`pushLocations`), and applied points older than `trailDays` are removed first.
    /// With `attachments`, the pending attachments are uploaded last (`AttachmentUpload`),
    /// sharing the push's backoff, and the answer gains `"attachments": {"uploaded",
    /// "pending", "failed"}`. With none of the three configured the push is `invalid`.
    public func push(_ request: Fields, source: String?, locations: String? = nil, trailDays: Int64 = 7,
                     client: HTTPClient, pushLock: PushLock, waitMs: Int,
                     lock: some Serializer, attachments: AttachmentUpload? = nil) throws(CarFitError) -> JSON {
        let ifDue = try request.bool("ifDue") ?? false
        guard source != nil || locations != nil || attachments != nil else {
            throw .invalid("sources.visitUpdates", "Nothing to push to: set sources.visitUpdates, sources.locations or sources.attachments when opening the core.")
        }
        let sync = sync
        let clock = clock
        if ifDue && client.auth.pushRefused {
            let pending = try lock.locked { () throws(CarFitError) in try sync.pendingCount() }
            return .obj(["pushed": .int(0), "rejected": .int(0), "pending": .int(pending), "skipped": .string("unauthorized")])
        }
        // The first push after a new token goes at once, whatever the backoff.
        let newToken = client.auth.takePushNow()
        if ifDue, !newToken, let skipped = try lock.locked({ () throws(CarFitError) -> JSON? in try skippedForBackoff() }) {
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
        while let url = source {
            let batch = try lock.locked { () throws(CarFitError) -> PushRequest? in
                let pending = try sync.pending(limit: PushRequest.maxMutations)
                return pending.isEmpty ? nil : PushRequest(clientId: try sync.state().clientId, mutations: pending)
            }
            guard let batch else { break }
            let outcome: PushOutcome
            do throws(CarFitError) {
                outcome = try SyncService.send(batch, to: url, client: client)
            } catch {
                try recordFailure(error, client: client, lock: lock)
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
        var answer = JSONObject(["pushed": .int(pushed), "rejected": .int(rejected), "pending": .int(pending)])
        let located = try pushLocations(to: locations, trailDays: trailDays, client: client, lock: lock)
        if locations != nil { answer.appendDistinct("locations", located) }
        if let attachments {
            var counts = AttachmentUpload.Counts()
            do throws(CarFitError) {
                try attachments.run(client: client, lock: lock, counts: &counts)
            } catch {
                if error.status == .unavailable || error.status == .unauthorized {
                    try recordFailure(error, client: client, lock: lock)
                }
                throw error
            }
            if counts.answered {
                try lock.locked { () throws(CarFitError) in
                    try db.transaction { () throws(CarFitError) in
                        var state = try sync.state()
                        state.succeeded(at: clock.now)
                        try sync.save(state)
                    }
                }
            }
            let waiting = try lock.locked { () throws(CarFitError) in try attachments.store.pending().count }
            answer.appendDistinct("attachments", .obj(["uploaded": .int(Int64(counts.uploaded)), "pending": .int(Int64(waiting)),
                                                       "failed": .int(Int64(counts.failed))]))
        }
        return .object(answer)
    }

    /// Records a failed request of the push in the sync state: a 401 or 403 as a refusal that
    /// does not grow the backoff (and stops `ifDue` pushes until a new token), anything else as
    /// a failure that sets the backoff.
    func recordFailure(_ error: CarFitError, client: HTTPClient, lock: some Serializer) throws(CarFitError) {
        let sync = sync
        let clock = clock
        let db = db
        try lock.locked { () throws(CarFitError) in
            try db.transaction { () throws(CarFitError) in
                var state = try sync.state()
                if error.status == .unauthorized {
                    state.refused(at: clock.now, error: error)
                } else {
                    var random = KernelRandom()
                    state.failed(at: clock.now, error: error, random: &random)
                }
                try sync.save(state)
            }
        }
        if error.status == .unauthorized { client.auth.pushWasRefused() }
    }

    /// The answer of an `ifDue` push during the backoff, or nil when a push is due.
    func skippedForBackoff() throws(CarFitError) -> JSON? {
        let state = try sync.state()
        guard !Backoff.isDue(now: clock.now, nextAttempt: state.nextAttemptAt), let next = state.nextAttemptAt else { return nil }
        return .obj(["pushed": .int(0), "rejected": .int(0), "pending": .int(try sync.pendingCount()),
                     "skipped": .string("backoff"), "nextAttemptAt": .string(OutboxMutation.iso(next))])
    }

    /// POSTs one request and reads its answer: what it does to the entries sent, or
    /// `unavailable` with the reason (a transfer failure's, `http_status`, or `malformed`), or
    /// `unauthorized` for a 401 or 403.
    static func send(_ batch: PushRequest, to url: String, client: HTTPClient) throws(CarFitError) -> PushOutcome {
        let answer: HTTPResponseBody
        do throws(HTTPFailure) {
            answer = try client.source(.postJSON(url, body: batch.json.encodedBytes()), source: "visitUpdates",
                                       maxBytes: maxAnswerBytes)
        } catch {
            let invalid = error.reason == .notHTTP
            throw CarFitError(invalid ? .invalid : .unavailable,
                              "The update server could not be reached (\(error.message.prefix(300))); every change stays pending.",
                              field: invalid ? "sources.visitUpdates" : nil,
                              extra: JSONObject(["reason": .string(error.reason.rawValue), "url": .string(String(url.prefix(2000)))]))
        }
        if HTTPClient.isRefusal(answer.response.status) {
            throw .unauthorized(url, status: answer.response.status, what: "washer's updates")
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
