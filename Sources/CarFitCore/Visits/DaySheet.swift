/// One day of cards as the CarFit list shows them, with distances and the day's summary.
public struct DaySheet: Sendable {
    public struct Card: Sendable {
        public var visit: Visit
        /// Geodesic metres from the previous card of the day, rounded; nil for the first card or
        /// when either end has no coordinates.
        public var distanceMeters: Int?
    }

    public var date: CivilDate
    public var cards: [Card]

    /// `visits` must already be the day's visits in start-time order (ties in snapshot order).
    public init(date: CivilDate, visits: [Visit]) {
        self.date = date
        var cards: [Card] = []
        cards.reserveCapacity(visits.count)
        var previous: Visit?
        for visit in visits {
            cards.append(Card(visit: visit, distanceMeters: DaySheet.legMeters(from: previous?.coordinate, to: visit.coordinate)))
            previous = visit
        }
        self.cards = cards
    }

    /// A card's distance: geodesic metres from the previous card's position, rounded; nil for
    /// the first card or when either end has no position.
    public static func legMeters(from a: (latitude: Double, longitude: Double)?,
                                 to b: (latitude: Double, longitude: Double)?) -> Int? {
        guard let a, let b else { return nil }
        return Geodesic.roundedDistance(latitude1: a.latitude, longitude1: a.longitude,
                                        latitude2: b.latitude, longitude2: b.longitude)
    }

    public var summary: Summary {
        var summary = Summary()
        for card in cards { summary.add(taskMinutes: card.visit.taskMinutes, distanceMeters: card.distanceMeters) }
        return summary
    }

    public func json(clock: Clock, hour24: Bool) -> JSON {
        .obj([
            "date": .string(date.description),
            "visits": .array(cards.map { $0.json(clock: clock, hour24: hour24) }),
            "summary": summary.json,
        ])
    }

    /// Counts and sums over cards; `distanceKm` is metres / 1000 rounded to one decimal.
    public struct Summary: Sendable, Equatable {
        public var visits = 0
        public var taskMinutes = 0
        public var distanceMeters = 0

        public init(visits: Int = 0, taskMinutes: Int = 0, distanceMeters: Int = 0) {
            self.visits = visits
            self.taskMinutes = taskMinutes
            self.distanceMeters = distanceMeters
        }

        /// Counts one more card. Sums saturate instead of trapping: imports bound each visit's
        /// minutes, but a database file written by other software could hold anything.
        public mutating func add(taskMinutes: Int, distanceMeters: Int?) {
            visits = Summary.sum(visits, 1)
            self.taskMinutes = Summary.sum(self.taskMinutes, taskMinutes)
            self.distanceMeters = Summary.sum(self.distanceMeters, distanceMeters ?? 0)
        }

        public static func + (a: Summary, b: Summary) -> Summary {
            Summary(visits: sum(a.visits, b.visits), taskMinutes: sum(a.taskMinutes, b.taskMinutes),
                    distanceMeters: sum(a.distanceMeters, b.distanceMeters))
        }

        static func sum(_ a: Int, _ b: Int) -> Int {
            let (s, overflow) = a.addingReportingOverflow(b)
            guard overflow else { return s }
            return b > 0 ? Int.max : Int.min
        }

        public var json: JSON {
            .obj(["visits": .int(Int64(visits)), "taskMinutes": .int(Int64(taskMinutes)),
                  "distanceMeters": .int(Int64(distanceMeters)), "distanceKm": .double(DaySheet.kilometres(distanceMeters))])
        }
    }

    /// Whole metres to kilometres with one decimal, rounding halves up (978 → 1.0, 3550 → 3.6).
    public static func kilometres(_ meters: Int) -> Double {
        let whole = meters / 100, rest = meters % 100
        let tenths = rest >= 50 ? whole + 1 : rest <= -50 ? whole - 1 : whole
        return Double(tenths) / 10
    }
}

extension DaySheet.Card {
    public func json(clock: Clock, hour24: Bool) -> JSON {
        let v = visit
        return .obj([
            "visitId": .str(v.visitId),
            "name": .string(v.name),
            "state": .str(v.state),
            "stateColor": .string(VisitState.color(of: v.state)),
            "startTime": .string(clock.timeText(v.start, hour24: hour24)),
            "startTimeUtc": .string(v.start.iso),
            "expectedTime": .str(v.expectedTime),
            "tasks": .string(v.tasks),
            "taskMinutes": .int(Int64(v.taskMinutes)),
            "address": .string(v.address),
            "phone": .str(v.phone),
            "latitude": .num(v.latitude),
            "longitude": .num(v.longitude),
            "employeeId": .str(v.employeeId),
            "distanceMeters": distanceMeters.map { .int(Int64($0)) } ?? .null,
            "distanceKm": distanceMeters.map { .double(DaySheet.kilometres($0)) } ?? .null,
        ])
    }
}
