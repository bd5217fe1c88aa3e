import CarFitAPI
import CarFitCore
import CarFitIO
import CarFitServices
import CarFitStore
import Foundation
import XCTest

/// Snapshots, state changes, attachments, push answers (applied, rejected, lost), uploads,
/// acknowledgements and reopening interleaved at random (seeded), checked after every step
/// against a model written here: no washer change is lost from sight (each is pending, applied,
/// or shown as its card's conflict until acknowledged), and every removed visit with work stays
/// listed until its work is settled, and no longer.
final class OutboxRandomTests: XCTestCase {
    /// A seeded generator (SplitMix64).
    struct Seeded: RandomNumberGenerator {
        var state: UInt64
        mutating func next() -> UInt64 {
            state &+= 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return z ^ (z >> 31)
        }
    }

    enum Status { case pending, applied }

    struct Change {
        var id: String
        var state: String
        var status: Status
    }

    /// What the model knows of one visit of the pool.
    struct Model {
        var inSnapshot = false
        /// A kept row of the visit exists (the store's `visits_removed`).
        var kept = false
        var changes: [Change] = []
        var conflict: String?
        var attachments: [String] = []

        var hasWork: Bool { !changes.isEmpty || conflict != nil || !attachments.isEmpty }
        var listed: Bool { inSnapshot || (kept && hasWork) }
        var shown: String { changes.last?.state ?? "Todo" }
    }

    static let pool = 6
    static func key(_ i: Int) -> String { "v\(i)|\(1_599_724_800_000 + Int64(i) * 3_600_000)|0" }
    static func record(_ i: Int) -> String {
        #"{"visitId": "v\#(i)", "startTimeUtc": "2020-09-10T\#(i < 2 ? "0" : "")\#(8 + i):00:00Z", "visitState": "ToDo", "houseOwnerFirstName": "N\#(i)"}"#
    }

    static let allowed: Set<[String]> = [["ToDo", "InProgress"], ["Todo", "InProgress"], ["InProgress", "Done"], ["ToDo", "Rejected"],
                                         ["Todo", "Rejected"], ["InProgress", "Rejected"], ["InProgress", "Todo"]]

    func testNothingTheWasherDidIsLostFromSight() throws {
        for seed: UInt64 in [1, 2, 3, 4, 5, 6] {
            try run(seed: seed, steps: 200)
        }
    }

