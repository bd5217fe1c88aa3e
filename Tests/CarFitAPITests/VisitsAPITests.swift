import CarFitSystem
import CarFitAPI
import CarFitCore
import CarFitIO
import CarFitServices
import CarFitStore
import XCTest

/// The visits requests read from their documents (each refusal naming its field), and the
/// documents of their answers.
final class VisitsAPITests: XCTestCase {
    private func date(_ iso: String) throws -> CivilDate { try XCTUnwrap(CivilDate(iso: iso)) }

    private func copenhagen(_ now: String = "2020-09-10T07:00:00Z") throws -> Clock {
        try Clock(zoneName: "Europe/Copenhagen", fixedNow: try XCTUnwrap(Instant(iso: now)))
    }

    private func parse(_ buffer: consuming JSONBuffer) throws -> JSON {
        let bytes = buffer.bytes
        guard case .success(let json) = JanssonParser.parse(bytes: bytes) else {
            throw CarFitError(.internal, "not JSON: \(String(decoding: bytes, as: UTF8.self))")
        }
        return json
    }

    // MARK: - Requests

    func testTheListRequestReadsItsDaysOnceEachInOrder() throws {
        let empty = try VisitsListRequest(fields([:]))
        XCTAssertNil(empty.dates)
        XCTAssertNil(empty.employeeId)
        XCTAssertNil(empty.hour24)
        let r = try VisitsListRequest(fields(["dates": ["2020-09-11", "2020-09-10", "2020-09-11"], "employeeId": "e1", "hour24": false]))
        XCTAssertEqual(r.dates, [try date("2020-09-11"), try date("2020-09-10")])
        XCTAssertEqual(r.employeeId, "e1")
        XCTAssertEqual(r.hour24, false)
        XCTAssertEqual(try VisitsListRequest(fields(["dates": []])).dates, [])

        refused("dates[0]") { () throws(CarFitError) in _ = try VisitsListRequest(self.fields(["dates": ["2020-02-30"]])) }
        refused("dates[1]") { () throws(CarFitError) in _ = try VisitsListRequest(self.fields(["dates": ["2020-09-10", "10/09/2020"]])) }
        refused("dates[0]") { () throws(CarFitError) in _ = try VisitsListRequest(self.fields(["dates": [20200910]])) }
        refused("dates") { () throws(CarFitError) in _ = try VisitsListRequest(self.fields(["dates": "2020-09-10"])) }
        refused("employeeId") { () throws(CarFitError) in _ = try VisitsListRequest(self.fields(["employeeId": 7])) }
        refused("hour24") { () throws(CarFitError) in _ = try VisitsListRequest(self.fields(["hour24": "yes"])) }
    }

    func testTheSetStateRequestTakesTheFourStatesOnly() throws {
        let r = try SetStateRequest(fields(["key": "a|1599724800000|0", "state": "InProgress", "reason": "Started early."]))
        XCTAssertEqual(r.key, "a|1599724800000|0")
        XCTAssertEqual(r.state, .inProgress)
        XCTAssertEqual(r.reason, "Started early.")
        XCTAssertNil(try SetStateRequest(fields(["key": "k", "state": "Rejected"])).reason)
        for state in ["Todo", "InProgress", "Done", "Rejected"] {
            XCTAssertEqual(try SetStateRequest(fields(["key": "k", "state": .string(state)])).state.rawValue, state)
        }
        refused("key") { () throws(CarFitError) in _ = try SetStateRequest(self.fields(["state": "Done"])) }
        refused("key") { () throws(CarFitError) in _ = try SetStateRequest(self.fields(["key": 5, "state": "Done"])) }
        refused("state") { () throws(CarFitError) in _ = try SetStateRequest(self.fields(["key": "k"])) }
        refused("state") { () throws(CarFitError) in _ = try SetStateRequest(self.fields(["key": "k", "state": "in progress"])) }
        refused("state") { () throws(CarFitError) in _ = try SetStateRequest(self.fields(["key": "k", "state": "Paused"])) }
        refused("reason") { () throws(CarFitError) in _ = try SetStateRequest(self.fields(["key": "k", "state": "Done", "reason": 1])) }
    }

    func testThePlanRequestDefaults() throws {
        let r = try PlanRequest(fields(["date": "2020-09-10"]))
        XCTAssertEqual(r, PlanRequest(date: try date("2020-09-10")))
        XCTAssertEqual(r.speedKmh, 30)
        XCTAssertEqual(r.detourFactor, 1.3)
        XCTAssertFalse(r.keepOrder)
        XCTAssertEqual(r.minutesPerMeter, 1.3 / 500, accuracy: 1e-15)
        let full = try PlanRequest(fields(["date": "2020-09-10", "employeeId": "e1", "startTime": "07:30", "speedKmh": 300,
                                           "detourFactor": 1, "start": .obj(["latitude": -90, "longitude": 180.0]), "keepOrder": true]))
        XCTAssertEqual(full.employeeId, "e1")
        XCTAssertEqual(full.startMinute, 450)
        XCTAssertEqual(full.start, PlanRequest.Point(latitude: -90, longitude: 180))
        XCTAssertEqual(full.speedKmh, 300)
        XCTAssertEqual(full.detourFactor, 1)
        XCTAssertTrue(full.keepOrder)
        XCTAssertEqual(try PlanRequest(fields(["date": "2020-09-10", "detourFactor": 10, "speedKmh": 0.5])).detourFactor, 10)
    }

