/// The washer's own facts of one visit occurrence: when it was last started (the last change to
/// InProgress; an undone start clears it), finished (Done) and rejected (Rejected). They come
/// from the washer's state changes and autoStart arrivals, and no server answer or snapshot
/// changes them.
public struct VisitFacts: Sendable, Equatable {
    public var startedAt: Instant?
    public var finishedAt: Instant?
    public var rejectedAt: Instant?

    public init(startedAt: Instant? = nil, finishedAt: Instant? = nil, rejectedAt: Instant? = nil) {
        self.startedAt = startedAt
        self.finishedAt = finishedAt
        self.rejectedAt = rejectedAt
    }

    /// The facts after the washer's change to `state` at `at`.
    public mutating func record(_ state: VisitState, at: Instant) {
        switch state {
        case .inProgress: startedAt = at
        case .todo: startedAt = nil
        case .done: finishedAt = at
        case .rejected: rejectedAt = at
        }
    }
}

/// One finished occurrence as the durations read it: its start and finish, and its planned tasks.
public struct FinishedVisit: Sendable, Equatable {
    public var key: String
    public var startedAt: Instant
    public var finishedAt: Instant
    public var tasks: [PlannedTask]

    public init(key: String, startedAt: Instant, finishedAt: Instant, tasks: [PlannedTask]) {
        self.key = key
        self.startedAt = startedAt
        self.finishedAt = finishedAt
        self.tasks = tasks
    }
}
