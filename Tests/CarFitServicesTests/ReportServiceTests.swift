import CarFitAPI
import CarFitCore
import CarFitHTTP
import CarFitIO
import CarFitNet
import CarFitServices
import CarFitStore
import XCTest

/// Time on the job: the washer's facts, the day's time report and the learned durations,
/// checked against oracles written here over seeded random days.
final class ReportServiceTests: XCTestCase {
    // MARK: Helpers

    static let minute: Int64 = 60_000
    /// 2020-09-10T00:00:00Z.
    static let day0: Int64 = 1_599_696_000_000

    static func iso(_ ms: Int64) -> String { OutboxMutation.iso(Instant(milliseconds: ms)) }

    /// A visits record as the planner writes it.
    static func record(id: String, startMs: Int64, state: String = "Todo", tasks: [(String, Int)] = [("Wash", 30)],
                       latitude: Double? = nil, longitude: Double? = nil, name: String = "Ann") -> String {
        let t = tasks.map { #"{"title": "\#($0.0)", "timesInMinutes": \#($0.1)}"# }.joined(separator: ", ")
        var r = #"{"visitId": "\#(id)", "startTimeUtc": "\#(iso(startMs))", "visitState": "\#(state)", "houseOwnerFirstName": "\#(name)", "houseOwnerAddress": "Street \#(id)", "tasks": [\#(t)]"#
        if let latitude, let longitude { r += #", "houseOwnerLatitude": \#(latitude), "houseOwnerLongitude": \#(longitude)"# }
        return r + "}"
    }

    static func document(_ records: [String]) -> String { #"{"data": ["# + records.joined(separator: ",\n") + "]}" }

    static func key(_ id: String, _ startMs: Int64) -> String { "\(id)|\(startMs)|0" }

    /// Sets the fixture's clock to `ms`.
    static func at(_ f: ServiceFixture, _ ms: Int64) throws {
        f.clock = try Clock(zoneName: "Europe/Copenhagen", fixedNow: Instant(milliseconds: ms), hour24: true)
    }

    static func set(_ f: ServiceFixture, _ key: String, _ state: VisitState, atMs: Int64) throws {
        try at(f, atMs)
        _ = try f.visits.setState(keyText: key, to: state, reason: nil)
    }

    /// Whole minutes of a span, the nearest, a half up (never below 0).
    static func minutes(_ ms: Int64) -> Int { ms <= 0 ? 0 : Int((ms + 30_000) / 60_000) }

    static func report(_ f: ServiceFixture, _ date: String = "2020-09-10") throws -> JSONObject {
        let json = try ReportAPI.day(ReportService(visits: f.visits), try ServiceFixture.fields(#"{"date": "\#(date)"}"#))
        return try XCTUnwrap(json.objectValue)
    }

    static func entries(_ report: JSONObject) -> [JSONObject] {
        guard case .array(let items)? = report["visits"] else { return [] }
        return items.compactMap(\.objectValue)
    }

    // MARK: Facts

    func testFactsFollowStartsUndosFinishesAndRejections() throws {
        let f = try ServiceFixture()
        let s = ReportServiceTests.day0 + 8 * 3_600_000
        try f.importVisits(ReportServiceTests.document([
            ReportServiceTests.record(id: "a", startMs: s), ReportServiceTests.record(id: "b", startMs: s + 3_600_000),
        ]))
        let a = ReportServiceTests.key("a", s), b = ReportServiceTests.key("b", s + 3_600_000)
        try ReportServiceTests.set(f, a, .inProgress, atMs: s + 60_000)
        try ReportServiceTests.set(f, a, .todo, atMs: s + 120_000)
        XCTAssertNil(try FactStore(f.db).facts(a)?.startedAt, "an undone start clears startedAt")
        try ReportServiceTests.set(f, a, .inProgress, atMs: s + 180_000)
        try ReportServiceTests.set(f, a, .done, atMs: s + 180_000 + 25 * 60_000 + 30_000)
        try ReportServiceTests.set(f, b, .inProgress, atMs: s + 3_700_000)
        try ReportServiceTests.set(f, b, .rejected, atMs: s + 3_800_000)
        XCTAssertEqual(try FactStore(f.db).facts(a),
                       VisitFacts(startedAt: Instant(milliseconds: s + 180_000), finishedAt: Instant(milliseconds: s + 180_000 + 1_530_000)))
        XCTAssertEqual(try FactStore(f.db).facts(b),
                       VisitFacts(startedAt: Instant(milliseconds: s + 3_700_000), rejectedAt: Instant(milliseconds: s + 3_800_000)),
                       "a rejection after a start keeps it")
        let entries = ReportServiceTests.entries(try ReportServiceTests.report(f))
        XCTAssertEqual(entries.map { $0["workedMinutes"] }, [26, .null], "25.5 minutes round up to 26")
        XCTAssertEqual(entries.map { $0["state"] }, ["Done", "Rejected"])
    }

    func testFactsOutliveASnapshotWithoutTheVisitAndExpireAfterKeepDays() throws {
        let f = try ServiceFixture()
        let s = ReportServiceTests.day0 - 86_400_000
        try f.importVisits(ReportServiceTests.document([ReportServiceTests.record(id: "a", startMs: s, tasks: [("Wash", 20), ("Wax", 10)])]))
        let a = ReportServiceTests.key("a", s)
        try ReportServiceTests.set(f, a, .inProgress, atMs: s)
        try ReportServiceTests.set(f, a, .done, atMs: s + 45 * 60_000)
        try f.importVisits(ReportServiceTests.document([ReportServiceTests.record(id: "z", startMs: s + 7_200_000)]))
        XCTAssertNotNil(try FactStore(f.db).facts(a))
        let tasks = try f.visits.learnedDurations()
        XCTAssertEqual(tasks.map(\.title), ["Wash", "Wax"])
        XCTAssertEqual(tasks.map(\.median.roundedToTenth), [30, 15], "45 minutes shared 2:1")
        // Facts of visits started more than keepDays ago go with the next fact written.
        try ReportServiceTests.at(f, ReportServiceTests.day0 + 86_400_000)
        var service = VisitsService(db: f.db, clock: f.clock, importThreads: 0)
        service.report.keepDays = 1
        XCTAssertEqual(try service.learnedDurations(), [], "the kept facts are those of the last keepDays days")
        _ = try service.setState(keyText: ReportServiceTests.key("z", s + 7_200_000), to: .inProgress, reason: nil)
        XCTAssertNil(try FactStore(f.db).facts(a))
    }

    func testARemovedCardStillListedIsReported() throws {
        let f = try ServiceFixture()
        let (a, b) = (ReportServiceTests.day0 + 8 * 3_600_000, ReportServiceTests.day0 + 9 * 3_600_000)
        try ReportServiceTests.at(f, ReportServiceTests.day0 + 7 * 3_600_000)
        try f.importVisits(ReportServiceTests.document([ReportServiceTests.record(id: "a", startMs: a),
                                                        ReportServiceTests.record(id: "b", startMs: b)]))
        try ReportServiceTests.set(f, ReportServiceTests.key("a", a), .inProgress, atMs: a)
        // The planner drops a while its start waits for the update server: its card stays.
        try f.importVisits(ReportServiceTests.document([ReportServiceTests.record(id: "b", startMs: b)]))
        let listed = try f.visits.cardsOn(try XCTUnwrap(CivilDate(iso: "2020-09-10")), employeeId: nil)
        XCTAssertEqual(listed.map(\.removed), [true, false])
        let report = try ReportServiceTests.report(f)
        let entries = ReportServiceTests.entries(report)
        XCTAssertEqual(entries.map { $0["key"] }, [.string(ReportServiceTests.key("a", a)), .string(ReportServiceTests.key("b", b))])
        XCTAssertEqual(entries.first?["state"], "InProgress")
        XCTAssertEqual(entries.first?["startedAt"], .string(ReportServiceTests.iso(a)))
        let totals = report["totals"]?.objectValue
        XCTAssertEqual(totals?["plannedMinutes"], .int(60))
        XCTAssertEqual(totals?["inProgress"], .int(1))
        XCTAssertEqual(totals?["todo"], .int(1))
    }

    func testFactsSurviveTheServersRejection() throws {
        let f = try ServiceFixture()
        let s = ReportServiceTests.day0 + 8 * 3_600_000
        try f.importVisits(ReportServiceTests.document([ReportServiceTests.record(id: "a", startMs: s)]))
        let a = ReportServiceTests.key("a", s)
        try ReportServiceTests.set(f, a, .inProgress, atMs: s)
        try ReportServiceTests.set(f, a, .done, atMs: s + 40 * 60_000)
        let server = try PushServer()
        defer { server.stop() }
        server.then({ seen in
            let rejected = seen.mutationIds.map { #"{"mutationId": "\#($0)", "reason": "Reassigned."}"# }.joined(separator: ",")
            return .answer(200, #"{"applied": [], "rejected": [\#(rejected)]}"#)
        })
        let sync = SyncService(db: f.db, clock: f.clock,
                               setup: PushSetup(visitUpdates: server.url("/u"),
                                                client: HTTPClient(limits: HTTPLimits(timeoutMs: 2000, totalTimeoutMs: 5000)),
                                                pushLock: PushLock(database: ":memory:"), waitMs: 1000))
        XCTAssertEqual(try sync.push(ifDue: false, lock: f).rejected, 2)
        let entry = try XCTUnwrap(ReportServiceTests.entries(try ReportServiceTests.report(f)).first)
        XCTAssertEqual(entry["state"], "Todo", "the card falls back to the snapshot's state")
        XCTAssertEqual(entry["startedAt"], .string(ReportServiceTests.iso(s)))
        XCTAssertEqual(entry["finishedAt"], .string(ReportServiceTests.iso(s + 40 * 60_000)))
        XCTAssertEqual(entry["workedMinutes"], 40)
    }

    func testAnAutoStartArrivalRecordsTheStart() throws {
        let f = try ServiceFixture()
        let s = ReportServiceTests.day0 + 8 * 3_600_000
        try f.importVisits(ReportServiceTests.document([ReportServiceTests.record(id: "a", startMs: s, latitude: 55.7, longitude: 12.5)]))
        var road = RoadConfig()
        road.autoStart = true
        let location = LocationService(db: f.db, clock: f.clock, config: road)
        let t0 = ReportServiceTests.day0 + 7 * 3_600_000
        _ = try location.report(latitude: 55.7, longitude: 12.5, accuracyMeters: 5, at: Instant(milliseconds: t0))
        _ = try location.report(latitude: 55.7, longitude: 12.5, accuracyMeters: 5, at: Instant(milliseconds: t0 + 61_000))
        XCTAssertEqual(try FactStore(f.db).facts(ReportServiceTests.key("a", s))?.startedAt, Instant(milliseconds: t0 + 61_000))
    }

    // MARK: The day's report against an oracle

    func testRandomDaysMatchTheOracle() throws {
        var random = SplitMix64(seed: 0x7E1A_2026)
        for round in 0..<12 {
            let f = try ServiceFixture()
            let n = 1 + random.below(30)
            var starts: [Int64] = []
            var records: [String] = []
            var planned: [Int] = []
            var snapshotStates: [String] = []
            for i in 0..<n {
                // 06:00 to 18:00 local (UTC+2), minute starts, some shared.
                let start = ReportServiceTests.day0 + 4 * 3_600_000 + Int64(random.below(720)) * 60_000
                starts.append(start)
                let minutes = random.below(4) == 0 ? 0 : random.below(120)
                planned.append(minutes)
                let state = ["Todo", "Todo", "Todo", "Done", "Rejected", "InProgress"][random.below(6)]
                snapshotStates.append(state)
                records.append(ReportServiceTests.record(id: "v\(i)", startMs: start, state: state, tasks: [("Wash", minutes)]))
            }
            try f.importVisits(ReportServiceTests.document(records))
            // Card order: start, then snapshot order.
            let order = (0..<n).sorted { starts[$0] != starts[$1] ? starts[$0] < starts[$1] : $0 < $1 }
            var shown = snapshotStates
            var started: [Int64?] = Array(repeating: nil, count: n)
            var finished: [Int64?] = Array(repeating: nil, count: n)
            var arrivals: [(Int64, Int64?)?] = Array(repeating: nil, count: n)
            for i in 0..<n where snapshotStates[i] == "Todo" {
                let key = ReportServiceTests.key("v\(i)", starts[i])
                var t = starts[i] + Int64(random.below(3_600_000))
                let script: [VisitState] = [[], [.inProgress], [.inProgress, .done], [.inProgress, .todo],
                                            [.inProgress, .todo, .inProgress, .done], [.rejected], [.inProgress, .rejected]][random.below(7)]
                for state in script {
                    // Spans that end exactly on a half minute now and then.
                    t += random.below(3) == 0 ? Int64(random.below(90)) * 60_000 + 30_000 : Int64(random.below(5_400_000))
                    try ReportServiceTests.set(f, key, state, atMs: t)
                    shown[i] = state.rawValue
                    switch state {
                    case .inProgress: started[i] = t
                    case .todo: started[i] = nil
                    case .done: finished[i] = t
                    case .rejected: break
                    }
                }
            }
            let store = LocationStore(f.db)
            for i in 0..<n where random.below(2) == 0 {
                let key = try XCTUnwrap(VisitKey(text: ReportServiceTests.key("v\(i)", starts[i])))
                let arrived = starts[i] + Int64(random.below(2_400_000)) - 600_000
                try store.recordArrival(key, at: Instant(milliseconds: arrived))
                var departed: Int64?
                if random.below(3) > 0 {
                    departed = arrived + Int64(random.below(5_400_000))
                    try store.recordDeparture(key, at: Instant(milliseconds: departed ?? 0))
                }
                arrivals[i] = (arrived, departed)
            }

            let report = try ReportServiceTests.report(f)
            let entries = ReportServiceTests.entries(report)
            XCTAssertEqual(entries.count, n, "round \(round)")
            var totals = (planned: 0, worked: 0, onSite: 0, done: 0, rejected: 0, todo: 0, inProgress: 0)
            for (entry, i) in zip(entries, order) {
                XCTAssertEqual(entry["key"], .string(ReportServiceTests.key("v\(i)", starts[i])), "round \(round)")
                XCTAssertEqual(entry["state"], .string(shown[i]))
                XCTAssertEqual(entry["plannedMinutes"], .int(Int64(planned[i])))
                var worked: Int?
                if let s = started[i], let e = finished[i] { worked = ReportServiceTests.minutes(e - s) }
                XCTAssertEqual(entry["workedMinutes"], .int(worked), "round \(round) card \(i)")
                var onSite: Int?
                var late: Int?
                if let (arrived, departed) = arrivals[i] {
                    late = max(0, ReportServiceTests.minutes(arrived - starts[i]))
                    if let departed { onSite = ReportServiceTests.minutes(departed - arrived) }
                }
                XCTAssertEqual(entry["onSiteMinutes"], .int(onSite))
                XCTAssertEqual(entry["lateMinutes"], .int(late))
                if shown[i] != "Rejected" { totals.planned += planned[i] }
                totals.worked += worked ?? 0
                totals.onSite += onSite ?? 0
                switch shown[i] {
                case "Done": totals.done += 1
                case "Rejected": totals.rejected += 1
                case "Todo": totals.todo += 1
                default: totals.inProgress += 1
                }
            }
            var drive = 0
            let arrived = order.filter { arrivals[$0] != nil }.sorted { (arrivals[$0]?.0 ?? 0) < (arrivals[$1]?.0 ?? 0) }
            for (p, q) in zip(arrived, arrived.dropFirst()) {
                if let departed = arrivals[p]?.1, let next = arrivals[q]?.0, next > departed {
                    drive += ReportServiceTests.minutes(next - departed)
                }
            }
            let t = try XCTUnwrap(report["totals"]?.objectValue)
            XCTAssertEqual(t["plannedMinutes"], .int(totals.planned), "round \(round)")
            XCTAssertEqual(t["workedMinutes"], .int(totals.worked))
            XCTAssertEqual(t["onSiteMinutes"], .int(totals.onSite))
            XCTAssertEqual(t["driveMinutes"], .int(drive), "round \(round)")
            XCTAssertEqual([t["done"], t["rejected"], t["todo"], t["inProgress"]],
                           [.int(totals.done), .int(totals.rejected), .int(totals.todo), .int(totals.inProgress)])
        }
    }

    // MARK: Durations against an oracle

    /// One sample as the oracle keeps it: an exact fraction of minutes.
    struct OracleSample {
        var finished: Int64
        var key: String
        var position: Int
        var numerator: Int128
        var denominator: Int128
        var planned: Int
    }

    func testRandomDurationsMatchTheOracle() throws {
        var random = SplitMix64(seed: 0xD0_2A7E)
        let f = try ServiceFixture()
        let titles = ["Wash", "Polish", "Interior", "Ærø wax"]
        var records: [String] = []
        var plans: [(start: Int64, tasks: [(String, Int)])] = []
        for i in 0..<260 {
            let start = ReportServiceTests.day0 - Int64(1 + random.below(60)) * 86_400_000 + Int64(random.below(600)) * 60_000
            var tasks: [(String, Int)] = []
            for _ in 0..<(1 + random.below(3)) {
                // Padded titles are the same title once trimmed; some tasks are planned at 0.
                let title = titles[random.below(titles.count)]
                tasks.append((random.below(4) == 0 ? "  \(title) " : title, random.below(5) == 0 ? 0 : 5 + random.below(60)))
            }
            records.append(ReportServiceTests.record(id: "d\(i)", startMs: start, tasks: tasks))
            plans.append((start, tasks))
        }
        try f.importVisits(ReportServiceTests.document(records))
        var samples: [String: [OracleSample]] = [:]
        for (i, plan) in plans.enumerated() {
            let key = ReportServiceTests.key("d\(i)", plan.start)
            let begin = plan.start + Int64(random.below(3_600_000))
            try ReportServiceTests.set(f, key, .inProgress, atMs: begin)
            guard random.below(8) > 0 else { continue }
            // Worked spans of 0 ms now and then (no sample), else any number of milliseconds.
            let end = begin + (random.below(20) == 0 ? 0 : Int64(1 + random.below(7_200_000)))
            try ReportServiceTests.set(f, key, .done, atMs: end)
            let total = plan.tasks.reduce(0) { $0 + $1.1 }
            guard end > begin, total > 0 else { continue }
            for (p, task) in plan.tasks.enumerated() where task.1 > 0 {
                let title = task.0.trimmingCharacters(in: .whitespaces)
                samples[title, default: []].append(OracleSample(
                    finished: end, key: key, position: p, numerator: Int128(end - begin) * Int128(task.1),
                    denominator: Int128(60_000 * total), planned: task.1))
            }
        }
        try ReportServiceTests.at(f, ReportServiceTests.day0)
        let json = try ReportAPI.durations(ReportService(visits: f.visits))
        guard case .array(let tasks)? = json.objectValue?["tasks"] else { return XCTFail("no tasks") }
        let expectedTitles = samples.keys.sorted { Array($0.unicodeScalars.map(\.value)).lexicographicallyPrecedes(Array($1.unicodeScalars.map(\.value))) }
        XCTAssertEqual(tasks.compactMap { $0.objectValue?["title"] }, expectedTitles.map(JSON.string))
        var windowed = false
        for (task, title) in zip(tasks, expectedTitles) {
            let newest = (samples[title] ?? []).sorted {
                $0.finished != $1.finished ? $0.finished > $1.finished
                    : $0.key != $1.key ? Array($0.key.utf8).lexicographicallyPrecedes(Array($1.key.utf8)) : $0.position < $1.position
            }.prefix(50)
            if (samples[title] ?? []).count > 50 { windowed = true }
            let values = newest.sorted { $0.numerator * $1.denominator < $1.numerator * $0.denominator }
            let n = values.count
            let median = values[(n + 1) / 2 - 1], p80 = values[(4 * n + 4) / 5 - 1]
            func tenths(_ s: OracleSample) -> Double { Double((20 * s.numerator + s.denominator) / (2 * s.denominator)) / 10 }
            let o = try XCTUnwrap(task.objectValue)
            XCTAssertEqual(o["samples"], .int(Int64(n)), title)
            XCTAssertEqual(o["plannedMinutes"], .int(Int64(newest.first?.planned ?? -1)), title)
            XCTAssertEqual(o["medianMinutes"], .double(tenths(median)), title)
            XCTAssertEqual(o["p80Minutes"], .double(tenths(p80)), title)
        }
        XCTAssertTrue(windowed, "some title has more than 50 samples")
    }

    func testTheRanksAndTheRoundingOfTenths() {
        XCTAssertEqual((1...10).map { TaskDurations.rank($0, numerator: 1, denominator: 2) }, [1, 1, 2, 2, 3, 3, 4, 4, 5, 5])
        XCTAssertEqual((1...10).map { TaskDurations.rank($0, numerator: 4, denominator: 5) }, [1, 2, 3, 4, 4, 5, 6, 7, 8, 8])
        // 0.25 minutes = 15 s rounds up to 0.3; 0.05 minutes to 0.1; 0.0499… to 0.0.
        XCTAssertEqual(TaskDurations.Minutes(15_000, over: 60_000).roundedToTenth, 0.3)
        XCTAssertEqual(TaskDurations.Minutes(3_000, over: 60_000).roundedToTenth, 0.1)
        XCTAssertEqual(TaskDurations.Minutes(2_999, over: 60_000).roundedToTenth, 0.0)
    }

    // MARK: Learned plans

    func testALearnedPlanUsesTheMediansOfTitlesWithEnoughSamples() throws {
        var random = SplitMix64(seed: 0x1EA2)
        let f = try ServiceFixture()
        var records: [String] = []
        var spans: [Int64] = []
        // Seven past visits of one "Wash" task (7 samples), two of "Wax" (2 samples).
        for i in 0..<9 {
            let start = ReportServiceTests.day0 - Int64(i + 1) * 86_400_000
            records.append(ReportServiceTests.record(id: "p\(i)", startMs: start, tasks: [(i < 7 ? "Wash" : "Wax", 30)]))
            spans.append(Int64(600_000 + random.below(3_000_000)))
        }
        let today = ReportServiceTests.day0 + 9 * 3_600_000
        records.append(ReportServiceTests.record(id: "t", startMs: today, tasks: [("Wash", 30), ("Wax", 20), ("Vacuum", 7)],
                                                 latitude: 55.7, longitude: 12.5))
        try f.importVisits(ReportServiceTests.document(records))
        for i in 0..<9 {
            let start = ReportServiceTests.day0 - Int64(i + 1) * 86_400_000
            try ReportServiceTests.set(f, ReportServiceTests.key("p\(i)", start), .inProgress, atMs: start)
            try ReportServiceTests.set(f, ReportServiceTests.key("p\(i)", start), .done, atMs: start + spans[i])
        }
        try ReportServiceTests.at(f, ReportServiceTests.day0 + 6 * 3_600_000)
        let washMedian = spans.prefix(7).sorted()[3]
        // Wash's exact median (7 ≥ 5 samples), Wax planned (2 < 5), Vacuum planned: rounded up.
        let expected = Int((washMedian + (20 + 7) * 60_000 + 59_999) / 60_000)
        func service(_ durations: String, minSamples: Int = 5) throws(CarFitError) -> JSON? {
            var visits = f.visits
            visits.report.minSamples = minSamples
            let plan = try VisitsAPI.plan(visits, try ServiceFixture.fields(#"{"date": "2020-09-10", "durations": "\#(durations)"}"#))
            guard case .array(let stops)? = plan.objectValue?["stops"] else { return nil }
            return stops.first?.objectValue?["serviceMinutes"]
        }
        XCTAssertEqual(try service("planned"), 57)
        XCTAssertEqual(try service("learned"), .int(Int64(expected)))
        let waxMedian = spans.suffix(2).sorted()[0]
        XCTAssertEqual(try service("learned", minSamples: 2),
                       .int(Int64((washMedian + waxMedian + 7 * 60_000 + 59_999) / 60_000)))
        XCTAssertEqual(refusal { () throws(CarFitError) in _ = try service("guessed") }?.field, "durations")
    }
}
