import CarFitCore

/// The domain's `MonotonicClock` on `CLOCK_MONOTONIC`.
public struct SystemMonotonicClock: MonotonicClock {
    public init() {}

    public func nanoseconds() -> Int64 { SystemClock.monotonicNs() }
}
