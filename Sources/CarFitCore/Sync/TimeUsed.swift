/// The minutes a washer spent on a visit: from the change to InProgress to the change to Done,
/// by the core's clock.
public enum TimeUsed {
    /// Whole minutes from `start` to `end`, rounded half up (29.5 s short of a minute rounds
    /// down, 30 s up); nil when no start was recorded. A clock that went backwards gives 0, never
    /// a negative count; instants too far apart for 64 bits saturate instead of trapping.
    public static func minutes(from start: Instant?, to end: Instant) -> Int? {
        guard let start else { return nil }
        let (difference, overflow) = end.milliseconds.subtractingReportingOverflow(start.milliseconds)
        if overflow { return end.milliseconds > start.milliseconds ? Int(Int64.max / 60_000) : 0 }
        guard difference > 0 else { return 0 }
        let whole = difference / 60_000
        return Int(difference % 60_000 >= 30_000 ? whole + 1 : whole)
    }
}
