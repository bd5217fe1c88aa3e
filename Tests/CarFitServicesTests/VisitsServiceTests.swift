import CarFitAPI
import CarFitCore
import CarFitIO
import CarFitNet
import CarFitServices
import CarFitStore
import Foundation
import XCTest

/// The visits rules, in process: what an import stores and rejects, which visits a day lists
/// and in which order, which state changes are allowed and what they leave in the outbox, and
/// the day plan's order and times.
final class VisitsServiceTests: XCTestCase {
    // MARK: - Helpers

    /// `text` imported by the streamed reader (nil when it declines the document).
    func streamed(_ f: ServiceFixture, _ text: String,
                  commit: () throws(CarFitError) -> Void = {}) throws(CarFitError) -> ImportSummary? {
        let visits = f.visits
        let result = Array(text.utf8).withUnsafeBytes { bytes in
            Result { () throws(CarFitError) in try visits.importStreamed(bytes, commit: commit) }
        }
        return try result.get()
    }

    /// `text` read whole into a snapshot and imported.
    func whole(_ f: ServiceFixture, _ text: String) throws(CarFitError) -> ImportSummary {
        try f.visits.importSnapshot(try VisitSnapshot(document: try ServiceFixture.fields(text)))
    }

    func day(_ iso: String) throws -> CivilDate { try XCTUnwrap(CivilDate(iso: iso)) }

    func keys(_ visits: [Visit]) -> [String] { visits.map { $0.visitId ?? "-" } }

