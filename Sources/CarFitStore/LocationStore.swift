import CarFitCore

/// The washer on the road as stored: the trail (`road_points`, oldest first, each point with
/// its id and whether the planner applied it: the location outbox), each visit's arrival and
/// departure (`road_arrivals`), the run of reports within each open visit's radius
/// (`road_dwell`), and the last position with the push's bookkeeping (`road_state`).
public struct LocationStore {
    let db: Database

    public init(_ db: Database) { self.db = db }

    /// The singleton row: the newest accepted report, the position, the last stored point, the
    /// last successful location push.
    public struct State: Sendable, Equatable {
        public var newest: Instant?
        public var position: LocationReport?
        public var lastStored: TrailRule.Point?
        public var lastPushAt: Instant?

        public init(newest: Instant? = nil, position: LocationReport? = nil, lastStored: TrailRule.Point? = nil,
                    lastPushAt: Instant? = nil) {
            self.newest = newest
            self.position = position
            self.lastStored = lastStored
            self.lastPushAt = lastPushAt
        }
    }

    /// One stored point of the trail.
    public struct Point: Sendable, Equatable {
        public var id: String
        public var report: LocationReport

        public init(id: String, report: LocationReport) {
            self.id = id
            self.report = report
        }
    }

    public func state() throws(CarFitError) -> State {
        let s = try db.statement("""
            SELECT newest_ms, latitude, longitude, accuracy, at_ms, stored_latitude, stored_longitude, stored_ms,
                   last_push_ms FROM road_state WHERE id = 1
            """)
        defer { s.reset() }
        guard try s.step() else { throw CarFitError(.storage, "The database has no road state row.") }
        var state = State()
        state.newest = s.int(0).map(Instant.init(milliseconds:))
        if let lat = s.double(1), let lon = s.double(2), let accuracy = s.double(3), let at = s.int(4) {
            state.position = LocationReport(latitude: lat, longitude: lon, accuracyMeters: accuracy,
                                            at: Instant(milliseconds: at))
        }
        if let lat = s.double(5), let lon = s.double(6), let at = s.int(7) {
            state.lastStored = TrailRule.Point(latitude: lat, longitude: lon, at: Instant(milliseconds: at))
        }
        state.lastPushAt = s.int(8).map(Instant.init(milliseconds:))
        return state
    }

    /// Writes the report bookkeeping (newest, position, last stored point).
    public func save(_ state: State) throws(CarFitError) {
        func ms(_ i: Instant?) -> SQLValue { i.map { .int($0.milliseconds) } ?? .null }
        func real(_ d: Double?) -> SQLValue { d.map(SQLValue.double) ?? .null }
        try db.run("""
            UPDATE road_state SET newest_ms = ?1, latitude = ?2, longitude = ?3, accuracy = ?4, at_ms = ?5,
                                  stored_latitude = ?6, stored_longitude = ?7, stored_ms = ?8 WHERE id = 1
            """, [ms(state.newest), real(state.position?.latitude), real(state.position?.longitude),
                  real(state.position?.accuracyMeters), ms(state.position?.at), real(state.lastStored?.latitude),
                  real(state.lastStored?.longitude), ms(state.lastStored?.at)])
    }

    /// Records a successful location push at `at`.
    public func pushed(at: Instant) throws(CarFitError) {
        try db.run("UPDATE road_state SET last_push_ms = ?1 WHERE id = 1", [.int(at.milliseconds)])
    }

    // MARK: The trail

    /// Adds a point to the trail (and the location outbox).
    public func append(_ point: Point) throws(CarFitError) {
        try db.run("""
            INSERT INTO road_points (id, latitude, longitude, accuracy, at_ms, pushed) VALUES (?1, ?2, ?3, ?4, ?5, 0)
            """, [.text(point.id), .double(point.report.latitude), .double(point.report.longitude),
                  .double(point.report.accuracyMeters), .int(point.report.at.milliseconds)])
    }

    /// The oldest `limit` points not yet applied by the planner, oldest first.
    public func pending(limit: Int) throws(CarFitError) -> [Point] {
        let s = try db.statement("""
            SELECT id, latitude, longitude, accuracy, at_ms FROM road_points WHERE pushed = 0 ORDER BY seq LIMIT ?1
            """)
        defer { s.reset() }
        try s.bind(1, Int64(max(0, limit)))
        var out: [Point] = []
        while try s.step() {
            guard let id = s.text(0), let lat = s.double(1), let lon = s.double(2), let accuracy = s.double(3),
                  let at = s.int(4) else { continue }
            out.append(Point(id: id, report: LocationReport(latitude: lat, longitude: lon, accuracyMeters: accuracy,
                                                            at: Instant(milliseconds: at))))
        }
        return out
    }

