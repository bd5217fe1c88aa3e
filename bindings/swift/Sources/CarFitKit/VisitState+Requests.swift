extension VisitsSetStateRequest {
    /// The request that moves the visit of the card `key` to `state` (`reason`: why it is
    /// rejected, kept for `.rejected` only). The card's `nextStates` say which states its present
    /// one accepts; another fails as `conflict`.
    public init(key: String, state: VisitState, reason: String? = nil) {
        self.init(key: key, state: state.rawValue, reason: reason)
    }
}
