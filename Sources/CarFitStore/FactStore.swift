import CarFitCore

/// The washer's facts of each visit occurrence (`visit_facts`) with the occurrence's planned
/// tasks (`visit_fact_tasks`): written with each state change the washer makes, read by the
/// time reports. The outbox, the server's answers and the snapshots never touch them; a fact
/// row goes only once its visit started more than `keepDays` days before the core's clock.
public struct FactStore {
    let db: Database

    public init(_ db: Database) { self.db = db }

    /// Milliseconds in a day.
    static let dayMs: Int64 = 86_400_000

    /// Records the washer's change of `key` to `state` at `at` (inside the caller's
    /// transaction), with the visit's planned tasks as they are now, and forgets the facts of
    /// visits that started more than `keepDays` days before `now`.
    public func record(_ key: VisitKey, _ state: VisitState, at: Instant, tasks: [PlannedTask],
                       keepDays: Int64, now: Instant) throws(CarFitError) {
        let text = key.text
        var facts = try self.facts(text) ?? VisitFacts()
        facts.record(state, at: at)
        func ms(_ i: Instant?) -> SQLValue { i.map { .int($0.milliseconds) } ?? .null }
        try db.run("""
            INSERT OR REPLACE INTO visit_facts (visit_key, start_ms, started_ms, finished_ms, rejected_ms)
            VALUES (?1, ?2, ?3, ?4, ?5)
            """, [.text(text), .int(key.start.milliseconds), ms(facts.startedAt), ms(facts.finishedAt), ms(facts.rejectedAt)])
        try db.run("DELETE FROM visit_fact_tasks WHERE visit_key = ?1", [.text(text)])
        for (i, task) in tasks.enumerated() {
            try db.run("INSERT INTO visit_fact_tasks (visit_key, position, title, minutes) VALUES (?1, ?2, ?3, ?4)",
                       [.text(text), .int(Int64(i)), .text(task.title), .int(Int64(task.minutes))])
        }
        try forget(before: FactStore.cutoff(keepDays: keepDays, now: now))
    }

    /// The earliest start whose facts are kept: `keepDays` days before `now`.
    public static func cutoff(keepDays: Int64, now: Instant) -> Int64 {
        let (span, o1) = keepDays.multipliedReportingOverflow(by: dayMs)
        let (cut, o2) = now.milliseconds.subtractingReportingOverflow(span)
        return o1 || o2 ? Int64.min : cut
    }

    /// Removes the facts of visits starting before `startMs`.
    func forget(before startMs: Int64) throws(CarFitError) {
        try db.run("""
            DELETE FROM visit_fact_tasks WHERE visit_key IN (SELECT visit_key FROM visit_facts WHERE start_ms < ?1)
            """, [.int(startMs)])
        try db.run("DELETE FROM visit_facts WHERE start_ms < ?1", [.int(startMs)])
    }

    /// The facts of one occurrence by its key text, nil when none is recorded.
    public func facts(_ keyText: String) throws(CarFitError) -> VisitFacts? {
        let s = try db.statement("SELECT started_ms, finished_ms, rejected_ms FROM visit_facts WHERE visit_key = ?1")
        defer { s.reset() }
        try s.bind(1, keyText)
        guard try s.step() else { return nil }
        return FactStore.facts(s, from: 0)
    }

    /// The facts of the visits starting in `range` (ms since the epoch), by key text.
    public func facts(startingIn range: Range<Int64>) throws(CarFitError) -> [String: VisitFacts] {
        let s = try db.statement("""
            SELECT started_ms, finished_ms, rejected_ms, visit_key FROM visit_facts WHERE start_ms >= ?1 AND start_ms < ?2
            """)
        defer { s.reset() }
        try s.bind(1, range.lowerBound)
        try s.bind(2, range.upperBound)
        var out: [String: VisitFacts] = [:]
        while try s.step() {
            guard let key = s.text(3) else { continue }
            out[key] = FactStore.facts(s, from: 0)
        }
        return out
    }

    private static func facts(_ s: Statement, from column: Int32) -> VisitFacts {
        VisitFacts(startedAt: s.int(column).map(Instant.init(milliseconds:)),
                   finishedAt: s.int(column + 1).map(Instant.init(milliseconds:)),
                   rejectedAt: s.int(column + 2).map(Instant.init(milliseconds:)))
    }

    /// Every occurrence starting at or after `startMs` with a start and a later finish, with its
    /// planned tasks in order.
    public func finished(since startMs: Int64) throws(CarFitError) -> [FinishedVisit] {
        let s = try db.statement("""
            SELECT f.visit_key, f.started_ms, f.finished_ms, t.title, t.minutes
            FROM visit_facts f LEFT JOIN visit_fact_tasks t ON t.visit_key = f.visit_key
            WHERE f.start_ms >= ?1 AND f.started_ms IS NOT NULL AND f.finished_ms > f.started_ms
            ORDER BY f.visit_key, t.position
            """)
        defer { s.reset() }
        try s.bind(1, startMs)
        var out: [FinishedVisit] = []
        while try s.step() {
            guard let key = s.text(0), let started = s.int(1), let finished = s.int(2) else { continue }
            if out.last?.key != key {
                out.append(FinishedVisit(key: key, startedAt: Instant(milliseconds: started),
                                         finishedAt: Instant(milliseconds: finished), tasks: []))
            }
            if let title = s.text(3), let minutes = s.int(4), let last = out.indices.last {
                out[last].tasks.append(PlannedTask(title: title, minutes: Int(clamping: minutes)))
            }
        }
        return out
    }
}
