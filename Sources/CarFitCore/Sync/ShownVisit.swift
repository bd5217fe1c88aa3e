/// What a card shows of a visit's state once the local changes are laid over the snapshot.
public struct ShownVisit: Sendable, Equatable {
    /// The state text (the card's spelling; nil when neither snapshot nor change gives one).
    public var state: String?
    /// True while a change of this visit waits in the outbox.
    public var pending: Bool
    /// The minutes recorded by the local Done change, else the snapshot's `visitTimeUsed`.
    public var timeUsedMinutes: Int?

    public init(state: String?, pending: Bool, timeUsedMinutes: Int?) {
        self.state = state
        self.pending = pending
        self.timeUsedMinutes = timeUsedMinutes
    }

    /// The card colour of `state`.
    public var color: String { VisitState.color(of: state) }
}
