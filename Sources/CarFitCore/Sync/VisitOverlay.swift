/// The local changes of one visit, laid over whatever snapshot is stored: the card shows the
/// snapshot's state until the washer changes it, then the local state until the server has
/// applied the change and a newer snapshot has been stored.
///
/// Changes are kept oldest first, pending or applied. A snapshot being stored drops the applied
/// changes that come before every pending one (the snapshot now says what they said); pending
/// changes, and applied ones after a pending one, stay, so a snapshot never overwrites work that
/// has not reached the server. A rejected change is removed: the card falls back to the changes
/// before it, or to the snapshot.
///
/// `baseStartedAt` carries the instant of the start (the change to InProgress) across the
/// changes a snapshot dropped, so a visit started, synced and refreshed still records the time
/// used when it is finished.
public struct VisitOverlay: Sendable, Equatable {
    public var baseStartedAt: Instant?
    public var changes: [LocalChange]

    public init(baseStartedAt: Instant? = nil, changes: [LocalChange] = []) {
        self.baseStartedAt = baseStartedAt
        self.changes = changes
    }

    /// Nothing left to remember: the store may forget this visit's overlay.
    public var isEmpty: Bool { baseStartedAt == nil && changes.isEmpty }

    /// True while a change waits in the outbox.
    public var isPending: Bool { changes.contains { $0.status == .pending } }

    /// The instant of the start the next Done change measures from, or nil when no start is
    /// recorded (never started here, or the start was undone or rejected).
    public var startedAt: Instant? { VisitOverlay.startedAt(from: baseStartedAt, through: changes[...]) }

    static func startedAt(from base: Instant?, through changes: ArraySlice<LocalChange>) -> Instant? {
        var started = base
        for change in changes {
            switch change.state {
            case .inProgress: started = change.at
            case .todo, .rejected: started = nil
            case .done: break
            }
        }
        return started
    }

    /// The card's state, pending mark and time used over a snapshot record's state and
    /// `visitTimeUsed`.
    public func shown(snapshotState: String?, snapshotTimeUsed: Int?) -> ShownVisit {
        guard let last = changes.last else {
            return ShownVisit(state: VisitState.display(snapshotState), pending: false, timeUsedMinutes: snapshotTimeUsed)
        }
        let used = last.state == .done ? (last.timeUsedMinutes ?? snapshotTimeUsed) : snapshotTimeUsed
        return ShownVisit(state: last.state.rawValue, pending: isPending, timeUsedMinutes: used)
    }

    /// Records the washer's change to `state` at `at` (the core's clock) after checking it
    /// against the state shown now; a Done change gets its time used from the recorded start.
    /// Answers the change, which the caller writes to the outbox in the same transaction.
    /// Throws `conflict` for a change the rules refuse, and changes nothing then.
    @discardableResult
    public mutating func record(_ state: VisitState, at: Instant, mutationId: String, reason: String?,
                                snapshotState: String?, snapshotTimeUsed: Int?) throws(CarFitError) -> LocalChange {
        let current = shown(snapshotState: snapshotState, snapshotTimeUsed: snapshotTimeUsed).state
        try VisitTransition.check(from: current, to: state)
        let used = state == .done ? TimeUsed.minutes(from: startedAt, to: at) : nil
        let change = LocalChange(mutationId: mutationId, state: state, at: at, timeUsedMinutes: used,
                                 reason: state == .rejected ? reason : nil, status: .pending)
        changes.append(change)
        return change
    }

    /// The server applied `mutationId`; false when this overlay has no such change.
    @discardableResult
    public mutating func markApplied(_ mutationId: String) -> Bool {
        guard let i = changes.firstIndex(where: { $0.mutationId == mutationId }) else { return false }
        changes[i].status = .applied
        return true
    }

    /// The server rejected `mutationId`: its change is undone (removed); false when this overlay
    /// has no such change.
    @discardableResult
    public mutating func undo(_ mutationId: String) -> Bool {
        guard let i = changes.firstIndex(where: { $0.mutationId == mutationId }) else { return false }
        changes.remove(at: i)
        return true
    }

    /// A new snapshot was stored, whose record of this visit has `snapshotState` (nil: the
    /// snapshot does not list the visit or gives no state). Applied changes before every pending
    /// one leave; the start they recorded is kept while the snapshot still shows the visit in
    /// progress.
    public mutating func snapshotStored(snapshotState: String?) {
        let prefix = changes.prefix { $0.status == .applied }
        baseStartedAt = VisitOverlay.startedAt(from: baseStartedAt, through: prefix)
        changes.removeFirst(prefix.count)
        if changes.isEmpty, snapshotState.flatMap(VisitState.init(source:)) != .inProgress {
            baseStartedAt = nil
        }
    }
}
