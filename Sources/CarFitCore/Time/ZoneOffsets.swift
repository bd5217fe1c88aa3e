/// A zone's offsets from UTC (seconds) over a stretch of time with at most one change: `before`
/// for whole seconds since the epoch below `switchSecond`, `after` from there on.
public struct ZoneOffsets: Sendable, Equatable {
    public var before: Int
    public var after: Int
    public var switchSecond: Int64

    @inline(__always)
    public func offset(atSecond second: Int64) -> Int { second < switchSecond ? before : after }
}