    /// Marks the points of these ids applied (ids not pending change nothing); answers how many.
    public func markPushed(_ ids: [String]) throws(CarFitError) -> Int {
        var count = 0
        for id in ids {
            let rows = try db.query("UPDATE road_points SET pushed = 1 WHERE id = ?1 AND pushed = 0 RETURNING 1", [.text(id)])
            count += rows.count
        }
        return count
    }

    /// Removes applied points older than `before`.
    public func removePushed(before: Instant) throws(CarFitError) {
        try db.run("DELETE FROM road_points WHERE pushed = 1 AND at_ms < ?1", [.int(before.milliseconds)])
    }

    /// How many points are stored, and how many of them wait for the planner.
    public func counts() throws(CarFitError) -> (stored: Int, pending: Int) {
        let rows = try db.query("SELECT count(*), coalesce(sum(pushed = 0), 0) FROM road_points")
        guard let row = rows.first, row.count == 2, case .int(let stored) = row[0], case .int(let pending) = row[1] else {
            return (0, 0)
        }
        return (Int(clamping: stored), Int(clamping: pending))
    }

    // MARK: Arrivals

    /// The arrivals of visits starting in `range` (ms since the epoch), by key.
    public func arrivals(startingIn range: Range<Int64>) throws(CarFitError) -> [VisitKey: VisitArrival] {
        let s = try db.statement("""
            SELECT visit_key, arrived_ms, departed_ms FROM road_arrivals WHERE start_ms >= ?1 AND start_ms < ?2
            """)
        defer { s.reset() }
        try s.bind(1, range.lowerBound)
        try s.bind(2, range.upperBound)
        return try Self.arrivals(s)
    }

    /// The arrivals not yet followed by a departure, by key.
    public func openArrivals() throws(CarFitError) -> [VisitKey: VisitArrival] {
        let s = try db.statement("SELECT visit_key, arrived_ms, departed_ms FROM road_arrivals WHERE departed_ms IS NULL")
        defer { s.reset() }
        return try Self.arrivals(s)
    }

    private static func arrivals(_ s: Statement) throws(CarFitError) -> [VisitKey: VisitArrival] {
        var out: [VisitKey: VisitArrival] = [:]
        while try s.step() {
            guard let text = s.text(0), let key = VisitKey(text: text), let arrived = s.int(1) else { continue }
            out[key] = VisitArrival(arrivedAt: Instant(milliseconds: arrived),
                                    departedAt: s.int(2).map(Instant.init(milliseconds:)))
        }
        return out
    }

    public func recordArrival(_ key: VisitKey, at: Instant) throws(CarFitError) {
        try db.run("INSERT OR IGNORE INTO road_arrivals (visit_key, start_ms, arrived_ms) VALUES (?1, ?2, ?3)",
                   [.text(key.text), .int(key.start.milliseconds), .int(at.milliseconds)])
    }

    public func recordDeparture(_ key: VisitKey, at: Instant) throws(CarFitError) {
        try db.run("UPDATE road_arrivals SET departed_ms = ?2 WHERE visit_key = ?1 AND departed_ms IS NULL",
                   [.text(key.text), .int(at.milliseconds)])
    }

    // MARK: Runs within a radius

    /// Each visit's first report of its current run within the radius, by key text.
    public func dwell() throws(CarFitError) -> [String: Instant] {
        let s = try db.statement("SELECT visit_key, inside_since_ms FROM road_dwell")
        defer { s.reset() }
        var out: [String: Instant] = [:]
        while try s.step() {
            guard let key = s.text(0), let since = s.int(1) else { continue }
            out[key] = Instant(milliseconds: since)
        }
        return out
    }

    /// Sets (or, with nil, forgets) a visit's run.
    public func setDwell(_ keyText: String, since: Instant?) throws(CarFitError) {
        if let since {
            try db.run("INSERT OR REPLACE INTO road_dwell (visit_key, inside_since_ms) VALUES (?1, ?2)",
                       [.text(keyText), .int(since.milliseconds)])
        } else {
            try db.run("DELETE FROM road_dwell WHERE visit_key = ?1", [.text(keyText)])
        }
    }
}
