/// The server's answer to one push, `{"applied": [mutationId…], "rejected": [{"mutationId",
/// "reason"}]}`, and what it means for the entries that request sent.
///
/// The rules, each chosen so that nothing is lost and nothing is applied twice:
/// - an id in `applied` leaves the outbox; an id in `rejected` leaves it and its local change is
///   undone;
/// - an id the request sent that the answer does not name stays pending (the server may not have
///   seen it);
/// - an id the answer names that the request did not send is ignored (another request's, or the
///   server's mistake: acting on it could drop an entry never delivered);
/// - an answer naming one id both applied and rejected is malformed as a whole: the core cannot
///   tell whether the server kept the change, so it keeps every entry pending and resends them;
///   a server that records ids answers the resend consistently.
/// - an answer that is not an object with those two arrays (or whose members have the wrong
///   type) is malformed; a malformed answer, like a network failure, leaves everything pending.
///
/// The answer's text is read in CarFitIO (`PushAnswer(answer:)`), which refuses the malformed
/// ones.
public struct PushAnswer: Sendable, Equatable {
    public var applied: [String]
    public var rejected: [Rejected]

    /// One rejected id and the server's reason.
    public struct Rejected: Sendable, Equatable {
        public var mutationId: String
        public var reason: String

        public init(mutationId: String, reason: String) {
            self.mutationId = mutationId
            self.reason = reason
        }
    }

    /// The reason recorded when a rejection comes without one.
    public static let defaultReason = "The server rejected the change without a reason."

    public init(applied: [String], rejected: [Rejected]) {
        self.applied = applied
        self.rejected = rejected
    }

    /// What the answer does to the entries a request sent (`sent`, in request order).
    public func outcome(sent: [String]) -> PushOutcome {
        let appliedSet = Set(applied)
        var reasons: [String: String] = [:]
        for r in rejected where reasons[r.mutationId] == nil { reasons[r.mutationId] = r.reason }
        var outcome = PushOutcome()
        var seen = Set<String>()
        for id in sent where seen.insert(id).inserted {
            if appliedSet.contains(id) {
                outcome.applied.append(id)
            } else if let reason = reasons[id] {
                outcome.rejected.append(Rejected(mutationId: id, reason: reason))
            } else {
                outcome.pending.append(id)
            }
        }
        return outcome
    }
}