    /// Five visits of two employees around 2020-09-10 in Copenhagen (UTC+2): b and c start at
    /// the same instant (snapshot order b, c); d starts 00:30 local on the 10th; e 23:30 local
    /// on the 9th.
    static let days = #"""
        {"data": [
          {"visitId": "a", "homeBobEmployeeId": "e1", "startTimeUtc": "2020-09-10T08:00:00Z", "visitState": "Todo",
           "houseOwnerLatitude": 55.70, "houseOwnerLongitude": 12.50, "tasks": [{"title": "Wash", "timesInMinutes": 30}]},
          {"visitId": "b", "homeBobEmployeeId": "e2", "startTimeUtc": "2020-09-10T06:00:00Z", "visitState": "InProgress"},
          {"visitId": "c", "homeBobEmployeeId": "e1", "startTimeUtc": "2020-09-10T06:00:00Z", "visitState": "Done"},
          {"visitId": "d", "homeBobEmployeeId": "e1", "startTimeUtc": "2020-09-09T22:30:00Z", "visitState": "Todo"},
          {"visitId": "e", "homeBobEmployeeId": "e1", "startTimeUtc": "2020-09-09T21:30:00Z", "visitState": "Todo"},
          {"startTimeUtc": "2020-09-10T09:00:00Z", "visitState": "Todo"}
        ]}
        """#

    // MARK: - Import

    func testStreamedAndWholeImportsAgreeAndCalendarCountsThem() throws {
        let f = try ServiceFixture()
        let text = String(decoding: try ServiceFixture.data("carfit.json"), as: UTF8.self)
        let streamed = try XCTUnwrap(try streamed(f, text))
        let whole = try whole(f, text)
        XCTAssertEqual(streamed, whole)
        XCTAssertEqual(streamed, ImportSummary(imported: 7))
        XCTAssertEqual(try VisitStore(f.db).count(), 7)

        // Visits per local day of September 2020 (Copenhagen), as the sample's start times give.
        let counts = try f.calendarService.countVisits(in: try XCTUnwrap(YearMonth(year: 2020, month: 9)))
        XCTAssertEqual(counts.values.reduce(0, +), 7)
        XCTAssertEqual(try f.calendarService.document(f.calendar).visitCounts, counts)
    }

    func testAnImportKeepsTheValidRecordsAndSaysWhyEachOtherWasRejected() throws {
        let f = try ServiceFixture()
        let text = #"""
            {"success": true, "data": [
              {"visitId": "ok", "startTimeUtc": "2020-09-10T08:00:00Z", "houseOwnerFirstName": " Ann ", "houseOwnerLastName": "Lee",
               "tasks": [{"title": " Wash ", "timesInMinutes": 20}, {"title": "", "timesInMinutes": 5}, {"title": "Dry"}]},
              7,
              {"visitId": "late", "startTimeUtc": "tomorrow"},
              {"visitId": "north", "startTimeUtc": "2020-09-10T09:00:00Z", "houseOwnerLatitude": 90.5},
              {"visitId": "tasks", "startTimeUtc": "2020-09-10T09:00:00Z", "tasks": ["Wash"]},
              {"visitId": "nostart"},
              {"visitId": 12, "startTimeUtc": "2020-09-10T09:00:00Z"},
              {"startTimeUtc": "2020-09-10T10:00:00+02:00", "visitTimeUsed": 1.5}
            ], "code": 200}
            """#
        let summary = try XCTUnwrap(try streamed(f, text))
        XCTAssertEqual(summary.imported, 2)
        XCTAssertEqual(summary.rejected.map(\.index), [1, 2, 3, 4, 5, 6])
        XCTAssertEqual(summary.rejected.map(\.field), [nil, "startTimeUtc", "houseOwnerLatitude", "tasks[0]", "startTimeUtc", "visitId"])
        XCTAssertEqual(summary.rejected.first?.message, "The record is not an object.")
        XCTAssertTrue(summary.rejected.allSatisfy { !$0.message.isEmpty })
        XCTAssertEqual(try whole(f, text), summary, "read whole, the same records are kept and rejected")

        let stored = try VisitStore(f.db).visits(startingIn: f.clock.dayRange(for: try day("2020-09-10")))
        XCTAssertEqual(stored.map(\.visitId), ["ok", nil])
        let ok = try XCTUnwrap(stored.first)
        XCTAssertEqual(ok.name, "Ann Lee")
        XCTAssertEqual(ok.tasks, "Wash, Dry")
        XCTAssertEqual(ok.taskMinutes, 25)
        XCTAssertNil(stored.last?.timeUsed, "a time used that is not whole minutes is no time used, not a rejection")
    }

    func testDuplicateRecordsAreKeptEachWithItsOwnKey() throws {
        let f = try ServiceFixture()
        let summary = try XCTUnwrap(try streamed(f, #"""
            {"data": [{"visitId": "v", "startTimeUtc": "2020-09-10T08:00:00Z", "houseOwnerFirstName": "One"},
                      {"visitId": "v", "startTimeUtc": "2020-09-10T08:00:00Z", "houseOwnerFirstName": "Two"},
                      {"visitId": "v", "startTimeUtc": "2020-09-10T09:00:00Z", "houseOwnerFirstName": "Three"}]}
            """#))
        XCTAssertEqual(summary, ImportSummary(imported: 3))
        let stored = try VisitStore(f.db).visits(startingIn: f.clock.dayRange(for: try day("2020-09-10")))
        XCTAssertEqual(stored.map(\.name), ["One", "Two", "Three"])
        XCTAssertEqual(stored.map(\.repetition), [0, 1, 0])
        let keys = stored.map { VisitKey(visitId: $0.visitId, start: $0.start, repetition: $0.repetition).text }
        XCTAssertEqual(Set(keys).count, 3)
        XCTAssertEqual(try VisitStore(f.db).visit(try XCTUnwrap(VisitKey(text: keys[1])))?.name, "Two")
    }

    func testAnImportReplacesEveryStoredDay() throws {
        let f = try ServiceFixture()
        _ = try streamed(f, VisitsServiceTests.days)
        XCTAssertEqual(try VisitStore(f.db).count(), 6)
        // A snapshot of the 11th only: the 9th's and 10th's visits are gone, not merged.
        let summary = try whole(f, #"{"data": [{"visitId": "z", "startTimeUtc": "2020-09-11T08:00:00Z"}]}"#)
        XCTAssertEqual(summary, ImportSummary(imported: 1))
        XCTAssertEqual(try f.visits.visitsOn(try day("2020-09-10"), employeeId: nil), [])
        XCTAssertEqual(try f.visits.visitsOn(try day("2020-09-09"), employeeId: nil), [])
        XCTAssertEqual(keys(try f.visits.visitsOn(try day("2020-09-11"), employeeId: nil)), ["z"])
        // An empty data array is a snapshot too: no visits.
        XCTAssertEqual(try streamed(f, #"{"data": []}"#), ImportSummary(imported: 0))
        XCTAssertEqual(try VisitStore(f.db).count(), 0)
    }

    func testCalendarDocumentFollowsANewImport() throws {
        let f = try ServiceFixture()
        let before = try f.calendarService.document(f.calendar)
        _ = try streamed(f, String(decoding: try ServiceFixture.data("carfit.json"), as: UTF8.self))
        XCTAssertNotEqual(try f.calendarService.document(f.calendar), before)
        _ = try whole(f, #"{"data": []}"#)
        XCTAssertEqual(try f.calendarService.document(f.calendar), before)
    }

    /// A document whose every record is rejected is refused, streamed or whole, with the
    /// rejections an import answers, and the stored visits stay.
    func testASnapshotWhoseRecordsWereAllRejectedChangesNothing() throws {
        let f = try ServiceFixture()
        _ = try streamed(f, String(decoding: try ServiceFixture.data("carfit.json"), as: UTF8.self))
        let range = f.clock.dayRange(for: try day("2020-09-10"))
        let stored = try VisitStore(f.db).visits(startingIn: range)
        XCTAssertFalse(stored.isEmpty)
        let texts = [
            #"{"data": [{"startTimeUtc": "yesterday"}]}"#,
            #"{"success": true, "data": [{"startTimeUtc": "yesterday"}, 7, {"visitId": "v"}], "code": 200}"#,
        ]
        for text in texts {
            let streamedRefusal = refusal { () throws(CarFitError) in _ = try streamed(f, text) }
            let wholeRefusal = refusal { () throws(CarFitError) in _ = try whole(f, text) }
            XCTAssertEqual(streamedRefusal, wholeRefusal, text)
            XCTAssertEqual(streamedRefusal?.status, .invalid, text)
            XCTAssertEqual(streamedRefusal?.field, "data", text)
            guard let rejected = streamedRefusal?.details.rejected else { return XCTFail("no rejected list: \(text)") }
            XCTAssertEqual(rejected.first?.index, 0, text)
            XCTAssertEqual(rejected.first?.field, "startTimeUtc", text)
            XCTAssertEqual(try VisitStore(f.db).count(), 7, text)
        }
        let three = refusal { () throws(CarFitError) in _ = try whole(f, texts[1]) }
        guard let rejected = three?.details.rejected else { return XCTFail("no rejected list") }
        XCTAssertEqual(rejected.count, 3)
        XCTAssertEqual(three?.message.hasPrefix("All 3 visits of the document were rejected (data[0].startTimeUtc: "), true,
                       three?.message ?? "")
        XCTAssertEqual(try VisitStore(f.db).visits(startingIn: range).map(\.visitId), stored.map(\.visitId))
        // Not the streamed shape (data twice): declined, nothing stored.
        XCTAssertNil(try streamed(f, #"{"data": [], "data": [{"startTimeUtc": "2020-09-10T08:00:00Z"}]}"#))
        XCTAssertEqual(try VisitStore(f.db).count(), 7)
    }

    /// What an import's caller records with it is committed with it: when the record fails,
    /// the import is rolled back, streamed, whole or from a file.
    func testTheCommitHookRunsInTheImportsTransaction() throws {
        let f = try ServiceFixture()
        _ = try streamed(f, VisitsServiceTests.days)
        let failing = { () throws(CarFitError) -> Void in throw CarFitError(.storage, "The record could not be written.") }
        let replacement = #"{"data": [{"visitId": "z", "startTimeUtc": "2020-09-11T08:00:00Z"}]}"#
        XCTAssertEqual(refusal { () throws(CarFitError) in _ = try streamed(f, replacement, commit: failing) }?.status, .storage)
        XCTAssertEqual(refusal { () throws(CarFitError) in
            _ = try f.visits.importSnapshot(try VisitSnapshot(document: try ServiceFixture.fields(replacement)), commit: failing)
        }?.status, .storage)
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("visits-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("visits.json").path
        try Data(replacement.utf8).write(to: URL(fileURLWithPath: path))
        XCTAssertEqual(refusal { () throws(CarFitError) in _ = try f.visits.importFile(path, commit: failing) }?.status, .storage)
        XCTAssertEqual(try VisitStore(f.db).count(), 6, "every failed record left the stored visits as they were")

        var ran = 0
        XCTAssertEqual(try f.visits.importFile(path, commit: { () throws(CarFitError) in ran += 1 }), ImportSummary(imported: 1))
        XCTAssertEqual(ran, 1)
        XCTAssertEqual(try VisitStore(f.db).count(), 1)
        // A declined document runs the hook once, with the whole read.
        _ = try streamed(f, #"{"data": 5}"#, commit: { () throws(CarFitError) in ran += 1 })
        XCTAssertEqual(ran, 1, "nothing was imported, nothing recorded")
    }

    /// The host's `visits.import` drops the visits source's validators (its next refresh asks
    /// unconditionally) in the import's own transaction: one commit for both, none when the
    /// import fails.
    func testTheHostImportAndItsSourceRecordAreOneTransaction() throws {
        let f = try ServiceFixture()
        let sources = SourcesService(sources: SourceStore(f.db), clock: f.clock, config: CoreConfig(hour24: true, processors: 1).sources)
        let store = SourceStore(f.db)
        func validate() throws {
            try store.recordSuccess("visits", at: f.clock.now, notModified: false,
                                    validators: ("http://127.0.0.1:1/visits", "\"v1\"", nil))
            XCTAssertEqual(try store.state("visits")?.etag, "\"v1\"")
        }
        func hostImport(_ text: String) throws(CarFitError) -> JSON {
            let visits = f.visits
            let result = Array(text.utf8).withUnsafeBytes { bytes in
                Result { () throws(CarFitError) in try VisitsAPI.importVisits(visits, bytes, sources: sources) }
            }
            return try result.get()
        }
        try validate()
        let before = try store.state("visits")
        var commits: [Set<String>] = []
        f.db.onCommit { tables in commits.append(tables) }
        defer { f.db.onCommit(nil) }

        // Failures: all records rejected (streamed), all rejected (read whole), not JSON at all.
        for text in [#"{"data": [{"startTimeUtc": "soon"}]}"#, #"{"data": [5], "data": [6]}"#, #"{"data": ["#] {
            XCTAssertNotNil(refusal { () throws(CarFitError) in _ = try hostImport(text) }, text)
            XCTAssertEqual(try store.state("visits"), before, "a failed import leaves the source's status: \(text)")
        }
        XCTAssertTrue(commits.allSatisfy(\.isEmpty), "a failed import commits nothing: \(commits)")
        XCTAssertEqual(try VisitStore(f.db).count(), 0)

        // Streamed and read whole: the visits and the dropped validators in one commit.
        for text in [VisitsServiceTests.days, #"{"data": [], "data": [{"startTimeUtc": "2020-09-10T08:00:00Z"}]}"#] {
            try validate()
            commits = []
            _ = try hostImport(text)
            XCTAssertEqual(commits.filter { !$0.isEmpty }.count, 1, "one commit, a declined stream none: \(commits)")
            let written = try XCTUnwrap(commits.first { !$0.isEmpty })
            XCTAssertTrue(written.contains("visits") && written.contains("source_state"), "\(written)")
            let state = try store.state("visits")
            XCTAssertNil(state?.etag)
            XCTAssertNil(state?.validatorsURL)
            XCTAssertEqual(state?.lastSuccess, before?.lastSuccess, "the import is no refresh: the status keeps its last success")
        }
    }

    func testRefreshWithoutSourceOrFromAnUnreachableOneKeepsTheStoredVisits() throws {
        let f = try ServiceFixture()
        _ = try streamed(f, String(decoding: try ServiceFixture.data("carfit.json"), as: UTF8.self))
        let none = refusal { () throws(CarFitError) in _ = try SourcesService.configured("visits", nil) }
        XCTAssertEqual(none?.status, .invalid)
        XCTAssertEqual(none?.field, "sources.visits")
        XCTAssertNil(try SourceStore(f.db).state("visits"))
        // Port 1 on the loopback: refused at once.
        let refused = refusal { () throws(CarFitError) in _ = try f.visits.refresh(url: "http://127.0.0.1:1/visits", http: HTTPClient(timeoutMs: 2000), lock: f) }
        XCTAssertEqual(refused?.status, .unavailable)
        XCTAssertEqual(refused?.reason, "refused")
        XCTAssertEqual(refused?.details.url, "http://127.0.0.1:1/visits")
        XCTAssertEqual(f.lockCount, 0, "the core is not held while the network is asked")
        XCTAssertEqual(try VisitStore(f.db).count(), 7)
    }

    // MARK: - List

    func testADaysVisitsAreThoseOfItsLocalDayInStartThenSnapshotOrder() throws {
        let f = try ServiceFixture()
        _ = try streamed(f, VisitsServiceTests.days)
        XCTAssertEqual(keys(try f.visits.visitsOn(try day("2020-09-10"), employeeId: nil)), ["d", "b", "c", "a", "-"])
        XCTAssertEqual(keys(try f.visits.visitsOn(try day("2020-09-10"), employeeId: "e1")), ["d", "c", "a"])
        XCTAssertEqual(keys(try f.visits.visitsOn(try day("2020-09-10"), employeeId: "e2")), ["b"])
        XCTAssertEqual(keys(try f.visits.visitsOn(try day("2020-09-10"), employeeId: "nobody")), [])
        XCTAssertEqual(keys(try f.visits.visitsOn(try day("2020-09-09"), employeeId: nil)), ["e"])

        // The rows the day list is written from: the same order, one employee's when asked.
        var rows: [String] = []
        try f.visits.forEachVisit(startingIn: f.clock.dayRange(for: try day("2020-09-10")), employeeId: "e1") { row in
            rows.append(Visit(row: row).visitId ?? "-")
        }
        // (The range may hold the start of a neighbouring local day: the writer leaves it out.)
        XCTAssertEqual(rows.filter { $0 != "e" }, ["d", "c", "a"])
    }

    func testTheWashersChangesAreLaidOverTheStoredVisits() throws {
        let f = try ServiceFixture()
        _ = try streamed(f, VisitsServiceTests.days)
        let range = f.clock.dayRange(for: try day("2020-09-10"))
        XCTAssertTrue(try f.visits.overlay(startingIn: range).local.isEmpty)
        XCTAssertEqual(try f.visits.presentOverlays(), DayOverlays(shown: false, arrivals: false, attachments: false))

        let a = try XCTUnwrap(try f.visits.visitsOn(try day("2020-09-10"), employeeId: nil).first { $0.visitId == "a" })
        let key = VisitKey(visitId: a.visitId, start: a.start, repetition: a.repetition)
        _ = try f.visits.setState(keyText: key.text, to: .inProgress, reason: nil)
        XCTAssertEqual(try f.visits.presentOverlays().shown, true)
        let overlay = try f.visits.overlay(startingIn: range)
        XCTAssertEqual(overlay.local[key], ShownVisit(state: "InProgress", pending: true, timeUsedMinutes: nil))
        XCTAssertEqual(try f.visits.overlay(startingIn: range, present: DayOverlays(shown: false)).local, [:])
        let shown = try f.visits.visitsOn(try day("2020-09-10"), employeeId: nil)
        XCTAssertEqual(shown.first { $0.visitId == "a" }?.state, "InProgress")
        XCTAssertEqual(shown.first { $0.visitId == "b" }?.state, "InProgress", "the others keep the snapshot's")
        XCTAssertEqual(shown.first { $0.visitId == "c" }?.state, "Done")
        // The stored snapshot itself is unchanged.
        XCTAssertEqual(try VisitStore(f.db).visit(key)?.state, "Todo")
    }

    // MARK: - State changes

    func testAllowedChangesAreRecordedInTheOutboxAndRefusedOnesLeaveNothing() throws {
        let f = try ServiceFixture()
        _ = try streamed(f, VisitsServiceTests.days)
        let visits = try f.visits.visitsOn(try day("2020-09-10"), employeeId: nil)
        func key(_ id: String?) throws -> String {
            let v = try XCTUnwrap(visits.first { $0.visitId == id })
            return VisitKey(visitId: v.visitId, start: v.start, repetition: v.repetition).text
        }
        let sync = SyncStore(f.db)

        let change = try f.visits.setState(keyText: try key("a"), to: .inProgress, reason: nil)
        XCTAssertEqual(change.key.text, try key("a"))
        XCTAssertEqual(change.date, try day("2020-09-10"))
        _ = try f.visits.setState(keyText: try key("a"), to: .done, reason: nil)
        _ = try f.visits.setState(keyText: try key("b"), to: .rejected, reason: "The gate was locked.")
        let outbox = try sync.pending(limit: 10)
        XCTAssertEqual(outbox.map(\.visitId), ["a", "a", "b"])
        XCTAssertEqual(outbox.map(\.state), [.inProgress, .done, .rejected])
        XCTAssertEqual(outbox.map(\.reason), [nil, nil, "The gate was locked."])
        XCTAssertEqual(outbox.first?.start, visits.first { $0.visitId == "a" }?.start)
        XCTAssertEqual(outbox.first?.at, f.clock.now)
        XCTAssertEqual(Set(outbox.map(\.mutationId)).count, 3)

        // Refused: by the rules (conflict), for an unknown key (not_found), a visit without a
        // visitId or a reason too long (invalid); none leaves an outbox row.
        let cases: [(String, VisitState, String?, Status, String)] = [
            (try key("c"), .inProgress, nil, .conflict, "state"),          // Done cannot start again
            (try key("a"), .todo, nil, .conflict, "state"),                // nor can a finished one
            (try key("d"), .done, nil, .conflict, "state"),                // Todo cannot be Done at once
            ("a|1|0", .inProgress, nil, .notFound, "key"),
            ("not a key", .inProgress, nil, .notFound, "key"),
            (try key(nil), .inProgress, nil, .invalid, "key"),
            (try key("d"), .rejected, String(repeating: "x", count: VisitsService.maxReasonLength + 1), .invalid, "reason"),
        ]
        for (keyText, state, reason, status, field) in cases {
            let error = refusal { () throws(CarFitError) in _ = try f.visits.setState(keyText: keyText, to: state, reason: reason) }
            XCTAssertEqual(error?.status, status, "\(keyText) \(state)")
            XCTAssertEqual(error?.field, field, "\(keyText) \(state)")
        }
        XCTAssertEqual(try sync.pendingCount(), 3)
        // A reason of exactly the longest length is taken; InProgress may go back to Todo.
        _ = try f.visits.setState(keyText: try key("d"), to: .inProgress, reason: nil)
        _ = try f.visits.setState(keyText: try key("d"), to: .todo,
                                  reason: String(repeating: "x", count: VisitsService.maxReasonLength))
        XCTAssertEqual(try sync.pendingCount(), 5)
    }

    // MARK: - Plan

    func testThePlanDrivesTheOpenVisitsWithTheirTimes() throws {
        // The 11th is not today: no live start. a and b 10:00 and 10:30 local (UTC+2), c on
        // the way between them but starting last; d is done and e has no position; x is
        // another employee's.
        let f = try ServiceFixture()
        _ = try streamed(f, #"""
            {"data": [
              {"visitId": "a", "homeBobEmployeeId": "e1", "startTimeUtc": "2020-09-11T08:00:00Z", "visitState": "Todo",
               "houseOwnerLatitude": 55.70, "houseOwnerLongitude": 12.50, "tasks": [{"title": "Wash", "timesInMinutes": 30}]},
              {"visitId": "b", "homeBobEmployeeId": "e1", "startTimeUtc": "2020-09-11T08:30:00Z", "visitState": "Todo",
               "houseOwnerLatitude": 55.70, "houseOwnerLongitude": 12.54, "tasks": [{"title": "Wax", "timesInMinutes": 15}]},
              {"visitId": "c", "homeBobEmployeeId": "e1", "startTimeUtc": "2020-09-11T09:00:00Z", "visitState": "InProgress",
               "houseOwnerLatitude": 55.70, "houseOwnerLongitude": 12.52, "tasks": [{"title": "Dry", "timesInMinutes": 10}]},
              {"visitId": "d", "homeBobEmployeeId": "e1", "startTimeUtc": "2020-09-11T07:00:00Z", "visitState": "Done",
               "houseOwnerLatitude": 55.70, "houseOwnerLongitude": 12.60},
              {"visitId": "e", "homeBobEmployeeId": "e1", "startTimeUtc": "2020-09-11T07:30:00Z", "visitState": "Todo"},
              {"visitId": "x", "homeBobEmployeeId": "e2", "startTimeUtc": "2020-09-11T08:00:00Z", "visitState": "Todo",
               "houseOwnerLatitude": 55.80, "houseOwnerLongitude": 12.50}
            ]}
            """#)
        let plan = try f.visits.plan(PlanRequest(date: try day("2020-09-11"), employeeId: "e1",
                                                 start: .init(latitude: 55.70, longitude: 12.50)))
        XCTAssertEqual(plan.stops.map(\.visit.visitId), ["a", "c", "b"], "from a's door, c lies between a and b")
        XCTAssertEqual(plan.skipped.map(\.visitId), ["d", "e"])
        XCTAssertEqual(plan.skipped.map(\.reason), ["state Done", "no coordinates"])
        XCTAssertEqual(plan.startMinute, 600, "the earliest stop's start: 10:00 local")
        XCTAssertLessThan(plan.distanceMeters, plan.originalDistanceMeters)

        // Each stop: travel at 30 km/h over 1.3 × the geodesic metres, then its task minutes.
        var time = 600.0
        var previous = (55.70, 12.50)
        for stop in plan.stops {
            let here = (stop.visit.latitude ?? 0, stop.visit.longitude ?? 0)
            let metres = Double(DaySummary.legMeters(from: previous, to: here) ?? 0)
            time += metres * 1.3 / 500
            XCTAssertEqual(stop.arrivalMinute, Int(time.rounded()), stop.visit.visitId ?? "")
            time += Double(stop.visit.taskMinutes)
            XCTAssertEqual(stop.departureMinute, Int(time.rounded()), stop.visit.visitId ?? "")
            XCTAssertEqual(stop.leg.meters, Int(metres.rounded()))
            previous = here
        }
        // Kept in start order when asked, and from a given start and time.
        var request = PlanRequest(date: try day("2020-09-11"), employeeId: "e1", start: .init(latitude: 55.70, longitude: 12.50),
                                  startMinute: 540)
        request.keepOrder = true
        let kept = try f.visits.plan(request)
        XCTAssertEqual(kept.stops.map(\.visit.visitId), ["a", "b", "c"])
        XCTAssertEqual(kept.startMinute, 540)
        XCTAssertEqual(kept.stops.first?.leg.meters, 0)
        XCTAssertEqual(kept.stops.first?.arrivalMinute, 540)
        // Another employee's day, and a day without visits.
        XCTAssertEqual(try f.visits.plan(PlanRequest(date: try day("2020-09-11"), employeeId: "e2")).stops.map(\.visit.visitId), ["x"])
        let empty = try f.visits.plan(PlanRequest(date: try day("2020-09-12")))
        XCTAssertTrue(empty.stops.isEmpty && empty.skipped.isEmpty)
        XCTAssertNil(empty.startMinute)
    }
}
