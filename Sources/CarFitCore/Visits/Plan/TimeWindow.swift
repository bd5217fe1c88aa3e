/// A stop's time window from the visit's `expectedTime` (`"08:00/10:00"`, local times of the
/// visit's day). The end may be `"24:00"`; an end before the start is not a window.
public struct TimeWindow: Sendable, Equatable {
    public var start: Int
    public var end: Int

    public init?(start: Int, end: Int) {
        guard start >= 0, end >= start, end <= 1440 else { return nil }
        self.start = start
        self.end = end
    }

    /// The window written in `expectedTime`, or nil when the text is not `"HH:mm/HH:mm"`.
    public init?(expectedTime text: String) {
        let parts = text.split(separator: "/", omittingEmptySubsequences: false)
        guard parts.count == 2,
              let start = TimeOfDay.minutes(String(parts[0])),
              let end = TimeOfDay.minutes(String(parts[1]), allowEndOfDay: true) else { return nil }
        self.init(start: start, end: end)
    }

    /// `"08:00/10:00"`
    public var text: String { TimeOfDay.text(start) + "/" + TimeOfDay.text(end) }
}
