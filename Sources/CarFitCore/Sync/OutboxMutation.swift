/// One entry of the outbox: a state change of one visit, waiting to reach the server.
///
/// `sequence` orders the outbox (oldest first); `mutationId` is made once when the entry is
/// written and kept across every retry, so a server that records ids applies the change once
/// however often a lost answer makes the core send it again.
public struct OutboxMutation: Sendable, Equatable {
    public var sequence: Int64
    public var mutationId: String
    public var visitId: String?
    public var start: Instant
    public var state: VisitState
    public var at: Instant
    public var timeUsedMinutes: Int?
    public var reason: String?

    public init(sequence: Int64, mutationId: String, visitId: String?, start: Instant, state: VisitState,
                at: Instant, timeUsedMinutes: Int? = nil, reason: String? = nil) {
        self.sequence = sequence
        self.mutationId = mutationId
        self.visitId = visitId
        self.start = start
        self.state = state
        self.at = at
        self.timeUsedMinutes = timeUsedMinutes
        self.reason = reason
    }

    /// An instant as UTC text, `"2020-09-10T08:05:00Z"`, with milliseconds when it has any
    /// (`"2020-09-10T08:05:00.250Z"`): the server matches `startTimeUtc` to its visit as an
    /// instant, so a start with a fraction of a second must keep it.
    public static func iso(_ instant: Instant) -> String {
        let text = instant.iso
        let millis = Int((instant.milliseconds % 1000 + 1000) % 1000)
        guard millis != 0, text.hasSuffix("Z") else { return text }
        let digits = String(millis)
        return String(text.dropLast()) + "." + String(repeating: "0", count: 3 - digits.count) + digits + "Z"
    }
}
