/// The push's bookkeeping for one database: its client id, the last attempt and success, the
/// last failure and the backoff it set.
public struct SyncState: Sendable, Equatable {
    /// Made once per database; sent with every push.
    public var clientId: String
    public var lastAttemptAt: Instant?
    public var lastSuccessAt: Instant?
    /// The last failure; nil after a success.
    public var lastError: SyncFailure?
    public var consecutiveFailures = 0
    /// When an `ifDue` push may try again; nil when no failure is recorded.
    public var nextAttemptAt: Instant?

    public init(clientId: String) {
        self.clientId = clientId
    }

    /// A push failed at `now` with `error`: one more failure in a row, the next attempt after
    /// the backoff (jitter drawn from `random`).
    public mutating func failed<R: RandomNumberGenerator>(at now: Instant, error: CarFitError, random: inout R) {
        lastAttemptAt = now
        consecutiveFailures = consecutiveFailures < Int(Int32.max) ? consecutiveFailures + 1 : consecutiveFailures
        nextAttemptAt = Backoff.nextAttempt(lastFailure: now, failures: consecutiveFailures, random: &random)
        lastError = SyncFailure(error, at: now)
    }

    /// A push was refused at `now` for want of credentials (401 or 403): the failure is
    /// recorded as `lastError`, but it is no failure of the network or the server, so the count
    /// of failures and the backoff stay as they were.
    public mutating func refused(at now: Instant, error: CarFitError) {
        lastAttemptAt = now
        lastError = SyncFailure(error, at: now)
    }

    /// A push got its answer at `now`: the failures and the backoff are forgotten.
    public mutating func succeeded(at now: Instant) {
        lastAttemptAt = now
        lastSuccessAt = now
        lastError = nil
        consecutiveFailures = 0
        nextAttemptAt = nil
    }
}
