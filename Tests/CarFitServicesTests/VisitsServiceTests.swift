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
        XCTAssertEqual(streamed, ImportSummary(imported: 7, changes: []))
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
        XCTAssertEqual(summary, ImportSummary(imported: 3, changes: []))
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
        XCTAssertEqual(summary.imported, 1)
        XCTAssertEqual(try f.visits.visitsOn(try day("2020-09-10"), employeeId: nil), [])
        XCTAssertEqual(try f.visits.visitsOn(try day("2020-09-09"), employeeId: nil), [])
        XCTAssertEqual(keys(try f.visits.visitsOn(try day("2020-09-11"), employeeId: nil)), ["z"])
        // An empty data array is a snapshot too: no visits.
        XCTAssertEqual(try streamed(f, #"{"data": []}"#)?.imported, 0)
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
        XCTAssertEqual(try f.visits.importFile(path, commit: { () throws(CarFitError) in ran += 1 }).imported, 1)
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
        XCTAssertEqual(try f.visits.presentOverlays(), DayOverlays(shown: false, arrivals: false, attachments: false, conflicts: false, removed: false))

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

    // MARK: - The day list as the host reads it

    static let employee = "85f99bd7-ffd2-4ca7-1174-08d7984a4cf3"

    /// A fixture with the bundled sample (`text` instead, when given) imported.
    func sample(_ text: String? = nil, zone: String = "Europe/Copenhagen", hour24: Bool = true) throws -> ServiceFixture {
        let f = try ServiceFixture(zone: zone, hour24: hour24)
        _ = try f.importVisits(try text ?? ServiceFixture.text("carfit.json"))
        return f
    }

    /// `visits.list` of `request`, parsed.
    func listed(_ f: ServiceFixture, _ request: String) throws -> JSON {
        let bytes = try f.list(request).bytes
        guard case .success(let json) = JanssonParser.parse(bytes: bytes) else { throw CarFitError(.internal, "not JSON") }
        return json
    }

    func days(_ list: JSON) -> [JSONObject] {
        guard case .array(let days)? = list.objectValue?["days"] else { return [] }
        return days.compactMap(\.objectValue)
    }

    func cards(_ day: JSONObject?) -> [JSONObject] {
        guard case .array(let cards)? = day?["visits"] else { return [] }
        return cards.compactMap(\.objectValue)
    }

    /// One member of each card (`"<missing>"` where a card has none).
    func column(_ cards: [JSONObject], _ key: String) -> [JSON] { cards.map { $0[key] ?? "<missing>" } }

    /// The sample document with `edit` applied to its records.
    func sampleText(_ edit: (inout [[String: Any]]) -> Void) throws -> String {
        var document = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(try ServiceFixture.data("carfit.json"))) as? [String: Any])
        var records = try XCTUnwrap(document["data"] as? [[String: Any]])
        edit(&records)
        document["data"] = records
        return String(decoding: try JSONSerialization.data(withJSONObject: document), as: UTF8.self)
    }

    func testTheSampleDaysCardsAndSummary() throws {
        let f = try sample()
        let list = try listed(f, #"{"dates": ["2020-09-10"]}"#)
        XCTAssertEqual(days(list).map { $0["date"] }, ["2020-09-10"])
        let day = days(list).first
        let cards = cards(day)
        XCTAssertEqual(column(cards, "name"), ["Tone Holtermann", "Kenn Jørgensen", "Mads Kolding"])
        XCTAssertEqual(column(cards, "state"), ["Done", "InProgress", "Todo"])
        XCTAssertEqual(column(cards, "stateColor"), ["#25A87B", "#F5C709", "#4E77D6"])
        XCTAssertEqual(column(cards, "nextStates"), [[], ["Todo", "Done", "Rejected"], ["InProgress", "Rejected"]])
        XCTAssertEqual(column(cards, "startTime"), ["10:05", "10:40", "11:15"])
        XCTAssertEqual(column(cards, "startTimeUtc"), ["2020-09-10T08:05:00Z", "2020-09-10T08:40:00Z", "2020-09-10T09:15:00Z"])
        XCTAssertEqual(column(cards, "expectedTime"), ["08:00/10:00", .null, .null])
        XCTAssertEqual(column(cards, "taskMinutes"), [60, 45, 35])
        XCTAssertEqual(column(cards, "employeeId"), Array(repeating: .string(VisitsServiceTests.employee), count: 3))
        XCTAssertEqual(column(cards, "distanceMeters"), [.null, 489, 489])
        XCTAssertEqual(column(cards, "distanceKm"), [.null, 0.5, 0.5])
        XCTAssertEqual(cards.first?["tasks"], "Pudsning indvendig, Pudsning udvendig")
        XCTAssertEqual(cards.first?["address"], "Akademivej 15, 1 th 2800 Kgs. Lyngby")
        XCTAssertEqual(cards.first?["phone"], "+4520934021")
        XCTAssertEqual(cards.first?["latitude"], 55.77883)
        XCTAssertEqual(cards.first?["longitude"], 12.52124)
        let summary = JSON.obj(["visits": 3, "taskMinutes": 140, "distanceMeters": 978, "distanceKm": 1.0])
        XCTAssertEqual(day?["summary"], summary)
        XCTAssertEqual(list.objectValue?["summary"], summary)

        // Every member of a card, in order: Kenn's, the second, as the sample's record gives it.
        let kenn = JSON.obj([
            "visitId": "eefa3ba5-0aa8-42a4-a7b3-cd6d3939473e", "name": "Kenn Jørgensen", "state": "InProgress",
            "stateColor": "#F5C709", "startTime": "10:40", "startTimeUtc": "2020-09-10T08:40:00Z", "expectedTime": .null,
            "tasks": "Pudsning udvendig", "taskMinutes": 45, "address": "Kornagervej 67 2800 Kgs. Lyngby",
            "phone": "+4520441443", "latitude": 55.77453, "longitude": 12.51967, "employeeId": .string(VisitsServiceTests.employee),
            "distanceMeters": 489, "distanceKm": 0.5, "key": "eefa3ba5-0aa8-42a4-a7b3-cd6d3939473e|1599727200000|0",
            "pending": false, "timeUsedMinutes": 0, "arrivedAt": .null, "departedAt": .null, "suggestion": .null,
            "navigation": .obj(["geo": "geo:55.77453,12.51967",
                                "google": "https://www.google.com/maps/dir/?api=1&destination=55.77453,12.51967",
                                "apple": "https://maps.apple.com/?daddr=55.77453,12.51967"]),
            "attachments": .obj(["photos": 0, "signatures": 0, "notes": 0, "pending": 0]),
            "removed": false, "conflict": .null, "nextStates": ["Todo", "Done", "Rejected"],
        ])
        XCTAssertEqual(cards.count, 3)
        XCTAssertEqual(cards.dropFirst().first.map(JSON.object), kenn)
        XCTAssertEqual(cards.dropFirst().first?.keys, kenn.objectValue?.keys)
    }

    func testTwelveHourTimesByTheRequestOrTheClock() throws {
        let f = try sample()
        XCTAssertEqual(column(cards(days(try listed(f, #"{"dates": ["2020-09-10"], "hour24": false}"#)).first), "startTime"),
                       ["10:05 AM", "10:40 AM", "11:15 AM"])
        let twelve = try sample(hour24: false)
        XCTAssertEqual(cards(days(try listed(twelve, #"{"dates": ["2020-09-10"]}"#)).first).first?["startTime"], "10:05 AM")
        XCTAssertEqual(cards(days(try listed(twelve, #"{"dates": ["2020-09-10"], "hour24": true}"#)).first).first?["startTime"], "10:05")
        // The afternoon: the sample's 08:xx UTC starts moved to 12:xx (14:xx in Copenhagen).
        let afternoon = try sample(try sampleText { records in
            for i in records.indices {
                records[i]["startTimeUtc"] = (records[i]["startTimeUtc"] as? String)?.replacingOccurrences(of: "T08:", with: "T12:")
            }
        })
        let times = column(cards(days(try listed(afternoon, #"{"dates": ["2020-09-10"], "hour24": false}"#)).first), "startTime")
        XCTAssertTrue(times.contains("02:05 PM"), "\(times)")
    }

    func testTheAskedDaysOnceEachInOrderWithRepeatedVisitsKept() throws {
        let f = try sample()
        let list = try listed(f, #"{"dates": ["2020-09-11", "2020-09-10", "2020-09-11", "2020-09-12"]}"#)
        XCTAssertEqual(days(list).map { $0["date"] }, ["2020-09-11", "2020-09-10", "2020-09-12"])
        XCTAssertEqual(days(list).map { cards($0).count }, [2, 3, 0])
        XCTAssertEqual(days(list).last?["summary"]?.objectValue?["visits"], 0)
        XCTAssertEqual(list.objectValue?["summary"]?.objectValue?["visits"], 5)
        XCTAssertEqual(list.objectValue?["summary"]?.objectValue?["taskMinutes"], 210)
        // The 11th holds one visit id twice: both kept, the second 0 m from the first.
        let eleventh = cards(days(list).first)
        XCTAssertEqual(eleventh.count, 2)
        XCTAssertEqual(eleventh.first?["visitId"], eleventh.last?["visitId"])
        XCTAssertEqual(column(eleventh, "distanceMeters"), [.null, 0])
    }

    func testTheEmployeeFilterMeasuresBetweenTheKeptCards() throws {
        let f = try sample()
        let mine = try listed(f, #"{"dates": ["2020-09-10"], "employeeId": "\#(VisitsServiceTests.employee)"}"#)
        XCTAssertEqual(mine.objectValue?["summary"]?.objectValue?["visits"], 3)
        let nobody = try listed(f, #"{"dates": ["2020-09-10"], "employeeId": "no-such-employee"}"#)
        XCTAssertEqual(days(nobody).count, 1)
        XCTAssertEqual(cards(days(nobody).first), [])
        XCTAssertEqual(nobody.objectValue?["summary"]?.objectValue?["visits"], 0)
        XCTAssertEqual(nobody.objectValue?["summary"]?.objectValue?["distanceMeters"], 0)

        // Kenn, the middle card, is someone else's.
        let split = try sample(try sampleText { records in records[1]["homeBobEmployeeId"] = "someone-else" })
        let everyone = days(try listed(split, #"{"dates": ["2020-09-10"]}"#)).first
        let own = cards(days(try listed(split, #"{"dates": ["2020-09-10"], "employeeId": "\#(VisitsServiceTests.employee)"}"#)).first)
        let theirs = cards(days(try listed(split, #"{"dates": ["2020-09-10"], "employeeId": "someone-else"}"#)).first)
        XCTAssertEqual(column(own, "name"), ["Tone Holtermann", "Mads Kolding"])
        XCTAssertEqual(column(theirs, "name"), ["Kenn Jørgensen"])
        XCTAssertEqual(everyone?["summary"]?.objectValue?["distanceMeters"], 978)
        // Tone to Mads directly (WGS84 geodesic 595.38 m), not the legs via Kenn.
        XCTAssertEqual(column(own, "distanceMeters"), [.null, 595])
        XCTAssertEqual(column(theirs, "distanceMeters"), [.null])
    }

    func testStateSpellingsTheLocalDayAndNonASCIIText() throws {
        let utc = try sample(#"""
            {"data": [{"startTimeUtc": "2020-09-10T00:00:00", "visitState": "ToDo"},
                      {"startTimeUtc": "2020-09-10T01:00:00", "visitState": "in_progress"},
                      {"startTimeUtc": "2020-09-10T02:00:00", "visitState": "DONE"},
                      {"startTimeUtc": "2020-09-10T03:00:00", "visitState": "rejected"},
                      {"startTimeUtc": "2020-09-10T04:00:00", "visitState": "Paused"}]}
            """#, zone: "UTC")
        let states = cards(days(try listed(utc, #"{"dates": ["2020-09-10"]}"#)).first)
        XCTAssertEqual(column(states, "state"), ["Todo", "InProgress", "Done", "Rejected", "Paused"])
        XCTAssertEqual(column(states, "stateColor"), ["#4E77D6", "#F5C709", "#25A87B", "#EF6565", "#8E8E93"])

        // 23:30 UTC is 01:30 on the 11th in Copenhagen.
        let late = try sample(#"{"data": [{"startTimeUtc": "2020-09-10T23:30:00Z"}]}"#)
        let both = days(try listed(late, #"{"dates": ["2020-09-10", "2020-09-11"]}"#))
        XCTAssertEqual(both.map { cards($0).count }, [0, 1])
        XCTAssertEqual(cards(both.last).first?["startTime"], "01:30")

        let named = try sample(#"""
            {"data": [{"startTimeUtc": "2020-09-10T08:00:00", "houseOwnerFirstName": "Søren",
                       "houseOwnerLastName": "Ærø 🚗", "houseOwnerCity": "København"}]}
            """#)
        let card = cards(days(try listed(named, #"{"dates": ["2020-09-10"]}"#)).first).first
        XCTAssertEqual(card?["name"], "Søren Ærø 🚗")
        XCTAssertEqual(card?["address"], "København")
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
        // visitId (invalid); none leaves an outbox row. (A reason too long is the request's:
        // the boundary refuses it against the schema.)
        let cases: [(String, VisitState, String?, Status, String)] = [
            (try key("c"), .inProgress, nil, .conflict, "state"),          // Done cannot start again
            (try key("a"), .todo, nil, .conflict, "state"),                // nor can a finished one
            (try key("d"), .done, nil, .conflict, "state"),                // Todo cannot be Done at once
            ("a|1|0", .inProgress, nil, .notFound, "key"),
            ("not a key", .inProgress, nil, .notFound, "key"),
            (try key(nil), .inProgress, nil, .invalid, "key"),
        ]
        for (keyText, state, reason, status, field) in cases {
            let error = refusal { () throws(CarFitError) in _ = try f.visits.setState(keyText: keyText, to: state, reason: reason) }
            XCTAssertEqual(error?.status, status, "\(keyText) \(state)")
            XCTAssertEqual(error?.field, field, "\(keyText) \(state)")
        }
        XCTAssertEqual(try sync.pendingCount(), 3)
        // InProgress may go back to Todo, with a reason.
        _ = try f.visits.setState(keyText: try key("d"), to: .inProgress, reason: nil)
        _ = try f.visits.setState(keyText: try key("d"), to: .todo, reason: String(repeating: "x", count: 1_000))
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

    func minutes(_ json: JSON?) -> Int {
        guard case .string(let text)? = json else { return -1 }
        let parts = text.split(separator: ":").compactMap { Int($0) }
        return parts.count == 2 ? parts[0] * 60 + parts[1] : -1
    }

    func stops(_ plan: JSON) -> [JSONObject] {
        guard case .array(let stops)? = plan.objectValue?["stops"] else { return [] }
        return stops.compactMap(\.objectValue)
    }

    func testTheSampleDaysPlan() throws {
        let f = try sample()
        let plan = try f.plan(#"{"date": "2020-09-10"}"#)
        let p = try XCTUnwrap(plan.objectValue)
        XCTAssertEqual(p["date"], "2020-09-10")
        XCTAssertEqual(p["startTime"], "10:40", "the earliest open visit, 08:40Z in Copenhagen")
        let two = stops(plan)
        XCTAssertEqual(column(two, "name"), ["Kenn Jørgensen", "Mads Kolding"])
        XCTAssertEqual(column(two, "arrival"), ["10:40", "11:26"])
        // 489 m × 1.3 at 30 km/h = 1.27 minutes after 11:25.
        XCTAssertEqual(column(two, "departure"), ["11:25", "12:01"])
        XCTAssertEqual(column(two, "distanceMeters"), [0, 489])
        XCTAssertEqual(column(two, "waitMinutes"), [0, 0])
        XCTAssertEqual(column(two, "lateMinutes"), [0, 0])
        XCTAssertEqual(p["distanceMeters"], 489)
        XCTAssertEqual(p["originalDistanceMeters"], 489)
        XCTAssertEqual(p["lateStops"], 0)
        XCTAssertEqual(p["skipped"], .array([.obj(["visitId": "799d7830-a5ff-4a0b-b571-9052df6a2e64", "reason": "state Done",
                                                   "name": "Tone Holtermann"])]))

        // From a start point and time, at 15 km/h without detour: metres / 250 a minute.
        let from = try f.plan(#"{"date": "2020-09-10", "start": {"latitude": 55.77, "longitude": 12.52}, "startTime": "07:30", "speedKmh": 15, "detourFactor": 1}"#)
        let legs = stops(from)
        XCTAssertEqual(from.objectValue?["startTime"], "07:30")
        XCTAssertEqual(legs.count, 2)
        guard case .int(let first)? = legs.first?["distanceMeters"], case .int(let second)? = legs.last?["distanceMeters"],
              case .int(let total)? = from.objectValue?["distanceMeters"],
              case .int(let original)? = from.objectValue?["originalDistanceMeters"] else { return XCTFail("no metres") }
        XCTAssertGreaterThan(first, 0)
        XCTAssertEqual(minutes(legs.first?["arrival"]), 450 + Int((Double(first) / 250).rounded()))
        XCTAssertEqual(total, first + second)
        XCTAssertGreaterThanOrEqual(original, total)

        // Other days and employees.
        XCTAssertEqual(column(stops(try f.plan(#"{"date": "2020-09-30"}"#)), "visitId"),
                       ["ec94deca-d66a-4d62-b049-72414870de00", "ec94deca-d66a-4d62-b049-72414870de00"])
        XCTAssertEqual(stops(try f.plan(#"{"date": "2020-09-10", "employeeId": "\#(VisitsServiceTests.employee)"}"#)).count, 2)
        let nobody = try f.plan(#"{"date": "2020-09-10", "employeeId": "nobody"}"#).objectValue
        XCTAssertEqual(nobody?["stops"], .array([]))
        XCTAssertEqual(nobody?["skipped"], .array([]))
        XCTAssertEqual(nobody?["startTime"], .null)
        let empty = try f.plan(#"{"date": "2021-01-01"}"#).objectValue
        XCTAssertEqual(empty?["stops"], .array([]))
        XCTAssertEqual(empty?["distanceMeters"], 0)
        XCTAssertEqual(empty?["originalDistanceMeters"], 0)
    }

    func testThePlansTimesPastMidnightKeepCounting() throws {
        let f = try ServiceFixture(now: "2020-09-10T05:00:00Z", zone: "UTC")
        try f.importVisits(#"""
            {"data": [
              {"visitId": "v1", "startTimeUtc": "2020-09-10T22:00:00Z", "visitState": "ToDo", "houseOwnerLatitude": 55.7,
               "houseOwnerLongitude": 12.5, "tasks": [{"title": "Wash", "timesInMinutes": 90}]},
              {"visitId": "v2", "startTimeUtc": "2020-09-10T23:00:00Z", "visitState": "ToDo", "houseOwnerLatitude": 55.7,
               "houseOwnerLongitude": 12.5, "tasks": [{"title": "Wash", "timesInMinutes": 90}]}
            ]}
            """#)
        let plan = stops(try f.plan(#"{"date": "2020-09-10"}"#))
        XCTAssertEqual(column(plan, "arrival"), ["22:00", "23:30"])
        XCTAssertEqual(column(plan, "departure"), ["23:30", "25:00"])
    }

    /// `n` open visits around Copenhagen on 2020-09-10, starts 07:00-17:00 UTC in order, half with
    /// a two-hour window when `windows`; as a visits document.
    func generatedDay(_ n: Int, seed: UInt64, windows: Bool) -> (text: String, minutes: [String: Int]) {
        var state = seed &+ 0x9E37_79B9_7F4A_7C15
        func next() -> UInt64 {  // SplitMix64
            state = state &+ 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return z ^ (z >> 31)
        }
        func uniform(_ low: Double, _ high: Double) -> Double { low + (high - low) * Double(next() >> 11) / Double(1 << 53) }
        var records: [String] = []
        var minutes: [String: Int] = [:]
        for i in 0..<n {
            let minute = 7 * 60 + i * 600 / max(n, 1)
            var expected = "null"
            if windows && next() % 2 == 0 {
                let h = max(7, minute / 60 - Int(next() % 2))
                expected = "\"\(h < 10 ? "0" : "")\(h):00/\(h + 2 < 10 ? "0" : "")\(h + 2):00\""
            }
            let task = 10 + Int(next() % 51)
            minutes["v\(i)"] = task
            let start = String(format: "2020-09-10T%02d:%02d:00Z", minute / 60, minute % 60)
            records.append(#"{"visitId": "v\#(i)", "homeBobEmployeeId": "w1", "startTimeUtc": "\#(start)", "#
                + #""visitState": "\#(next() % 2 == 0 ? "ToDo" : "InProgress")", "expectedTime": \#(expected), "#
                + #""houseOwnerLatitude": \#(uniform(55.6, 55.8)), "houseOwnerLongitude": \#(uniform(12.4, 12.6)), "#
                + #""tasks": [{"title": "Wash", "timesInMinutes": \#(task)}]}"#)
        }
        return (#"{"data": [\#(records.joined(separator: ", "))]}"#, minutes)
    }

    /// Generated days, with and without windows and a start point: the plan is deterministic,
    /// visits every open visit once, is never longer than the start-time order (shorter from
    /// 9 stops on) with no more late stops, and its times add up stop by stop.
    func testAPlanIsNeverLongerThanTheStartTimeOrderAndItsTimesAddUp() throws {
        let cases: [(Int, Bool, String?)] = [
            (5, false, nil), (9, false, #"{"latitude": 55.7, "longitude": 12.5}"#), (9, true, nil), (12, false, nil),
            (30, false, #"{"latitude": 55.7, "longitude": 12.5}"#), (30, true, #"{"latitude": 55.65, "longitude": 12.45}"#),
            (120, true, nil), (200, false, nil),
        ]
        for (n, windows, start) in cases {
            let label = "n=\(n) windows=\(windows) start=\(start ?? "none")"
            let f = try ServiceFixture(now: "2020-09-10T05:00:00Z", zone: "UTC")
            let day = generatedDay(n, seed: UInt64(n * 7 + (windows ? 1 : 0)), windows: windows)
            try f.importVisits(day.text)
            let request = start.map { #"{"date": "2020-09-10", "start": \#($0)}"# } ?? #"{"date": "2020-09-10"}"#
            let plan = try f.plan(request)
            XCTAssertEqual(try f.plan(request), plan, "plans are deterministic: \(label)")
            let p = try XCTUnwrap(plan.objectValue)
            let all = stops(plan)
            func int(_ json: JSON?) -> Int { if case .int(let v)? = json { Int(v) } else { -1 } }
            XCTAssertEqual(all.compactMap { if case .string(let id)? = $0["visitId"] { id } else { nil } }.sorted(),
                           day.minutes.keys.sorted(), label)
            let distance = int(p["distanceMeters"]), original = int(p["originalDistanceMeters"])
            XCTAssertEqual(distance, all.map { int($0["distanceMeters"]) }.reduce(0, +), label)
            XCTAssertLessThanOrEqual(distance, original, label)
            XCTAssertEqual(int(p["savedMeters"]), original - distance, label)
            XCTAssertLessThanOrEqual(int(p["lateStops"]), int(p["originalLateStops"]), label)
            XCTAssertEqual(int(p["lateStops"]), all.filter { int($0["lateMinutes"]) > 0 }.count, label)
            if n >= 9 { XCTAssertLessThan(distance, original, label) }
            if start == nil { XCTAssertEqual(int(all.first?["distanceMeters"]), 0, label) }
            XCTAssertEqual(all.contains { $0["window"] != .null }, windows, "windows where asked for: \(label)")
            var clock = minutes(p["startTime"])
            for stop in all {
                let arrival = minutes(stop["arrival"]), departure = minutes(stop["departure"])
                XCTAssertGreaterThanOrEqual(arrival, clock - 1, "times only move forward: \(label)")
                XCTAssertEqual(departure, arrival + int(stop["serviceMinutes"]), label)
                if case .string(let id)? = stop["visitId"] { XCTAssertEqual(int(stop["serviceMinutes"]), day.minutes[id], label) }
                if case .string(let window)? = stop["window"] {
                    let bounds = window.split(separator: "/").map { minutes(.string(String($0))) }
                    XCTAssertGreaterThanOrEqual(arrival, bounds.first ?? .max, label)
                    XCTAssertEqual(int(stop["lateMinutes"]), max(0, arrival - (bounds.last ?? 0)), label)
                } else {
                    XCTAssertEqual(int(stop["waitMinutes"]), 0, label)
                    XCTAssertEqual(int(stop["lateMinutes"]), 0, label)
                }
                clock = departure
            }
        }
    }
}
