/// The washer's state changes: which state a visit may move to from the one it shows.
///
/// Allowed: Todo → InProgress, InProgress → Done, Todo or InProgress → Rejected, and
/// InProgress → Todo (a start undone). Everything else, a change to the state the visit already
/// has included, is refused. The present state is read with `VisitState(source:)`, so a
/// source's spelling ("ToDo") counts as the state it names; a state the card does not know
/// ("Cancelled") or none allows no change.
public enum VisitTransition {
    /// The state a request asks for: one of the four canonical names exactly (`"InProgress"`,
    /// not `"in progress"`), since a host sends what the header documents.
    public static func requested(_ text: String, field: String = "state") throws(CarFitError) -> VisitState {
        guard let state = VisitState(rawValue: text) else {
            throw .invalid(field, "\(field) must be one of \"Todo\", \"InProgress\", \"Done\", \"Rejected\".")
        }
        return state
    }

    /// Whether a visit in state `current` may become `target` (`next(from:)`, generated from
    /// the schema's state machine).
    public static func allows(from current: VisitState?, to target: VisitState) -> Bool {
        next(from: current).contains(target)
    }

    /// Checks a change of a visit whose shown state is `current` (stored text, nil: none);
    /// throws `conflict` naming both states when the rules refuse it.
    public static func check(from current: String?, to target: VisitState) throws(CarFitError) {
        let known = current.flatMap(VisitState.init(source:))
        guard allows(from: known, to: target) else {
            throw CarFitError(.conflict, refusal(from: current, to: target), field: "state")
        }
    }

    /// "A visit in state Done cannot become InProgress." (the present state in the card's
    /// spelling; "A visit without a state …" when it has none).
    public static func refusal(from current: String?, to target: VisitState) -> String {
        guard let shown = VisitState.display(current), !shown.isEmpty else {
            return "A visit without a state cannot become \(target.rawValue)."
        }
        return "A visit in state \(shown.prefix(60)) cannot become \(target.rawValue)."
    }
}
