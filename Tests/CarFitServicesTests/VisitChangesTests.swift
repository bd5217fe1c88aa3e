@testable import CarFitCore
import CarFitIO
import CarFitServices
import CarFitStore
import Foundation
import XCTest

/// The planner's changes between two stored snapshots: the domain's comparison, and the one an
/// import computes in its transaction, against a plain reading of the rules written here.
final class VisitChangesTests: XCTestCase {
    /// A record as the test writes it into a visits document.
    struct Record {
        var visitId: String?
        var startMs: Int64
        var first: String
        var last: String
        var address: String
        var latitude: Double?
        var longitude: Double?
        var expectedTime: String?
        var tasks: [(title: String, minutes: Int)]
        var state: String

        var json: String {
            var members: [String] = []
            if let visitId { members.append("\"visitId\":\"\(visitId)\"") }
            let start = Date(timeIntervalSince1970: Double(startMs) / 1000)
            members.append("\"startTimeUtc\":\"\(VisitChangesTests.iso(start))\"")
            members.append("\"visitState\":\"\(state)\"")
            members.append("\"houseOwnerFirstName\":\"\(first)\",\"houseOwnerLastName\":\"\(last)\"")
            members.append("\"houseOwnerAddress\":\"\(address)\"")
            if let latitude { members.append("\"houseOwnerLatitude\":\(latitude)") }
            if let longitude { members.append("\"houseOwnerLongitude\":\(longitude)") }
            if let expectedTime { members.append("\"expectedTime\":\"\(expectedTime)\"") }
            let tasks = self.tasks.map { "{\"title\":\"\($0.title)\",\"timesInMinutes\":\($0.minutes)}" }
            members.append("\"tasks\":[\(tasks.joined(separator: ","))]")
            return "{" + members.joined(separator: ",") + "}"
        }

        var name: String { "\(first) \(last)" }
        var taskText: String { tasks.map(\.title).joined(separator: ", ") }
        var minutes: Int { tasks.reduce(0) { $0 + $1.minutes } }
    }

    static func iso(_ date: Date) -> String {
        let f = ISO8601DateFormatter()
        f.timeZone = TimeZone(identifier: "UTC")
        return f.string(from: date)
    }

    static func document(_ records: [Record]) -> String {
        "{\"data\":[" + records.map(\.json).joined(separator: ",") + "]}"
    }

    /// Random test inputs drawn from the library's `SplitMix64`: reproducible for a seed.
    struct ChangeRandom {
        var generator: SplitMix64
        init(state: UInt64) { generator = SplitMix64(seed: state) }
        mutating func below(_ n: Int) -> Int { Int(generator.next() % UInt64(max(n, 1))) }
        mutating func chance(_ percent: Int) -> Bool { below(100) < percent }
        mutating func pick<T>(_ items: [T]) -> T { items[below(items.count)] }
    }

    // MARK: - The rules, read plainly

