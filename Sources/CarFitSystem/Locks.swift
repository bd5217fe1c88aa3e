#if canImport(Glibc)
import Glibc
#endif

/// Monotonic and wall-clock readings in nanoseconds.
public enum SystemClock {
    /// Nanoseconds of `CLOCK_MONOTONIC`: for deadlines and intervals.
    public static func monotonicNs() -> Int64 { read(CLOCK_MONOTONIC) }

    /// Milliseconds since the epoch of `CLOCK_REALTIME`: the host's "now".
    public static func wallMilliseconds() -> Int64 {
        let ns = read(CLOCK_REALTIME)
        return ns >= 0 ? ns / 1_000_000 : (ns - 999_999) / 1_000_000
    }

    static func read(_ clock: clockid_t) -> Int64 {
        var ts = Glibc.timespec()
        _ = clock_gettime(clock, &ts)
        return Int64(ts.tv_sec) &* 1_000_000_000 &+ Int64(ts.tv_nsec)
    }

    static func deadline(ns: Int64) -> Glibc.timespec {
        var ts = Glibc.timespec()
        ts.tv_sec = Int(ns / 1_000_000_000)
        ts.tv_nsec = Int(ns % 1_000_000_000)
        return ts
    }
}

/// A mutual-exclusion lock (a POSIX mutex) taken and released by explicit calls, for state that
/// a class guards across several methods.
public final class Lock: @unchecked Sendable {
    private let mutex: UnsafeMutablePointer<pthread_mutex_t>

    public init() {
        mutex = .allocate(capacity: 1)
        mutex.initialize(to: pthread_mutex_t())
        pthread_mutex_init(mutex, nil)
    }

    deinit {
        pthread_mutex_destroy(mutex)
        mutex.deallocate()
    }

    public func lock() { pthread_mutex_lock(mutex) }
    public func unlock() { pthread_mutex_unlock(mutex) }
    /// Takes the lock if it is free; false otherwise.
    public func `try`() -> Bool { pthread_mutex_trylock(mutex) == 0 }

    /// Takes the lock, waiting until the monotonic clock reads `deadlineNs`; false if it did not.
    public func lock(beforeMonotonicNs deadlineNs: Int64) -> Bool {
        // pthread_mutex_timedlock reads CLOCK_REALTIME: the same distance from now on it.
        let remaining = deadlineNs - SystemClock.monotonicNs()
        var ts = SystemClock.deadline(ns: SystemClock.read(CLOCK_REALTIME) + max(0, remaining))
        while true {
            let r = pthread_mutex_timedlock(mutex, &ts)
            if r == 0 { return true }
            if r != EINTR { return false }
        }
    }

    public func withLock<T>(_ body: () throws -> T) rethrows -> T {
        lock()
        defer { unlock() }
        return try body()
    }
}

/// A lock with a condition variable (on the monotonic clock): `wait` releases the lock while it
/// waits and holds it again when it returns.
public final class Condition: @unchecked Sendable {
    private let mutex: UnsafeMutablePointer<pthread_mutex_t>
    private let cond: UnsafeMutablePointer<pthread_cond_t>

    public init() {
        mutex = .allocate(capacity: 1)
        mutex.initialize(to: pthread_mutex_t())
        pthread_mutex_init(mutex, nil)
        cond = .allocate(capacity: 1)
        cond.initialize(to: pthread_cond_t())
        var attributes = pthread_condattr_t()
        pthread_condattr_init(&attributes)
        pthread_condattr_setclock(&attributes, CLOCK_MONOTONIC)
        pthread_cond_init(cond, &attributes)
        pthread_condattr_destroy(&attributes)
    }

    deinit {
        pthread_cond_destroy(cond)
        pthread_mutex_destroy(mutex)
        cond.deallocate()
        mutex.deallocate()
    }

    public func lock() { pthread_mutex_lock(mutex) }
    public func unlock() { pthread_mutex_unlock(mutex) }
    public func signal() { pthread_cond_signal(cond) }
    public func broadcast() { pthread_cond_broadcast(cond) }
    public func wait() { pthread_cond_wait(cond, mutex) }

    /// Waits until signalled or the monotonic clock reads `deadlineNs`; false on the deadline.
    @discardableResult
    public func wait(untilMonotonicNs deadlineNs: Int64) -> Bool {
        var ts = SystemClock.deadline(ns: max(0, deadlineNs))
        return pthread_cond_timedwait(cond, mutex, &ts) == 0
    }
}

/// Counts work in progress (`enter`, `leave`); `wait` returns once none is left.
public final class WaitGroup: @unchecked Sendable {
    private let condition = Condition()
    private var count = 0

    public init() {}

    public func enter() {
        condition.lock()
        count += 1
        condition.unlock()
    }

    public func leave() {
        condition.lock()
        count -= 1
        if count <= 0 { condition.broadcast() }
        condition.unlock()
    }

    public func wait() {
        condition.lock()
        while count > 0 { condition.wait() }
        condition.unlock()
    }

    /// Waits at most `ms` milliseconds; false if work is still in progress then.
    public func wait(milliseconds ms: Int64) -> Bool {
        let deadline = SystemClock.monotonicNs() + ms * 1_000_000
        condition.lock()
        defer { condition.unlock() }
        while count > 0 {
            if SystemClock.monotonicNs() >= deadline { return false }
            condition.wait(untilMonotonicNs: deadline)
        }
        return true
    }
}
