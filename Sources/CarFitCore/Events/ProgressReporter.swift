/// Reports how many bytes of a long operation are done, for hosts that show a progress bar: only
/// for operations over `threshold` bytes, at most once per `intervalNs`, and always a last report
/// with `done == total` when the operation finishes. Used by one thread at a time (the one
/// running the operation); `sink` receives `(done, total)`, `total` nil while it is not known.
/// The intervals are measured on `clock`, which the caller hands in.
///
/// An operation whose size is not known when it starts (a download without a declared length)
/// reports nothing until more than `threshold` bytes are done, then reports them with no total
/// until `expect` tells it; its last report is complete as for any other.
public final class ProgressReporter {
    /// Operations of at most this many bytes report nothing (1 MiB).
    public static let threshold: Int64 = 1 << 20
    /// The shortest time between two reports, in nanoseconds (100 ms).
    public static let intervalNs: Int64 = 100_000_000

    /// The bytes of the whole operation; nil while they are not known.
    public private(set) var total: Int64?
    /// The bytes whose count decides whether anything is reported (the operation's input):
    /// `total` unless `expect` said otherwise.
    private var size: Int64?
    private let sink: (Int64, Int64?) -> Void
    private let clock: any MonotonicClock
    /// When the last report was made, in nanoseconds of the monotonic clock.
    private var lastReport: Int64?
    private var reported = false
    private var finished = false

    /// A reporter for an operation of `total` bytes; nil when `total` is within the threshold.
    public init?(total: Int64, clock: any MonotonicClock, sink: @escaping (_ done: Int64, _ total: Int64?) -> Void) {
        guard total > ProgressReporter.threshold else { return nil }
        self.total = total
        self.size = total
        self.clock = clock
        self.sink = sink
    }

    /// A reporter for an operation whose size is not known yet (`expect` tells it later).
    public init(clock: any MonotonicClock, sink: @escaping (_ done: Int64, _ total: Int64?) -> Void) {
        self.clock = clock
        self.sink = sink
    }

    /// The operation is `total` bytes of work for an input of `size` bytes (`total` when nil):
    /// reports are made only when `size` is over the threshold, or when some already were.
    public func expect(total: Int64, size: Int64? = nil) {
        guard !finished else { return }
        self.total = max(total, 0)
        self.size = max(size ?? total, 0)
    }

    /// Whether reports are made: over the threshold, by size when known, else by `done`.
    private func reports(_ done: Int64) -> Bool {
        if reported { return true }
        if let size { return size > ProgressReporter.threshold }
        return done > ProgressReporter.threshold
    }

    /// `done` bytes are done: reported unless the last report is younger than `intervalNs`.
    /// Values past `total` count as just under it; the complete count is left to `finish`.
    public func advance(to done: Int64) {
        guard !finished, reports(done) else { return }
        let now = clock.nanoseconds()
        if let last = lastReport, now &- last < ProgressReporter.intervalNs { return }
        lastReport = now
        reported = true
        if let total {
            sink(min(max(done, 0), max(total - 1, 0)), total)
        } else {
            sink(max(done, 0), nil)
        }
    }

    /// The operation ended: the last report, `done == total`. Only the first call reports, and
    /// only for an operation that reports at all and whose total is known.
    public func finish() {
        guard !finished, let total else { return }
        finished = true
        guard reports(total) else { return }
        reported = true
        sink(total, total)
    }
}
