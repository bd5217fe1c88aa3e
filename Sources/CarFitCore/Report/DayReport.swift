/// A day's time report (`report.day`): per card, the planned minutes against the washer's facts
/// (worked: start to finish) and the road's (on site: arrival to departure; late: start time to
/// arrival), and the day's totals. Minutes between two instants are whole minutes rounded to the
/// nearest, a half up (`TimeUsed.minutes`).
public struct DayReport: Sendable, Equatable {
    /// One card of the day with what is known of it.
    public struct Card: Sendable, Equatable {
        public var key: VisitKey
        public var visitId: String?
        public var name: String
        /// The state the card shows (pending changes included).
        public var state: String?
        public var plannedMinutes: Int
        public var facts: VisitFacts
        public var arrival: VisitArrival?

        public init(key: VisitKey, visitId: String?, name: String, state: String?, plannedMinutes: Int,
                    facts: VisitFacts = VisitFacts(), arrival: VisitArrival? = nil) {
            self.key = key
            self.visitId = visitId
            self.name = name
            self.state = state
            self.plannedMinutes = plannedMinutes
            self.facts = facts
            self.arrival = arrival
        }
    }

    /// One entry: the card and its minutes.
    public struct Entry: Sendable, Equatable {
        public var card: Card
        /// finishedAt − startedAt; nil unless both.
        public var workedMinutes: Int?
        /// departedAt − arrivedAt; nil unless both.
        public var onSiteMinutes: Int?
        /// arrivedAt − the visit's start, at least 0; nil without an arrival.
        public var lateMinutes: Int?
    }

    public struct Totals: Sendable, Equatable {
        /// Planned minutes of the cards not Rejected.
        public var plannedMinutes = 0
        public var workedMinutes = 0
        public var onSiteMinutes = 0
        /// Over the cards with an arrival in arrival order: each arrival minus the previous
        /// card's departure where both exist and the difference is positive, each rounded.
        public var driveMinutes = 0
        public var done = 0
        public var rejected = 0
        public var todo = 0
        public var inProgress = 0
    }

    public var date: CivilDate
    public var entries: [Entry]
    public var totals: Totals

    /// The report of `cards`, in card order.
    public init(date: CivilDate, cards: [Card]) {
        self.date = date
        var totals = Totals()
        entries = cards.map { card in
            var worked: Int?
            if let started = card.facts.startedAt, let finished = card.facts.finishedAt {
                worked = TimeUsed.minutes(from: started, to: finished)
            }
            var onSite: Int?
            var late: Int?
            if let arrival = card.arrival {
                late = TimeUsed.minutes(from: card.key.start, to: arrival.arrivedAt)
                if let departed = arrival.departedAt { onSite = TimeUsed.minutes(from: arrival.arrivedAt, to: departed) }
            }
            let state = card.state.flatMap(VisitState.init(source:))
            if state != .rejected { totals.plannedMinutes = totals.plannedMinutes &+ max(0, card.plannedMinutes) }
            totals.workedMinutes = totals.workedMinutes &+ (worked ?? 0)
            totals.onSiteMinutes = totals.onSiteMinutes &+ (onSite ?? 0)
            switch state {
            case .done?: totals.done += 1
            case .rejected?: totals.rejected += 1
            case .todo?: totals.todo += 1
            case .inProgress?: totals.inProgress += 1
            case nil: break
            }
            return Entry(card: card, workedMinutes: worked, onSiteMinutes: onSite, lateMinutes: late)
        }
        let arrived = cards.enumerated().compactMap { i, card in card.arrival.map { (i, $0) } }
            .sorted { $0.1.arrivedAt != $1.1.arrivedAt ? $0.1.arrivedAt < $1.1.arrivedAt : $0.0 < $1.0 }
        for (previous, next) in zip(arrived, arrived.dropFirst()) {
            guard let departed = previous.1.departedAt, departed < next.1.arrivedAt else { continue }
            totals.driveMinutes = totals.driveMinutes &+ (TimeUsed.minutes(from: departed, to: next.1.arrivedAt) ?? 0)
        }
        self.totals = totals
    }
}