    /// The changes from `old` to `new` as the rules say, each written as one line.
    static func expected(old: [Record], new: [Record], today: String, zone: TimeZone) -> [String] {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = zone
        let day = DateFormatter()
        day.calendar = calendar
        day.timeZone = zone
        day.dateFormat = "yyyy-MM-dd"
        func counts(_ r: Record) -> Bool {
            r.visitId != nil && day.string(from: Date(timeIntervalSince1970: Double(r.startMs) / 1000)) >= today
        }
        /// Each record with its repetition: its place among the same snapshot's records of its
        /// (visitId, start), counted before any filter.
        func keyed(_ records: [Record]) -> [(Record, Int)] {
            var seen: [String: Int] = [:]
            return records.map { r in
                let pair = "\(r.visitId ?? "~")|\(r.startMs)"
                let n = seen[pair, default: 0]
                seen[pair] = n + 1
                return (r, n)
            }.filter { counts($0.0) }
        }
        let before = keyed(old), after = keyed(new)
        struct Line { var start: Int64; var id: String; var change: String; var repetition: Int; var text: String }
        var lines: [Line] = []
        func line(_ change: String, _ r: Record, _ repetition: Int, previous: Int64? = nil, fields: [String] = []) {
            let id = r.visitId ?? ""
            let prev = previous.map { iso(Date(timeIntervalSince1970: Double($0) / 1000)) } ?? "null"
            let text = "\(change) \(id) \(id)|\(r.startMs)|\(repetition) \(r.name) "
                + "\(iso(Date(timeIntervalSince1970: Double(r.startMs) / 1000))) \(prev) [\(fields.joined(separator: ","))]"
            lines.append(Line(start: r.startMs, id: id, change: change, repetition: repetition, text: text))
        }
        let ids = Set(before.compactMap { $0.0.visitId } + after.compactMap { $0.0.visitId })
        for id in ids {
            var olds = before.filter { $0.0.visitId == id }
            var news = after.filter { $0.0.visitId == id }
            // Pair equal starts, first with first.
            var i = 0
            while i < olds.count {
                if let j = news.firstIndex(where: { $0.0.startMs == olds[i].0.startMs }) {
                    let (o, n) = (olds[i].0, news[j])
                    var fields: [String] = []
                    if o.name != n.0.name { fields.append("name") }
                    if o.address != n.0.address { fields.append("address") }
                    if o.latitude != n.0.latitude || o.longitude != n.0.longitude { fields.append("coordinates") }
                    if o.expectedTime != n.0.expectedTime { fields.append("expectedTime") }
                    if !o.tasks.elementsEqual(n.0.tasks, by: { $0.title == $1.title && $0.minutes == $1.minutes }) {
                        fields.append("tasks")
                    }
                    if !fields.isEmpty { line("updated", n.0, n.1, fields: fields) }
                    olds.remove(at: i)
                    news.remove(at: j)
                } else {
                    i += 1
                }
            }
            if olds.count == 1 && news.count == 1 {
                line("moved", news[0].0, news[0].1, previous: olds[0].0.startMs)
            } else {
                for o in olds { line("removed", o.0, o.1) }
                for n in news { line("added", n.0, n.1) }
            }
        }
        lines.sort {
            ($0.start, $0.id, $0.change, $0.repetition) < ($1.start, $1.id, $1.change, $1.repetition)
        }
        return lines.map(\.text)
    }

    static func written(_ changes: [VisitChange]) -> [String] {
        changes.map { c in
            "\(c.kind.rawValue) \(c.visitId) \(c.key.text) \(c.name) \(c.start.iso) \(c.previousStart?.iso ?? "null") "
                + "[\(c.fields.map(\.rawValue).joined(separator: ","))]"
        }
    }

    // MARK: - Random snapshots

    /// 2020-09-10T00:00 in Copenhagen (UTC+2) is 2020-09-09T22:00Z.
    static let todayStartMs: Int64 = 1_599_688_800_000

    static func randomRecord(_ random: inout ChangeRandom) -> Record {
        let ids = ["a", "b", "c", "d", "e", "f"]
        // Days from two before today to three after, some starts near local midnight.
        let day = Int64(random.below(6)) - 2
        let minutes: [Int64] = [0, 1, 30, 480, 495, 720, 1439]
        let minute: Int64 = random.pick(minutes)
        let visitId: String? = random.chance(10) ? nil : random.pick(ids)
        let start: Int64 = todayStartMs + day * 86_400_000 + minute * 60_000
        let first: String = random.pick(["Anna", "Bo"])
        let last: String = random.pick(["Berg", "Dahl"])
        let address: String = random.pick(["Vej 1", "Gade 2"])
        let latitude: Double? = random.chance(20) ? nil : random.pick([55.5, 55.6])
        let longitude: Double? = random.chance(20) ? nil : random.pick([12.5, 12.25])
        let expected: String? = random.chance(30) ? nil : random.pick(["08:00", "09:30"])
        var tasks: [(title: String, minutes: Int)] = []
        if !random.chance(30) { tasks.append((random.pick(["Wash", "Wax"]), random.pick([10, 20]))) }
        if random.chance(30) { tasks.append(("Dry", 5)) }
        let state: String = random.pick(["Todo", "Done"])
        return Record(visitId: visitId, startMs: start, first: first, last: last, address: address, latitude: latitude,
                      longitude: longitude, expectedTime: expected, tasks: tasks, state: state)
    }

