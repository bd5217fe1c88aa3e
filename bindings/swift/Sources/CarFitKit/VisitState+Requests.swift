extension VisitsSetStateRequest {
    /// The request that moves the visit of the card `key` to `state` (`reason`: why it is
    /// rejected, kept for `.rejected` only). The card's `nextStates` say which states its present
    /// one accepts; another fails as `conflict`. (`VisitsSetStateRequest(key:state:reason:)` with
    /// a literal such as `.done` takes the request's own `State`; this one takes a `VisitState`
    /// value, a card's `nextStates` element.)
    @_disfavoredOverload
    public init(key: String, state: VisitState, reason: String? = nil) {
        self.init(key: key, state: State(state), reason: reason)
    }
}

extension VisitsSetStateRequest.State {
    /// The request's state of the visit state `state`.
    public init(_ state: VisitState) {
        switch state {
        case .todo: self = .todo
        case .inProgress: self = .inProgress
        case .done: self = .done
        case .rejected: self = .rejected
        }
    }
}

extension VisitState {
    /// The visit state a set-state request's `state` names.
    public init(_ state: VisitsSetStateRequest.State) {
        switch state {
        case .todo: self = .todo
        case .inProgress: self = .inProgress
        case .done: self = .done
        case .rejected: self = .rejected
        }
    }
}