    func run(seed: UInt64, steps: Int) throws {
        var random = Seeded(state: seed)
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("outbox-random-\(seed)-\(UUID().uuidString).db").path
        let attachmentsDirectory = path + "-files"
        try FileManager.default.createDirectory(atPath: attachmentsDirectory, withIntermediateDirectories: true)
        defer {
            for suffix in ["", "-wal", "-shm", "-journal"] { try? FileManager.default.removeItem(atPath: path + suffix) }
            try? FileManager.default.removeItem(atPath: attachmentsDirectory)
        }
        let clock = try Clock(zoneName: "Europe/Copenhagen", fixedNow: try XCTUnwrap(Instant(iso: "2020-09-10T07:00:00Z")), hour24: true)
        var db: Database? = try Database(path: path)
        var models = Array(repeating: Model(), count: Self.pool)
        /// The server's decision on every mutation id it has seen (true: applied).
        var server: [String: Bool] = [:]
        var states = ["InProgress", "Done", "Rejected", "Todo"]
        states.shuffle(using: &random)

        for step in 0..<steps {
            let where_ = "seed \(seed) step \(step)"
            guard let current = db else { return XCTFail("no database") }
            let visits = VisitsService(db: current, clock: clock, importThreads: 0)
            let roll = Int.random(in: 0..<100, using: &random)
            let i = Int.random(in: 0..<Self.pool, using: &random)
            let key = Self.key(i)
            switch roll {
            case 0..<15:  // a snapshot
                let present = (0..<Self.pool).map { _ in Int.random(in: 0..<10, using: &random) < 6 }
                let records = (0..<Self.pool).filter { present[$0] }.map(Self.record).joined(separator: ",")
                try importVisits(visits, #"{"data": [\#(records)]}"#)
                for j in 0..<Self.pool {
                    var m = models[j]
                    if m.inSnapshot && m.hasWork { m.kept = true }
                    let applied = m.changes.prefix { $0.status == .applied }.count
                    m.changes.removeFirst(applied)
                    m.inSnapshot = present[j]
                    if m.inSnapshot || !m.hasWork { m.kept = false }
                    models[j] = m
                }
            case 15..<45:  // a state change
                let target = states[Int.random(in: 0..<states.count, using: &random)]
                let result = attempt { () throws(CarFitError) in
                    _ = try VisitsAPI.setState(visits, try ServiceFixture.fields(#"{"key": "\#(key)", "state": "\#(target)"}"#))
                }
                if !models[i].listed {
                    XCTAssertEqual(result?.status, .notFound, where_)
                } else if Self.allowed.contains([models[i].shown, target]) {
                    XCTAssertNil(result, where_)
                    let pending = try visits.outbox.nextRequest()?.mutations.last { $0.start.milliseconds == 1_599_724_800_000 + Int64(i) * 3_600_000 }
                    let id = try XCTUnwrap(pending?.mutationId, where_)
                    models[i].changes.append(Change(id: id, state: target, status: .pending))
                } else {
                    XCTAssertEqual(result?.status, .conflict, where_)
                }
            case 45..<55:  // an attachment
                let service = AttachmentsService(db: current, clock: clock, config: CoreConfig.Attachments(), directory: attachmentsDirectory)
                var made: Attachment?
                let result = attempt { () throws(CarFitError) in made = try service.attach(keyText: key, kind: .note, text: "n", file: nil) }
                if models[i].inSnapshot {
                    XCTAssertNil(result, where_)
                    if let made { models[i].attachments.append(made.id) }
                } else {
                    XCTAssertEqual(result?.status, .notFound, where_)
                }
            case 55..<63:  // an upload ends (taken, or refused for good)
                guard let id = models[i].attachments.first else { continue }
                if Bool.random(using: &random) {
                    _ = try AttachmentStore(current).markUploaded(id: id)
                } else {
                    try AttachmentStore(current).markFailed(id: id, reason: "refused")
                }
                models[i].attachments.removeFirst()
            case 63..<83:  // a push: the server decides each id once; the answer may be lost
                guard let request = try visits.outbox.nextRequest() else { continue }
                var applied: [String] = []
                var rejected: [PushAnswer.Rejected] = []
                for id in request.mutationIds {
                    if server[id] == nil {
                        let r = Int.random(in: 0..<4, using: &random)
                        if r < 2 { server[id] = true } else if r == 2 { server[id] = false }
                    }
                    switch server[id] {
                    case true?: applied.append(id)
                    case false?: rejected.append(.init(mutationId: id, reason: "r-\(id.prefix(4))"))
                    case nil: break
                    }
                }
                if Int.random(in: 0..<4, using: &random) == 0 { continue }  // the answer is lost
                let recorded = try visits.outbox.recordAnswer(PushAnswer(applied: applied, rejected: rejected).outcome(sent: request.mutationIds))
                XCTAssertEqual(recorded.conflicts.count, rejected.count, where_)
                let appliedSet = Set(applied)
                for id in request.mutationIds {
                    for j in 0..<Self.pool {
                        guard let c = models[j].changes.firstIndex(where: { $0.id == id }) else { continue }
                        if appliedSet.contains(id) {
                            models[j].changes[c].status = .applied
                        } else if server[id] == false {
                            models[j].changes.remove(at: c)
                            models[j].conflict = id
                        }
                    }
                }
            case 83..<90:  // an acknowledgement
                let result = attempt { () throws(CarFitError) in
                    _ = try VisitsAPI.acknowledge(visits, try ServiceFixture.fields(#"{"key": "\#(key)"}"#))
                }
                if !models[i].listed {
                    XCTAssertEqual(result?.status, .notFound, where_)
                } else if models[i].conflict == nil {
                    XCTAssertEqual(result?.status, .conflict, where_)
                } else {
                    XCTAssertNil(result, where_)
                    models[i].conflict = nil
                }
            default:  // close and reopen
                db?.close()
                db = nil
                db = try Database(path: path)
            }
            guard let now = db else { return XCTFail("no database") }
            try check(VisitsService(db: now, clock: clock, importThreads: 0), models, where_)
        }
    }

    func importVisits(_ visits: VisitsService, _ text: String) throws {
        let result = Array(text.utf8).withUnsafeBytes { bytes in
            Result { () throws(CarFitError) in try VisitsAPI.importVisits(visits, bytes) }
        }
        _ = try result.get()
    }

    /// The day list and the outbox against the model.
    func check(_ visits: VisitsService, _ models: [Model], _ where_: String) throws {
        let text = try VisitsAPI.list(visits, try ServiceFixture.fields(#"{"dates": ["2020-09-10"]}"#), selected: []).bytes
        guard case .success(let json) = JanssonParser.parse(bytes: text),
              case .array(let days)? = json.objectValue?["days"], let day = days.first?.objectValue,
              case .array(let cards)? = day["visits"] else { return XCTFail("no day, \(where_)") }
        let expected = (0..<Self.pool).filter { models[$0].listed }
        XCTAssertEqual(cards.map { $0.objectValue?["key"] }, expected.map { .string(Self.key($0)) }, where_)
        XCTAssertEqual(day["summary"]?.objectValue?["visits"], .int(Int64(expected.count)), where_)
        for (card, i) in zip(cards, expected) {
            let m = models[i]
            let c = card.objectValue
            XCTAssertEqual(c?["removed"], .bool(!m.inSnapshot), "\(where_) v\(i)")
            XCTAssertEqual(c?["state"], .string(m.shown), "\(where_) v\(i)")
            XCTAssertEqual(c?["pending"], .bool(m.changes.contains { $0.status == .pending }), "\(where_) v\(i)")
            XCTAssertEqual(c?["conflict"]?.objectValue?["mutationId"] ?? .null, m.conflict.map(JSON.string) ?? .null, "\(where_) v\(i)")
        }
        // Every pending change is in the outbox, and nothing else is.
        let outbox = Set(try visits.outbox.nextRequest()?.mutationIds ?? [])
        let pending = Set(models.flatMap { $0.changes.filter { $0.status == .pending }.map(\.id) })
        XCTAssertEqual(outbox, pending, where_)
    }

    func attempt(_ body: () throws(CarFitError) -> Void) -> CarFitError? {
        do throws(CarFitError) {
            try body()
            return nil
        } catch {
            return error
        }
    }
}
