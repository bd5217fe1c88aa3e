/// Reports how many bytes of a long operation are done, for hosts that show a progress bar: only
/// for operations over `threshold` bytes, at most once per `interval`, and always a last report
/// with `done == total` when the operation finishes. Used by one thread at a time (the one
/// running the operation); `sink` receives `(done, total)`.
public final class ProgressReporter {
    /// Operations of at most this many bytes report nothing (1 MiB).
    public static let threshold: Int64 = 1 << 20
    /// The shortest time between two reports.
    public static let interval: Duration = .milliseconds(100)

    public let total: Int64
    private let sink: (Int64, Int64) -> Void
    private let clock = ContinuousClock()
    private var lastReport: ContinuousClock.Instant?
    private var finished = false

    /// A reporter for an operation of `total` bytes; nil when `total` is within the threshold.
    public init?(total: Int64, sink: @escaping (_ done: Int64, _ total: Int64) -> Void) {
        guard total > ProgressReporter.threshold else { return nil }
        self.total = total
        self.sink = sink
    }

    /// `done` bytes are done: reported unless the last report is younger than `interval`.
    /// Values past `total` count as `total`; the complete count is left to `finish`.
    public func advance(to done: Int64) {
        guard !finished else { return }
        let now = clock.now
        if let last = lastReport, now - last < ProgressReporter.interval { return }
        lastReport = now
        sink(min(max(done, 0), total - 1), total)
    }

    /// The operation ended: the last report, `done == total`. Only the first call reports.
    public func finish() {
        guard !finished else { return }
        finished = true
        sink(total, total)
    }
}
