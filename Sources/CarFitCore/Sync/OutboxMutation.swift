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

    /// `{"mutationId", "visitId", "startTimeUtc", "state", "at", "timeUsedMinutes", "reason"}`
    /// as the push body carries it; instants as `"2020-09-10T08:05:00Z"`.
    public var json: JSON {
        .obj([
            "mutationId": .string(mutationId),
            "visitId": .str(visitId),
            "startTimeUtc": .string(start.iso),
            "state": .string(state.rawValue),
            "at": .string(at.iso),
            "timeUsedMinutes": .int(timeUsedMinutes),
            "reason": .str(reason),
        ])
    }
}
