/// Arrivals and departures decided from counting reports, as a pure step: given one counting
/// report and what is known of the visits it may concern, which visit the washer arrived at,
/// which they left, and how each visit's run of reports within its radius stands now.
///
/// A visit is arrived at when counting reports within `arrivalRadiusMeters` of it span at
/// least `dwellSeconds` with no counting report outside the radius between them (`insideSince`
/// is the first report of the current run). Only candidates arrive: today's visits in state
/// Todo with no arrival yet. One arrival per report: of several that qualify the earliest start
/// wins, then the smaller key by code points; the others keep their run and may arrive on a
/// later report. After an arrival, the first counting report farther than twice the radius is
/// the departure.
public enum ArrivalRule {
    /// One visit as the rule sees it.
    public struct Visit: Sendable, Equatable {
        public var key: VisitKey
        public var latitude: Double
        public var longitude: Double
        /// Today's visit in state Todo (as the card shows it): it may arrive.
        public var isCandidate: Bool
        /// The first report of the current run within the radius, nil when outside.
        public var insideSince: Instant?
        public var arrivedAt: Instant?
        public var departedAt: Instant?

        public init(key: VisitKey, latitude: Double, longitude: Double, isCandidate: Bool,
                    insideSince: Instant? = nil, arrivedAt: Instant? = nil, departedAt: Instant? = nil) {
            self.key = key
            self.latitude = latitude
            self.longitude = longitude
            self.isCandidate = isCandidate
            self.insideSince = insideSince
            self.arrivedAt = arrivedAt
            self.departedAt = departedAt
        }
    }

    /// What one report did.
    public struct Step: Sendable, Equatable {
        /// The visit arrived at, with the report's instant as `arrivedAt`.
        public var arrived: VisitKey?
        /// The visits left, in the order given.
        public var departed: [VisitKey] = []
        /// The visits after the report (same order as given).
        public var visits: [Visit] = []
    }

    /// Applies the counting report `report` to `visits`.
    public static func step(_ report: LocationReport, visits: [Visit], config: RoadConfig) -> Step {
        var step = Step()
        step.visits = visits
        let dwell = config.dwellSeconds * 1000
        var best: Int?
        for i in step.visits.indices {
            var visit = step.visits[i]
            let metres = Geo.distance(report.latitude, report.longitude, visit.latitude, visit.longitude)
            if visit.arrivedAt != nil {
                if visit.departedAt == nil, let metres, metres > 2 * config.arrivalRadiusMeters {
                    visit.departedAt = report.at
                    step.departed.append(visit.key)
                }
                visit.insideSince = nil
            } else if let metres, metres <= config.arrivalRadiusMeters {
                let since = visit.insideSince ?? report.at
                visit.insideSince = since
                if visit.isCandidate, report.at.milliseconds - since.milliseconds >= dwell {
                    if let b = best {
                        if precedes(visit, step.visits[b]) { best = i }
                    } else {
                        best = i
                    }
                }
            } else {
                visit.insideSince = nil
            }
            step.visits[i] = visit
        }
        if let b = best {
            step.visits[b].arrivedAt = report.at
            step.visits[b].insideSince = nil
            step.arrived = step.visits[b].key
        }
        return step
    }

    /// The earlier start first, then the smaller key text by code points.
    static func precedes(_ a: Visit, _ b: Visit) -> Bool {
        if a.key.start != b.key.start { return a.key.start < b.key.start }
        return a.key.text.utf8.lexicographicallyPrecedes(b.key.text.utf8)
    }
}

/// The card's `suggestion`: what the washer probably wants to do next at a visit.
public enum RoadSuggestion {
    /// `"start"` when arrived, not departed and Todo; `"finish"` when departed and InProgress;
    /// otherwise nil.
    public static func of(arrivedAt: Instant?, departedAt: Instant?, state: VisitState?) -> String? {
        guard arrivedAt != nil else { return nil }
        if departedAt == nil, state == .todo { return "start" }
        if departedAt != nil, state == .inProgress { return "finish" }
        return nil
    }
}

/// A visit's arrival and departure as stored and shown on its card.
public struct VisitArrival: Sendable, Equatable {
    public var arrivedAt: Instant
    public var departedAt: Instant?

    public init(arrivedAt: Instant, departedAt: Instant? = nil) {
        self.arrivedAt = arrivedAt
        self.departedAt = departedAt
    }
}
