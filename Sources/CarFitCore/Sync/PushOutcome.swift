/// The entries of one push request sorted by what the answer said, each list in request order.
public struct PushOutcome: Sendable, Equatable {
    /// Leave the outbox; their local change stays shown until the next snapshot is stored.
    public var applied: [String] = []
    /// Leave the outbox; their local change is undone and they are listed in the status.
    public var rejected: [PushAnswer.Rejected] = []
    /// Not named by the answer: stay pending for the next push.
    public var pending: [String] = []

    public init(applied: [String] = [], rejected: [PushAnswer.Rejected] = [], pending: [String] = []) {
        self.applied = applied
        self.rejected = rejected
        self.pending = pending
    }
}
