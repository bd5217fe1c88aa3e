import CarFitCore
import CarFitIO
import CarFitNet
import CarFitServices
import CarFitStore
import XCTest

final class VisitsServiceTests: XCTestCase {
    func testStreamedAndWholeImportsAgreeAndCalendarCountsThem() throws {
        let f = try ServiceFixture()
        let document = try ServiceFixture.data("carfit.json")
        let streamed = try document.withUnsafeBytes { bytes throws(CarFitError) in try f.visits.importVisits(bytes) }
        let whole = try f.visits.importVisits(try document.withUnsafeBytes { bytes throws(CarFitError) in try JanssonParser.object(bytes) })
        XCTAssertEqual(streamed, whole)
        XCTAssertEqual(streamed.objectValue?["imported"], 7)
        XCTAssertEqual(try VisitStore(f.db).count(), 7)

        // Visits per local day of September 2020 (Copenhagen), as the sample's start times give.
        let counts = try f.calendarService.countVisits(in: try XCTUnwrap(YearMonth(year: 2020, month: 9)))
        XCTAssertEqual(counts.values.reduce(0, +), 7)
        XCTAssertEqual(try f.calendarService.document(f.calendar).visitCounts, counts)
    }

    func testCalendarDocumentFollowsANewImport() throws {
        let f = try ServiceFixture()
        let before = try f.calendarService.document(f.calendar)
        let document = try ServiceFixture.data("carfit.json")
        _ = try document.withUnsafeBytes { bytes throws(CarFitError) in try f.visits.importVisits(bytes) }
        XCTAssertNotEqual(try f.calendarService.document(f.calendar), before)
        _ = try f.visits.importVisits(try ServiceFixture.fields(#"{"data": []}"#))
        XCTAssertEqual(try f.calendarService.document(f.calendar), before)
    }

    func testRefreshWithoutSourceOrFromAnUnreachableOneKeepsTheStoredVisits() throws {
        let f = try ServiceFixture()
        let document = try ServiceFixture.data("carfit.json")
        _ = try document.withUnsafeBytes { bytes throws(CarFitError) in try f.visits.importVisits(bytes) }
        let none = refusal { () throws(CarFitError) in _ = try SourcesService.configured("visits", nil) }
        XCTAssertEqual(none?.status, .invalid)
        XCTAssertEqual(none?.field, "sources.visits")
        XCTAssertNil(try SourceStore(f.db).state("visits"))
        // Port 1 on the loopback: refused at once.
        let refused = refusal { () throws(CarFitError) in _ = try f.visits.refresh(url: "http://127.0.0.1:1/visits", http: HTTPClient(timeoutMs: 2000), lock: f) }
        XCTAssertEqual(refused?.status, .unavailable)
        XCTAssertEqual(refused?.extra["reason"], "refused")
        XCTAssertEqual(refused?.extra["url"], "http://127.0.0.1:1/visits")
        XCTAssertEqual(f.lockCount, 0, "the core is not held while the network is asked")
        XCTAssertEqual(try VisitStore(f.db).count(), 7)
    }

    /// `text` imported as the boundary hands a request over: its bytes, streamed.
    func streamedImport(_ f: ServiceFixture, _ text: String) throws(CarFitError) -> JSON {
        let result = Array(text.utf8).withUnsafeBytes { bytes in
            Result { () throws(CarFitError) in try f.visits.importVisits(bytes) }
        }
        return try result.get()
    }

    /// A document whose every record is rejected is refused, streamed or whole, with the
    /// rejections an import answers, and the stored visits stay; an empty one is a snapshot.
    func testASnapshotWhoseRecordsWereAllRejectedChangesNothing() throws {
        let f = try ServiceFixture()
        let sample = try ServiceFixture.data("carfit.json")
        _ = try sample.withUnsafeBytes { bytes throws(CarFitError) in try f.visits.importVisits(bytes) }
        let stored = try VisitStore(f.db).visits(startingIn: f.clock.dayRange(for: try XCTUnwrap(CivilDate(iso: "2020-09-10"))),
                                                 employeeId: nil)
        XCTAssertFalse(stored.isEmpty)
        let texts = [
            #"{"data": [{"startTimeUtc": "yesterday"}]}"#,
            #"{"success": true, "data": [{"startTimeUtc": "yesterday"}, 7, {"visitId": "v"}], "code": 200}"#,
            // Not the streamed shape (data twice): parsed whole, the same rule.
            #"{"data": [], "data": [{"startTimeUtc": "yesterday"}]}"#,
        ]
        for text in texts {
            let streamed = refusal { () throws(CarFitError) in _ = try streamedImport(f, text) }
            let whole = refusal { () throws(CarFitError) in _ = try f.visits.importVisits(try ServiceFixture.fields(text)) }
            XCTAssertEqual(streamed, whole, text)
            XCTAssertEqual(streamed?.status, .invalid, text)
            XCTAssertEqual(streamed?.field, "data", text)
            guard case .array(let rejected)? = streamed?.extra["rejected"] else { return XCTFail("no rejected list: \(text)") }
            XCTAssertEqual(rejected.first?.objectValue?["index"], 0, text)
            XCTAssertEqual(rejected.first?.objectValue?["field"], "startTimeUtc", text)
            XCTAssertEqual(try VisitStore(f.db).count(), 7, text)
        }
        let three = refusal { () throws(CarFitError) in
            _ = try f.visits.importVisits(try ServiceFixture.fields(texts[1]))
        }
        guard case .array(let rejected)? = three?.extra["rejected"] else { return XCTFail("no rejected list") }
        XCTAssertEqual(rejected.count, 3)
        XCTAssertEqual(three?.message.hasPrefix("All 3 visits of the document were rejected (data[0].startTimeUtc: "), true,
                       three?.message ?? "")
        XCTAssertEqual(three?.message.hasSuffix("so the stored visits are unchanged."), true)
        let stillStored = try VisitStore(f.db).visits(startingIn: f.clock.dayRange(for: try XCTUnwrap(CivilDate(iso: "2020-09-10"))),
                                                      employeeId: nil)
        XCTAssertEqual(stillStored.map(\.visitId), stored.map(\.visitId))

        // One valid record is a snapshot: it replaces the stored visits.
        let one = #"{"data": [{"startTimeUtc": "yesterday"}, {"startTimeUtc": "2020-09-10T08:00:00Z"}]}"#
        let answer = try streamedImport(f, one)
        XCTAssertEqual(answer.objectValue?["imported"], 1)
        XCTAssertEqual(try VisitStore(f.db).count(), 1)
        // An empty data array is a snapshot too: no visits.
        let empty = try streamedImport(f, #"{"data": []}"#)
        XCTAssertEqual(empty.objectValue?["imported"], 0)
        XCTAssertEqual(try VisitStore(f.db).count(), 0)
    }

    func testListWritesTheAskedDaysInOrder() throws {
        let f = try ServiceFixture()
        let document = try ServiceFixture.data("carfit.json")
        _ = try document.withUnsafeBytes { bytes throws(CarFitError) in try f.visits.importVisits(bytes) }
        let text = String(decoding: try f.visits.list(try ServiceFixture.fields(#"{"dates": ["2020-09-11", "2020-09-10", "2020-09-11"]}"#),
                                                      selected: []).bytes, as: UTF8.self)
        let parsed = try ServiceFixture.fields(text)
        guard case .array(let days)? = parsed.value("days") else { return XCTFail(text) }
        XCTAssertEqual(days.map { $0.objectValue?["date"] }, ["2020-09-11", "2020-09-10"])
        let bad = refusal { () throws(CarFitError) in _ = try f.visits.list(try ServiceFixture.fields(#"{"dates": ["2020-02-30"]}"#), selected: []) }
        XCTAssertEqual(bad?.field, "dates[0]")
    }
}
