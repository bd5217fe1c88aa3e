/// The lock-out rule of the login screen. After `maxFailures` wrong PINs in a row, every login
/// is refused for `lockMilliseconds` of the core's clock; refusals during a lock neither count
/// nor extend it; a successful login clears the count. Lives in the database.
public struct LoginGuard: Sendable, Equatable {
    public static let maxFailures = 5
    public static let lockMilliseconds: Int64 = 30_000

    /// Wrong PINs in a row since the last success or the last lock.
    public var failures: Int
    /// The end of the current (or last) lock, exclusive.
    public var lockedUntil: Instant?

    public init(failures: Int = 0, lockedUntil: Instant? = nil) {
        self.failures = failures
        self.lockedUntil = lockedUntil
    }

    public func isLocked(at now: Instant) -> Bool {
        guard let lockedUntil else { return false }
        return now < lockedUntil
    }

    /// Counts a wrong PIN; returns true when this failure starts a lock (the count then restarts).
    public mutating func recordFailure(at now: Instant) -> Bool {
        failures = min(max(failures, 0), LoginGuard.maxFailures - 1) + 1
        guard failures >= LoginGuard.maxFailures else { return false }
        failures = 0
        let (end, overflow) = now.milliseconds.addingReportingOverflow(LoginGuard.lockMilliseconds)
        lockedUntil = Instant(milliseconds: overflow ? Int64.max : end)
        return true
    }

    public mutating func recordSuccess() {
        failures = 0
        lockedUntil = nil
    }

    /// The end of a lock as the message and the error document give it: rounded up to the
    /// whole second, so a retry at that instant is never refused.
    public static func displayed(_ until: Instant) -> Instant {
        let ms = until.milliseconds
        let rem = ms % 1000
        guard rem != 0 else { return until }
        let (up, overflow) = (ms - rem).addingReportingOverflow(rem > 0 ? 1000 : 0)
        return overflow ? until : Instant(milliseconds: up)
    }
}
