/// Local wall times of the instants of one stretch (a day's rows): the zone's offsets are
/// worked out once when they change at most once within the stretch, and asked of the zone per
/// instant otherwise (or for an instant outside it). Either way the answer is the clock's
/// `localSeconds`.
public struct LocalTimes: Sendable {
    public let clock: Clock
    public let range: Range<Int64>
    public let offsets: ZoneOffsets?

    public init(clock: Clock, over range: Range<Int64>) {
        self.clock = clock
        self.range = range
        offsets = clock.offsets(over: range)
    }

    /// Seconds since 1970-01-01T00:00 local wall time, as `Clock.localSeconds`.
    @inline(__always)
    public func localSeconds(_ instant: Instant) -> Int64 {
        if let offsets, range.contains(instant.milliseconds) {
            let second = instant.seconds
            return second + Int64(offsets.offset(atSecond: second))
        }
        return clock.localSeconds(instant)
    }
}