    /// (The ranges of start's coordinates, speedKmh and detourFactor are the schema's: the
    /// boundary's `RequestCheck` refuses them, see `RequestCheckTests`.)
    func testThePlanRequestsRefusalsNameTheField() {
        let cases: [(KeyValuePairs<String, JSON>, String)] = [
            ([:], "date"),
            (["date": .null], "date"),
            (["date": 20200910], "date"),
            (["date": "2020-02-30"], "date"),
            (["date": "10/09/2020"], "date"),
            (["date": "2020-09-10", "employeeId": 5], "employeeId"),
            (["date": "2020-09-10", "start": "home"], "start"),
            (["date": "2020-09-10", "start": .obj([:])], "start.latitude"),
            (["date": "2020-09-10", "start": .obj(["latitude": 55])], "start.longitude"),
            (["date": "2020-09-10", "start": .obj(["longitude": 12])], "start.latitude"),
            (["date": "2020-09-10", "start": .obj(["latitude": "55", "longitude": 12])], "start.latitude"),
            (["date": "2020-09-10", "startTime": "24:00"], "startTime"),
            (["date": "2020-09-10", "startTime": "7h30"], "startTime"),
            (["date": "2020-09-10", "startTime": 730], "startTime"),
            (["date": "2020-09-10", "speedKmh": "fast"], "speedKmh"),
            (["date": "2020-09-10", "detourFactor": true], "detourFactor"),
            (["date": "2020-09-10", "keepOrder": "yes"], "keepOrder"),
        ]
        for (pairs, field) in cases {
            refused(field) { () throws(CarFitError) in _ = try PlanRequest(self.fields(pairs)) }
        }
    }

    func testAnImportReadWholeIsItsDocumentOrAFile() throws {
        guard case .file("/tmp/visits.json") = try VisitsImportRequest(fields(["file": "/tmp/visits.json"])) else {
            return XCTFail("a file")
        }
        // data wins over file.
        guard case .document(let snapshot) = try VisitsImportRequest(fields(["file": "/tmp/visits.json", "data": .array([])])) else {
            return XCTFail("a document")
        }
        XCTAssertEqual(snapshot.summary, ImportSummary(imported: 0))
        guard case .document(let two) = try VisitsImportRequest(fields([
            "data": .array([.obj(["startTimeUtc": "2020-09-10T08:00:00Z"]), 5, .obj(["startTimeUtc": "2020-09-10T09:00:00Z"])]),
        ])) else { return XCTFail("a document") }
        XCTAssertEqual(two.visits.count, 2)
        XCTAssertEqual(two.summary.rejected, [Rejection(index: 1, field: nil, message: "The record is not an object.")])
        refused("data") { () throws(CarFitError) in _ = try VisitsImportRequest(self.fields([:])) }
        refused("data") { () throws(CarFitError) in _ = try VisitsImportRequest(self.fields(["data": .obj([:])])) }
        refused("data") { () throws(CarFitError) in _ = try VisitsImportRequest(self.fields(["data": .array([5])])) }
        refused("file") { () throws(CarFitError) in _ = try VisitsImportRequest(self.fields(["file": 5])) }
    }

    // MARK: - Answers

