/// A change of the washer's the update server rejected, shown on its visit's card until the
/// washer acknowledges it: the rejected change (its id, the state the washer set, when, the
/// time used it recorded) and the server's reason. A visit keeps the change rejected last.
public struct VisitConflict: Sendable, Equatable {
    public var mutationId: String
    public var state: String
    public var reason: String
    public var at: Instant
    public var timeUsedMinutes: Int?

    public init(mutationId: String, state: String, reason: String, at: Instant, timeUsedMinutes: Int? = nil) {
        self.mutationId = mutationId
        self.state = state
        self.reason = reason
        self.at = at
        self.timeUsedMinutes = timeUsedMinutes
    }
}

/// What the outbox adds to a card: whether the visit is one a stored snapshot no longer lists
/// (kept on its day while it has work), and its unacknowledged conflict.
public struct CardOutbox: Sendable, Equatable {
    public var removed: Bool
    public var conflict: VisitConflict?

    public init(removed: Bool = false, conflict: VisitConflict? = nil) {
        self.removed = removed
        self.conflict = conflict
    }
}
