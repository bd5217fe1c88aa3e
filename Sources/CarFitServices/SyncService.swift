import CarFitCore
import CarFitSystem
import CarFitHTTP
import CarFitIO
import CarFitNet
import CarFitStore

/// Where a push sends and what it uses to: the configured URLs (`sources.visitUpdates`,
/// `sources.locations`, and the attachments' upload), the trail's age limit, the core's HTTP
/// client (with the planner's token), the database's push lock and how long a push without
/// `ifDue` waits for another to end.
public struct PushSetup {
    public var visitUpdates: String?
    public var locations: String?
    public var trailDays: Int64
    public var attachments: AttachmentUpload?
    /// Where the device's registration goes (`sources.devices`).
    public var devices: String?
    public var client: HTTPClient
    public var pushLock: PushLock
    public var waitMs: Int
    /// Hears each event of a push once its answer is committed (a rejected update's conflict).
    public var publish: (@Sendable (Event) -> Void)?

    public init(visitUpdates: String?, locations: String? = nil, trailDays: Int64 = 7, attachments: AttachmentUpload? = nil,
                devices: String? = nil, client: HTTPClient, pushLock: PushLock, waitMs: Int,
                publish: (@Sendable (Event) -> Void)? = nil) {
        self.devices = devices
        self.publish = publish
        self.visitUpdates = visitUpdates
        self.locations = locations
        self.trailDays = trailDays
        self.attachments = attachments
        self.client = client
        self.pushLock = pushLock
        self.waitMs = waitMs
    }
}

/// What a push did, or why it did not try.
public struct PushSummary: Sendable, Equatable {
    /// Why an `ifDue` push made no request.
    public enum Skipped: Sendable, Equatable {
        /// The last push was answered 401 or 403 and no token was set since.
        case unauthorized
        /// Another push of the database runs.
        case busy
        /// The backoff after a failure lasts until that instant.
        case backoff(until: Instant)
    }

    /// The trail's part: points applied by this push, points left.
    public struct Trail: Sendable, Equatable {
        public var pushed: Int
        public var pending: Int
        public init(pushed: Int, pending: Int) {
            self.pushed = pushed
            self.pending = pending
        }
    }

    /// The attachments' part: uploaded by this push, left to upload, refused for good by this push.
    public struct Uploads: Sendable, Equatable {
        public var uploaded: Int
        public var pending: Int
        public var failed: Int
        public init(uploaded: Int, pending: Int, failed: Int) {
            self.uploaded = uploaded
            self.pending = pending
            self.failed = failed
        }
    }

    /// Outbox entries applied and rejected by this push, and left pending.
    public var pushed = 0
    public var rejected = 0
    public var pending = 0
    public var skipped: Skipped?
    /// With `sources.locations` configured.
    public var locations: Trail?
    /// With `sources.attachments` configured.
    public var attachments: Uploads?
    /// With `sources.devices` configured: whether the device's registration was sent.
    public var deviceSent: Bool?

    public init(pushed: Int = 0, rejected: Int = 0, pending: Int = 0, skipped: Skipped? = nil,
                locations: Trail? = nil, attachments: Uploads? = nil) {
        self.pushed = pushed
        self.rejected = rejected
        self.pending = pending
        self.skipped = skipped
        self.locations = locations
        self.attachments = attachments
    }
}

/// The washer's updates on their way to the server: the push of the outbox to the configured
/// `sources.visitUpdates` and the sync status.
public struct SyncService {
    public let db: Database
    /// The outbox, the push's bookkeeping and the conflicts: every write of a push goes there.
    public let outbox: OutboxService
    public let clock: Clock
    /// Where a push sends; nil: nothing is configured to push to.
    public let setup: PushSetup?

    public init(db: Database, clock: Clock, setup: PushSetup? = nil) {
        self.db = db
        outbox = OutboxService(db: db, clock: clock)
        self.clock = clock
        self.setup = setup
    }

    /// The largest answer body a push reads.
    public static let maxAnswerBytes: Int64 = 16 << 20

    /// The sync status: the bookkeeping, the outbox's size and the last rejected changes.
    public struct Status: Sendable, Equatable {
        public var state: SyncState
        public var pending: Int
        public var rejected: [RejectedChange]
        public init(state: SyncState, pending: Int, rejected: [RejectedChange]) {
            self.state = state
            self.pending = pending
            self.rejected = rejected
        }
    }

    public func status() throws(CarFitError) -> Status {
        Status(state: try outbox.state(), pending: try outbox.pendingCount(), rejected: try outbox.rejected())
    }

    /// Sends the outbox, oldest first, at most `PushRequest.maxMutations` a request, until it is
    /// empty, a request fails, or an answer leaves some entry unnamed (that one waits for the
    /// next push). Each answer is committed as it comes: applied entries leave the outbox,
    /// rejected ones are undone and listed. Any failure is `unavailable` with its reason, and
    /// sets the backoff; every entry its request carried stays pending. A 401 or 403 is
    /// `unauthorized` instead: recorded as the last error without counting for the backoff.
    /// `ifDue` skips the push after such a refusal until a token is set (the next push after
    /// that, `ifDue` or not, tries at once, whatever the backoff), while the backoff lasts, or
    /// while another push of the database runs. The requests go through the setup's client
    /// with the planner's token where it belongs. `lock` is held only around database work,
    /// never while the network is waited for.
    /// With `locations` (the planner's URL) the trail's pending points follow the updates
    /// (`pushLocations`), and applied points older than `trailDays` are removed first.
    /// With `attachments`, the pending attachments are uploaded last (`AttachmentUpload`),
    /// sharing the push's backoff. With `devices`, the device's registration goes last, once
    /// per change (`pushDevice`). With none of the four configured the push is `invalid`.
    public func push(ifDue: Bool, lock: some Serializer) throws(CarFitError) -> PushSummary {
        var summary = try pushParts(ifDue: ifDue, lock: lock)
        // A skipped push sent no registration either.
        if setup?.devices != nil && summary.deviceSent == nil { summary.deviceSent = false }
        return summary
    }

