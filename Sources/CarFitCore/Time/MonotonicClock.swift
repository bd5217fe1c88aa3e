/// A monotonic clock in nanoseconds: how the domain measures intervals (`ProgressReporter`).
/// The domain reads no clock itself: the layer below hands it one (CarFitSystem's
/// `SystemMonotonicClock`), a test one it moves by hand.
public protocol MonotonicClock: Sendable {
    /// Nanoseconds since an arbitrary start, never going back.
    func nanoseconds() -> Int64
}