    func testTheImportAnswer() {
        let summary = ImportSummary(imported: 2, rejected: [Rejection(index: 1, field: nil, message: "The record is not an object."),
                                                            Rejection(index: 3, field: "startTimeUtc", message: "Bad.")])
        XCTAssertEqual(summary.json.encoded(),
                       #"{"imported":2,"rejected":[{"index":1,"field":null,"message":"The record is not an object."},"#
                       + #"{"index":3,"field":"startTimeUtc","message":"Bad."}]}"#)
        XCTAssertEqual(ImportSummary(imported: 0).json.encoded(), #"{"imported":0,"rejected":[]}"#)
        // A refresh that stored a document answers the import's answer.
        XCTAssertEqual(RefreshAnswer(.stored(summary)).json, summary.json)
        XCTAssertEqual(RefreshAnswer<ImportSummary>(.notModified).json.encoded(), #"{"imported":0,"notModified":true}"#)
    }

    func testTheDayListsParts() {
        XCTAssertEqual(DaySummary(visits: 3, taskMinutes: 95, distanceMeters: 3550).json.encoded(),
                       #"{"visits":3,"taskMinutes":95,"distanceMeters":3550,"distanceKm":3.6}"#)
        XCTAssertEqual(AttachmentCounts(photos: 2, signatures: 1, notes: 0, pending: 1).json.encoded(),
                       #"{"photos":2,"signatures":1,"notes":0,"pending":1}"#)
    }

    func testThePlanAnswer() throws {
        let clock = try copenhagen()
        func visit(_ id: String, _ utc: String, state: String?, at: (Double, Double)?, expected: String? = nil) throws -> Visit {
            Visit(visitId: id, employeeId: "e1", start: try XCTUnwrap(Instant(iso: utc)), name: "Owner " + id, state: state,
                  expectedTime: expected, tasks: "Wash", taskMinutes: 30, address: "", phone: nil,
                  latitude: at?.0, longitude: at?.1)
        }
        let plan = try DayPlan(request: PlanRequest(date: try date("2020-09-10")), visits: [
            try visit("done", "2020-09-10T06:00:00Z", state: "Done", at: (55.78, 12.52)),
            try visit("a", "2020-09-10T06:30:00Z", state: "Todo", at: (55.78, 12.52)),
            try visit("b", "2020-09-10T08:00:00Z", state: "InProgress", at: (55.77, 12.51), expected: "08:00-10:00"),
        ], clock: clock)
        guard case .object(let json) = plan.json, case .array(let stops)? = json["stops"],
              case .object(let stop)? = stops.last else { return XCTFail("shape") }
        XCTAssertEqual(json.keys, ["date", "startTime", "stops", "distanceMeters", "originalDistanceMeters", "savedMeters",
                                   "lateStops", "originalLateStops", "optimized", "skipped"])
        XCTAssertEqual(stop.keys, ["visitId", "name", "arrival", "departure", "waitMinutes", "lateMinutes", "distanceMeters",
                                   "travelMinutes", "serviceMinutes", "window", "expectedTime", "state", "latitude", "longitude"])
        XCTAssertEqual(json["date"], "2020-09-10")
        XCTAssertEqual(json["startTime"], "08:30")
        XCTAssertEqual(json["skipped"], .array([.obj(["visitId": "done", "reason": "state Done", "name": "Owner done"])]))
        XCTAssertEqual(stops.first?.objectValue?["arrival"], "08:30")
        XCTAssertEqual(stops.first?.objectValue?["departure"], "09:00")
        XCTAssertEqual(stop["visitId"], "b")
        XCTAssertEqual(stop["expectedTime"], "08:00-10:00")
        XCTAssertEqual(stop["window"], .null, "a malformed window is none")
        XCTAssertEqual(stop["state"], "InProgress")
        XCTAssertEqual(stop["latitude"], 55.77)
        XCTAssertEqual(stop["serviceMinutes"], 30)

        let empty = try DayPlan(request: PlanRequest(date: try date("2020-09-10")), visits: [], clock: clock)
        guard case .object(let none) = empty.json else { return XCTFail("shape") }
        XCTAssertEqual(none["startTime"], .null)
        XCTAssertEqual(none["stops"], .array([]))
        XCTAssertEqual(none["optimized"], .bool(empty.optimized))
    }

    // MARK: - Through a service

    static let document = #"""
        {"data": [
          {"visitId": "a", "homeBobEmployeeId": "e1", "startTimeUtc": "2020-09-10T08:00:00Z", "visitState": "Todo",
           "houseOwnerLatitude": 55.70, "houseOwnerLongitude": 12.50, "tasks": [{"title": "Wash", "timesInMinutes": 30}]},
          {"visitId": "b", "homeBobEmployeeId": "e2", "startTimeUtc": "2020-09-10T06:00:00Z", "visitState": "Todo"},
          {"visitId": "c", "homeBobEmployeeId": "e1", "startTimeUtc": "2020-09-11T06:00:00Z", "visitState": "Todo"},
          {"startTimeUtc": "soon"}
        ]}
        """#

    func service() throws -> VisitsService {
        VisitsService(db: try Database(path: ":memory:"), clock: try copenhagen(), importThreads: 0)
    }

    func importVisits(_ service: VisitsService, _ text: String) throws(CarFitError) -> JSON {
        let result = Array(text.utf8).withUnsafeBytes { bytes in
            Result { () throws(CarFitError) in try VisitsAPI.importVisits(service, bytes) }
        }
        return try result.get()
    }

    func testTheOperationsAnswerTheirDocuments() throws {
        let s = try service()
        XCTAssertEqual(try importVisits(s, VisitsAPITests.document).encoded(),
                       #"{"imported":3,"rejected":[{"index":3,"field":"startTimeUtc","#
                       + #""message":"startTimeUtc \"soon\" is not a valid ISO 8601 date and time."}],"changes":[]}"#)
        // A document the streamed reader declines is read whole: the same answer.
        XCTAssertEqual(try importVisits(s, #"{"data": [], "data": [{"startTimeUtc": "2020-09-10T08:00:00Z"}]}"#).encoded(),
                       #"{"imported":1,"rejected":[],"changes":["#
                       + #"{"change":"removed","visitId":"b","key":"b|1599717600000|0","name":"","startTimeUtc":"2020-09-10T06:00:00Z","previousStartTimeUtc":null,"fields":[]},"#
                       + #"{"change":"removed","visitId":"a","key":"a|1599724800000|0","name":"","startTimeUtc":"2020-09-10T08:00:00Z","previousStartTimeUtc":null,"fields":[]},"#
                       + #"{"change":"removed","visitId":"c","key":"c|1599804000000|0","name":"","startTimeUtc":"2020-09-11T06:00:00Z","previousStartTimeUtc":null,"fields":[]}]}"#)
        _ = try importVisits(s, VisitsAPITests.document)

        // The asked days once each, in the asked order; one employee's cards.
        let list = try parse(try VisitsAPI.list(s, fields(["dates": ["2020-09-11", "2020-09-10", "2020-09-11"]]), selected: []))
        guard case .array(let days)? = list.objectValue?["days"] else { return XCTFail("no days") }
        XCTAssertEqual(days.map { $0.objectValue?["date"] }, ["2020-09-11", "2020-09-10"])
        func ids(_ day: JSON?) -> [JSON?] {
            guard case .array(let cards)? = day?.objectValue?["visits"] else { return [] }
            return cards.map { $0.objectValue?["visitId"] }
        }
        XCTAssertEqual(ids(days.last), ["b", "a"])
        XCTAssertEqual(list.objectValue?["summary"]?.objectValue?["visits"], 3)
        let mine = try parse(try VisitsAPI.list(s, fields(["dates": ["2020-09-10"], "employeeId": "e1"]), selected: []))
        guard case .array(let myDays)? = mine.objectValue?["days"] else { return XCTFail("no days") }
        XCTAssertEqual(ids(myDays.first), ["a"])
        // Without dates: the calendar's selection.
        let selected = try parse(try VisitsAPI.list(s, fields([:]), selected: [try date("2020-09-11")]))
        guard case .array(let selectedDays)? = selected.objectValue?["days"] else { return XCTFail("no days") }
        XCTAssertEqual(ids(selectedDays.first), ["c"])
        refused("dates[0]") { () throws(CarFitError) in _ = try VisitsAPI.list(s, self.fields(["dates": ["2020-13-01"]]), selected: []) }

        // set_state answers the changed card as the list shows it.
        guard case .array(let cards)? = days.last?.objectValue?["visits"], let a = cards.last?.objectValue,
              case .string(let key)? = a["key"] else { return XCTFail("no card") }
        let answer = try parse(try VisitsAPI.setState(s, fields(["key": .string(key), "state": "InProgress"])))
        guard let card = answer.objectValue?["visit"]?.objectValue else { return XCTFail("no card") }
        XCTAssertEqual(answer.objectValue?.keys, ["visit"])
        XCTAssertEqual(card["key"], .string(key))
        XCTAssertEqual(card["state"], "InProgress")
        XCTAssertEqual(card["pending"], true)
        XCTAssertEqual(card.keys, a.keys, "the card has the list's members")
        let relisted = try parse(try VisitsAPI.list(s, fields(["dates": ["2020-09-10"]]), selected: []))
        guard case .array(let after)? = relisted.objectValue?["days"],
              case .array(let afterCards)? = after.first?.objectValue?["visits"] else { return XCTFail("no days") }
        XCTAssertEqual(afterCards.last, .object(card))
        refused("state") { () throws(CarFitError) in _ = try VisitsAPI.setState(s, self.fields(["key": .string(key), "state": "Started"])) }
        let conflict = refusal { () throws(CarFitError) in _ = try VisitsAPI.setState(s, self.fields(["key": .string(key), "state": "InProgress"])) }
        XCTAssertEqual(conflict?.status, .conflict)

        // The plan of a day that is not today.
        let plan = try VisitsAPI.plan(s, fields(["date": "2020-09-11"]))
        XCTAssertEqual(plan.objectValue?["date"], "2020-09-11")
        XCTAssertEqual(plan.objectValue?["skipped"], .array([.obj(["visitId": "c", "reason": "no coordinates", "name": ""])]))
        refused("date") { () throws(CarFitError) in _ = try VisitsAPI.plan(s, self.fields([:])) }
    }

    private func refusal(_ body: () throws(CarFitError) -> Void) -> CarFitError? {
        do throws(CarFitError) {
            try body()
            return nil
        } catch {
            return error
        }
    }
}