    private func pushParts(ifDue: Bool, lock: some Serializer) throws(CarFitError) -> PushSummary {
        guard let setup, setup.visitUpdates != nil || setup.locations != nil || setup.attachments != nil || setup.devices != nil else {
            throw .invalid("sources.visitUpdates", "Nothing to push to: set sources.visitUpdates, sources.locations, sources.attachments or sources.devices when opening the core.")
        }
        let outbox = outbox
        let client = setup.client
        if ifDue && client.auth.pushRefused {
            let pending = try lock.locked { () throws(CarFitError) in try outbox.pendingCount() }
            return PushSummary(pending: pending, skipped: .unauthorized)
        }
        // The first push after a new token goes at once, whatever the backoff.
        let newToken = client.auth.takePushNow()
        if ifDue, !newToken, let skipped = try lock.locked({ () throws(CarFitError) -> PushSummary? in try skippedForBackoff() }) {
            return skipped
        }
        guard let held = try setup.pushLock.acquire(waitMs: ifDue ? 0 : setup.waitMs) else {
            if ifDue {
                let pending = try lock.locked { () throws(CarFitError) in try outbox.pendingCount() }
                return PushSummary(pending: pending, skipped: .busy)
            }
            throw CarFitError(.unavailable, "Another push of this database did not end within \(setup.waitMs) ms; every change stays pending.",
                              details: .init(reason: "busy"))
        }
        defer { held.release() }
        var summary = PushSummary()
        while let url = setup.visitUpdates {
            let batch = try lock.locked { () throws(CarFitError) -> PushRequest? in try outbox.nextRequest() }
            guard let batch else { break }
            let outcome: PushOutcome
            do throws(CarFitError) {
                outcome = try SyncService.send(batch, to: url, client: client)
            } catch {
                try recordFailure(error, client: client, lock: lock)
                throw error
            }
            let counts = try lock.locked { () throws(CarFitError) in try outbox.recordAnswer(outcome) }
            // Committed: the conflicts are told.
            if let publish = setup.publish { for event in counts.conflicts { publish(event) } }
            summary.pushed += counts.applied
            summary.rejected += counts.rejected
            if !outcome.pending.isEmpty { break }
        }
        summary.pending = try lock.locked { () throws(CarFitError) in try outbox.pendingCount() }
        let located = try pushLocations(to: setup.locations, trailDays: setup.trailDays, client: client, lock: lock)
        if setup.locations != nil { summary.locations = located }
        if let attachments = setup.attachments {
            summary.attachments = try upload(attachments, client: client, lock: lock)
        }
        if let devices = setup.devices {
            summary.deviceSent = try pushDevice(to: devices, client: client, lock: lock)
        }
        return summary
    }

    /// The attachments' part of a push: a failure of the network or the server is recorded for
    /// the backoff as the updates' are; an answered request counts as the push's success.
    func upload(_ attachments: AttachmentUpload, client: HTTPClient, lock: some Serializer) throws(CarFitError) -> PushSummary.Uploads {
        let outbox = outbox
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
            try lock.locked { () throws(CarFitError) in try outbox.succeeded() }
        }
        let waiting = try lock.locked { () throws(CarFitError) in try attachments.store.pending().count }
        return PushSummary.Uploads(uploaded: counts.uploaded, pending: waiting, failed: counts.failed)
    }

    /// Records a failed request of the push in the sync state: a 401 or 403 as a refusal that
    /// does not grow the backoff (and stops `ifDue` pushes until a new token), anything else as
    /// a failure that sets the backoff.
    func recordFailure(_ error: CarFitError, client: HTTPClient, lock: some Serializer) throws(CarFitError) {
        let outbox = outbox
        try lock.locked { () throws(CarFitError) in try outbox.failed(error) }
        if error.status == .unauthorized { client.auth.pushWasRefused() }
    }

    /// The answer of an `ifDue` push during the backoff, or nil when a push is due.
    func skippedForBackoff() throws(CarFitError) -> PushSummary? {
        let state = try outbox.state()
        guard !Backoff.isDue(now: clock.now, nextAttempt: state.nextAttemptAt), let next = state.nextAttemptAt else { return nil }
        return PushSummary(pending: try outbox.pendingCount(), skipped: .backoff(until: next))
    }

    /// POSTs one request and reads its answer: what it does to the entries sent, or the
    /// network's failure (`CarFitError(_:_:)`: `unavailable` with its reason, `unauthorized`
    /// for a 401 or 403), or `unavailable` with reason `malformed`.
    static func send(_ batch: PushRequest, to url: String, client: HTTPClient) throws(CarFitError) -> PushOutcome {
        let answer: HTTPResponseBody
        do throws(HTTPError) {
            answer = try client.source(.postJSON(url, body: batch.body), source: "visitUpdates", maxBytes: maxAnswerBytes)
        } catch {
            throw CarFitError(error, .visitUpdates)
        }
        if let refused = CarFitError.answered(answer.response.status, url: url, .visitUpdates) { throw refused }
        do throws(MalformedAnswer) {
            return try PushAnswer(answer: answer.body).outcome(sent: batch.mutationIds)
        } catch {
            throw CarFitError.badAnswer("malformed", url: url, .visitUpdates, error.what)
        }
    }
}