    /// A new snapshot drawn from `old`: records kept, changed in one field, moved, dropped,
    /// repeated, and new ones.
    static func successor(of old: [Record], _ random: inout ChangeRandom) -> [Record] {
        var new: [Record] = []
        for var r in old {
            switch random.below(10) {
            case 0: continue
            case 1: r.startMs += Int64(random.pick([-2, -1, 1, 2])) * 86_400_000 + Int64(random.pick([0, 30])) * 60_000
            case 2: r.first = r.first == "Anna" ? "Bo" : "Anna"
            case 3: r.address += " B"
            case 4: r.latitude = r.latitude == nil ? 55.7 : nil
            case 5: r.expectedTime = r.expectedTime == nil ? "10:00" : nil
            case 6:
                let more: [(title: String, minutes: Int)] = r.tasks.map { (title: $0.title, minutes: $0.minutes + 5) }
                if r.tasks.count == 2 && random.chance(50) {
                    // The same titles and total, the minutes swapped between the tasks.
                    r.tasks = [(r.tasks[0].title, r.tasks[1].minutes), (r.tasks[1].title, r.tasks[0].minutes)]
                } else {
                    r.tasks = r.tasks.isEmpty ? [(title: "Wash", minutes: 10)] : more
                }
            case 7: r.state = "Done"
            case 8: new.append(r)
            default: break
            }
            new.append(r)
        }
        for _ in 0..<random.below(3) { new.insert(randomRecord(&random), at: random.below(new.count + 1)) }
        return new
    }

    func testRandomSnapshotPairsAgainstTheRules() throws {
        var random = ChangeRandom(state: 0x5eed_c4a9)
        let zone = try XCTUnwrap(TimeZone(identifier: "Europe/Copenhagen"))
        var kinds = Set<String>()
        var fieldsSeen = Set<String>()
        for round in 0..<300 {
            let fixture = try ServiceFixture()
            let old = (0..<(1 + random.below(12))).map { _ in VisitChangesTests.randomRecord(&random) }
            let new = VisitChangesTests.successor(of: old, &random)
            let first = try import_(fixture, old)
            XCTAssertEqual(first, [], "the first snapshot yields no changes (round \(round))")
            let got = try import_(fixture, new)
            let want = VisitChangesTests.expected(old: old, new: new, today: "2020-09-10", zone: zone)
            XCTAssertEqual(got, want, "round \(round)\nold: \(VisitChangesTests.document(old))\nnew: \(VisitChangesTests.document(new))")
            if got != want { return }
            for line in got {
                kinds.insert(String(line.prefix { $0 != " " }))
                if let f = line.split(separator: "[").last { fieldsSeen.formUnion(f.dropLast().split(separator: ",").map(String.init)) }
            }
        }
        // The rounds reached every kind of change and every field.
        XCTAssertEqual(kinds, ["added", "removed", "moved", "updated"])
        XCTAssertEqual(fieldsSeen, ["name", "address", "coordinates", "expectedTime", "tasks"])
    }

    private func import_(_ fixture: ServiceFixture, _ records: [Record]) throws -> [String] {
        let bytes = Array(VisitChangesTests.document(records).utf8)
        let visits = fixture.visits
        let summary = try bytes.withUnsafeBytes { b in
            Result { () throws(CarFitError) in try visits.importStreamed(b) }
        }.get()
        return VisitChangesTests.written(try XCTUnwrap(summary?.changes))
    }

    // MARK: - The domain directly

