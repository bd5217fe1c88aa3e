/// One state change the washer made on this device, as the overlay of its visit keeps it.
public struct LocalChange: Sendable, Equatable {
    /// Where the change is on its way to the server.
    public enum Status: String, Sendable {
        /// In the outbox: not yet confirmed by the server.
        case pending
        /// Confirmed by the server; shown until the next snapshot is stored.
        case applied
    }

    public var mutationId: String
    public var state: VisitState
    public var at: Instant
    public var timeUsedMinutes: Int?
    public var reason: String?
    public var status: Status

    public init(mutationId: String, state: VisitState, at: Instant, timeUsedMinutes: Int? = nil,
                reason: String? = nil, status: Status = .pending) {
        self.mutationId = mutationId
        self.state = state
        self.at = at
        self.timeUsedMinutes = timeUsedMinutes
        self.reason = reason
        self.status = status
    }
}
