/// When a push may be tried again after failures: capped exponential backoff with jitter.
///
/// The n-th failure in a row waits min(300 s, 1 s × 2^(n − 1)), then ±20% of that, drawn from an
/// injected generator so a test (or a seeded core) sees the same schedule every time.
public enum Backoff {
    /// The wait after the first failure, in milliseconds.
    public static let baseMilliseconds: Int64 = 1_000
    /// The longest wait before jitter, in milliseconds.
    public static let capMilliseconds: Int64 = 300_000
    /// The jitter as a fraction of the wait: ±1/5.
    public static let jitterDivisor: Int64 = 5

    /// The wait before jitter after `failures` failures in a row (0 for none), in milliseconds.
    /// Any count, however large, gives at most the cap.
    public static func baseDelay(failures: Int) -> Int64 {
        guard failures > 0 else { return 0 }
        // 2^9 s already passes the cap: larger exponents need no shift (and cannot overflow).
        let exponent = min(failures - 1, 9)
        return min(capMilliseconds, baseMilliseconds << Int64(exponent))
    }

    /// The wait after `failures` failures in a row with its jitter: uniform over
    /// [base − base/5, base + base/5] milliseconds, drawn from `random`.
    public static func delay<R: RandomNumberGenerator>(failures: Int, random: inout R) -> Int64 {
        let base = baseDelay(failures: failures)
        let spread = base / jitterDivisor
        guard spread > 0 else { return base }
        // 0 ... 2·spread by multiply-high: no modulo bias worth the name, no trap.
        let offset = Int64(random.next().multipliedFullWidth(by: UInt64(2 * spread + 1)).high)
        return base - spread + offset
    }

    /// The earliest instant of the next attempt: the last failure plus `delay`; saturates at the
    /// end of time rather than trapping.
    public static func nextAttempt<R: RandomNumberGenerator>(lastFailure: Instant, failures: Int,
                                                             random: inout R) -> Instant {
        let (sum, overflow) = lastFailure.milliseconds.addingReportingOverflow(delay(failures: failures, random: &random))
        return Instant(milliseconds: overflow ? Int64.max : sum)
    }

    /// Whether an `ifDue` push may try at `now`: no failure recorded, or the wait is over.
    public static func isDue(now: Instant, nextAttempt: Instant?) -> Bool {
        guard let nextAttempt else { return true }
        return now >= nextAttempt
    }
}
