import CarFitCore
import CarFitSystem
import CarFitStore

/// The washer on the road: each reported position kept on the trail when it says something new,
/// the arrivals and departures it decides, the position and the trail's status.
public struct LocationService {
    public let db: Database
    public let store: LocationStore
    public let clock: Clock
    public let config: RoadConfig
    /// Where an arrival that starts its visit records the change.
    public var outbox: OutboxService
    /// How long the washer's facts (an autoStart's start) are kept.
    public var report: ReportConfig {
        get { outbox.report }
        set { outbox.report = newValue }
    }

    public init(db: Database, clock: Clock, config: RoadConfig) {
        self.db = db
        store = LocationStore(db)
        outbox = OutboxService(db: db, clock: clock)
        self.clock = clock
        self.config = config
    }

    /// What a report did: whether it went on the trail, the visits arrived at and left, the
    /// position now known, and the arrivals and departures to publish once committed.
    public struct Reported {
        public var stored: Bool
        public var arrived: [VisitKey]
        public var departed: [VisitKey]
        public var position: LocationReport?
        public var arrivals: [(key: VisitKey, at: Instant)] = []
        public var departures: [(key: VisitKey, at: Instant)] = []
    }

    /// The position and the trail: the last counting report, the points stored and those not
    /// pushed yet, the last push.
    public struct Status: Equatable {
        public var position: LocationReport?
        public var stored: Int
        public var pending: Int
        public var lastPushAt: Instant?
    }

    /// Takes one report (`at` nil: now by the core's clock). One transaction: a refused report
    /// (`invalid`, field `at`, for one older than the newest accepted report) changes nothing.
    /// A report less accurate than `maxAccuracyMeters` is accepted and answered and changes
    /// nothing else.
    public func report(latitude: Double, longitude: Double, accuracyMeters: Double, at: Instant?) throws(CarFitError) -> Reported {
        let report = LocationReport(latitude: latitude, longitude: longitude, accuracyMeters: accuracyMeters, at: at ?? clock.now)
        let store = store
        let config = config
        let clock = clock
        let db = db
        let outbox = outbox
        return try db.transaction { () throws(CarFitError) -> Reported in
            var state = try store.state()
            if let newest = state.newest, report.at < newest {
                throw .invalid("at", "at (\(OutboxMutation.iso(report.at))) is older than the newest accepted report (\(OutboxMutation.iso(newest))): reports must come in order.")
            }
            state.newest = report.at
            guard config.counts(accuracyMeters: report.accuracyMeters) else {
                try store.save(state)
                return Reported(stored: false, arrived: [], departed: [], position: state.position)
            }
            state.position = report
            let lastStored = state.lastStored
            let stored = TrailRule.stores(report, after: lastStored, config: config)
            if stored {
                var random = KernelRandom()
                try store.append(LocationStore.Point(id: UUIDv4.make(using: &random), report: report))
                state.lastStored = TrailRule.Point(latitude: report.latitude, longitude: report.longitude, at: report.at)
            }
            let step = try LocationService.arrivals(report, db: db, store: store, outbox: outbox, clock: clock, config: config)
            try store.save(state)
            var reported = Reported(stored: stored, arrived: step.arrived.map { [$0] } ?? [], departed: step.departed,
                                    position: report)
            reported.arrivals = step.arrived.map { [($0, report.at)] } ?? []
            reported.departures = step.departed.map { ($0, report.at) }
            return reported
        }
    }

    /// Runs the arrival rule over today's visits with coordinates and the visits arrived at and
    /// not yet left, and writes what it decided (inside the caller's transaction).
    static func arrivals(_ report: LocationReport, db: Database, store: LocationStore, outbox: OutboxService, clock: Clock,
                         config: RoadConfig) throws(CarFitError) -> ArrivalRule.Step {
        let stored = VisitStore(db)
        var todays: [Visit] = []
        var arrivals: [VisitKey: VisitArrival] = [:]
        if let today = clock.today {
            let range = clock.dayRange(for: today)
            todays = try outbox.shown(try stored.visits(startingIn: range).filter { clock.localDate($0.start) == today },
                                      startingIn: range)
            arrivals = try store.arrivals(startingIn: clock.dayRange(for: today))
        }
        let dwell = try store.dwell()
        var visits: [ArrivalRule.Visit] = []
        var seen = Set<VisitKey>()
        for visit in todays {
            guard let c = visit.coordinate else { continue }
            let key = VisitKey(visitId: visit.visitId, start: visit.start, repetition: visit.repetition)
            guard seen.insert(key).inserted else { continue }
            let arrival = arrivals[key]
            visits.append(ArrivalRule.Visit(
                key: key, latitude: c.latitude, longitude: c.longitude,
                isCandidate: arrival == nil && visit.state.flatMap(VisitState.init(source:)) == .todo,
                insideSince: arrival == nil ? dwell[key.text] : nil,
                arrivedAt: arrival?.arrivedAt, departedAt: arrival?.departedAt))
        }
        for (key, arrival) in try store.openArrivals() where !seen.contains(key) {
            guard let visit = try stored.visit(key), let c = visit.coordinate else { continue }
            seen.insert(key)
            visits.append(ArrivalRule.Visit(key: key, latitude: c.latitude, longitude: c.longitude, isCandidate: false,
                                            arrivedAt: arrival.arrivedAt, departedAt: nil))
        }
        let step = ArrivalRule.step(report, visits: visits, config: config)
        var kept = Set<String>()
        for visit in step.visits {
            let text = visit.key.text
            if visit.insideSince != nil { kept.insert(text) }
            if visit.insideSince != dwell[text] { try store.setDwell(text, since: visit.insideSince) }
        }
        for text in dwell.keys where !kept.contains(text) && !step.visits.contains(where: { $0.key.text == text }) {
            try store.setDwell(text, since: nil)
        }
        for key in step.departed { try store.recordDeparture(key, at: report.at) }
        if let key = step.arrived {
            try store.recordArrival(key, at: report.at)
            if config.autoStart { try outbox.startOnArrival(key, at: report.at) }
        }
        return step
    }

    /// The position and the trail's counts.
    public func status() throws(CarFitError) -> Status {
        let state = try store.state()
        let counts = try store.counts()
        return Status(position: state.position, stored: counts.stored, pending: counts.pending, lastPushAt: state.lastPushAt)
    }
}