    func testMovedFromYesterdayIsAddedAndToYesterdayIsRemoved() {
        let day: Int64 = 86_400_000
        let today = Instant(milliseconds: VisitChangesTests.todayStartMs + 3_600_000)
        let yesterday = Instant(milliseconds: today.milliseconds - day)
        let tomorrow = Instant(milliseconds: today.milliseconds + day)
        func o(_ start: Instant) -> VisitOccurrence { VisitOccurrence(visitId: "v", start: start, name: "N", address: "A") }
        let current = { (start: Instant) in start.milliseconds >= VisitChangesTests.todayStartMs }
        XCTAssertEqual(VisitChanges.compare(old: [o(yesterday)], new: [o(tomorrow)], counts: current).map(\.kind), [.added])
        XCTAssertEqual(VisitChanges.compare(old: [o(tomorrow)], new: [o(yesterday)], counts: current).map(\.kind), [.removed])
        let moved = VisitChanges.compare(old: [o(today)], new: [o(tomorrow)], counts: current)
        XCTAssertEqual(moved.map(\.kind), [.moved])
        XCTAssertEqual(moved.first?.previousStart, today)
        // Two only-new occurrences and one only-old: no move.
        XCTAssertEqual(VisitChanges.compare(old: [o(today)], new: [o(tomorrow), o(Instant(milliseconds: tomorrow.milliseconds + 60_000))],
                                            counts: current).map(\.kind), [.removed, .added, .added])
    }

    func testUpdatedListsItsFieldsInOrderAndIgnoresTheState() {
        let start = Instant(milliseconds: VisitChangesTests.todayStartMs)
        let a = VisitOccurrence(visitId: "v", start: start, name: "N", address: "A", latitude: 1, longitude: 2,
                                expectedTime: "08:00", tasks: "Wash", taskMinutes: 10)
        var b = a
        b.taskMinutes = 15
        b.name = "M"
        b.longitude = nil
        let changes = VisitChanges.compare(old: [a], new: [b])
        XCTAssertEqual(changes.map(\.kind), [.updated])
        XCTAssertEqual(changes.first?.fields, [.name, .coordinates, .tasks])
        XCTAssertEqual(VisitChanges.compare(old: [a], new: [a]), [])
    }

    func testTasksAreComparedOneByOne() {
        let start = Instant(milliseconds: VisitChangesTests.todayStartMs)
        func o(_ tasks: [PlannedTask]) -> VisitOccurrence {
            VisitOccurrence(visitId: "v", start: start, name: "N", address: "A",
                            tasks: tasks.map(\.title).filter { !$0.isEmpty }.joined(separator: ", "),
                            taskMinutes: tasks.reduce(0) { $0 + $1.minutes }, plannedTasks: tasks)
        }
        let wash = PlannedTask(title: "Wash", minutes: 10), wax = PlannedTask(title: "Wax", minutes: 20)
        let swapped = [PlannedTask(title: "Wash", minutes: 20), PlannedTask(title: "Wax", minutes: 10)]
        // The same titles and total minutes, the minutes on other tasks: changed.
        XCTAssertEqual(VisitChanges.compare(old: [o([wash, wax])], new: [o(swapped)]).first?.fields, [.tasks])
        // One task "Wash, Wax" of 30 minutes against two: changed.
        XCTAssertEqual(VisitChanges.compare(old: [o([PlannedTask(title: "Wash, Wax", minutes: 30)])], new: [o([wash, wax])])
            .first?.fields, [.tasks])
        // A task without title or minutes is no task.
        XCTAssertEqual(VisitChanges.compare(old: [o([wash])], new: [o([wash, PlannedTask(title: "", minutes: 0)])]), [])
        // A side stored without its tasks one by one is compared by its card's titles and total.
        var legacy = o([wash, wax])
        legacy.plannedTasks = []
        XCTAssertEqual(VisitChanges.compare(old: [legacy], new: [o(swapped)]), [])
        XCTAssertEqual(VisitChanges.compare(old: [legacy], new: [o([wash])]).first?.fields, [.tasks])
    }
}
