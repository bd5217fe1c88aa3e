import CarFitSystem
import CarFitCore
import CarFitHTTP
import CarFitNet
import CarFitIO
import CarFitServices
import CarFitStore
import XCTest

/// The washer on the road, in-process: reports through the service on a stored day, the trail,
/// arrivals and departures on the cards, autoStart's outbox entry, the refusals, the plan from
/// the position.
final class LocationServiceTests: XCTestCase {
    /// Two of today's visits 1.1 km apart and one of tomorrow at the first one's address.
    static let document = #"""
        {"data": [{"visitId": "a", "startTimeUtc": "2020-09-10T08:00:00Z", "visitState": "ToDo",
                   "houseOwnerLatitude": 55.7, "houseOwnerLongitude": 12.5, "houseOwnerFirstName": "Ann"},
                  {"visitId": "b", "startTimeUtc": "2020-09-10T09:00:00Z", "visitState": "Todo",
                   "houseOwnerLatitude": 55.71, "houseOwnerLongitude": 12.5, "houseOwnerFirstName": "Bo"},
                  {"visitId": "c", "startTimeUtc": "2020-09-11T08:00:00Z", "visitState": "Todo",
                   "houseOwnerLatitude": 55.7, "houseOwnerLongitude": 12.5, "houseOwnerFirstName": "Cy"}]}
        """#
    static let keyA = "a|1599724800000|0"
    static let keyB = "b|1599728400000|0"
    static let keyC = "c|1599811200000|0"

    func fixture(_ road: RoadConfig = RoadConfig()) throws -> (ServiceFixture, LocationService) {
        let f = try ServiceFixture()
        _ = try f.importVisits(LocationServiceTests.document)
        return (f, LocationService(db: f.db, clock: f.clock, config: road))
    }

    /// A report `north` metres (about: 1e-5° of latitude is 1.11 m) north of visit a, `seconds`
    /// after 07:00Z.
    @discardableResult
    func report(_ s: LocationService, north: Double, seconds: Int, accuracy: Double = 5,
                latitude: Double = 55.7) throws(CarFitError) -> LocationService.Reported {
        let at = Instant(milliseconds: 1_599_721_200_000 + Int64(seconds) * 1000)
        return try s.report(latitude: latitude + north / 111_200, longitude: 12.5, accuracyMeters: accuracy, at: at)
    }

    func cards(_ f: ServiceFixture, _ date: String = "2020-09-10") throws -> [String: JSONObject] {
        let text = try f.list(#"{"dates": ["\#(date)"]}"#).bytes
        guard case .success(let json) = JanssonParser.parse(bytes: text),
              case .array(let days)? = json.objectValue?["days"], case .array(let cards)? = days.first?.objectValue?["visits"]
        else { throw CarFitError(.internal, "no cards") }
        var out: [String: JSONObject] = [:]
        for card in cards { if let o = card.objectValue, case .string(let key)? = o["key"] { out[key] = o } }
        return out
    }

    func testTheFirstCountingReportIsStoredAndIsThePosition() throws {
        let (_, s) = try fixture()
        XCTAssertNil(try s.status().position)
        let answer = try report(s, north: 500, seconds: 0)
        XCTAssertTrue(answer.stored)
        XCTAssertEqual(answer.arrived, [])
        XCTAssertEqual(answer.position.map { OutboxMutation.iso($0.at) }, "2020-09-10T07:00:00Z")
        XCTAssertEqual(answer.position?.accuracyMeters, 5.0)
        let status = try s.status()
        XCTAssertEqual(status.position, answer.position)
        XCTAssertEqual([status.stored, status.pending], [1, 1])
        XCTAssertNil(status.lastPushAt)
    }

    func testTheTrailKeepsOnlySignificantPositions() throws {
        let (_, s) = try fixture()
        var stored: [Int] = []
        // Standing 500 m away for ten minutes, a report every 10 s, then moving 30 m.
        for seconds in stride(from: 0, through: 600, by: 10) where try report(s, north: 500, seconds: seconds).stored {
            stored.append(seconds)
        }
        XCTAssertEqual(stored, [0, 300, 600])
        XCTAssertEqual(try report(s, north: 510, seconds: 610).stored, false)
        XCTAssertEqual(try report(s, north: 530, seconds: 620).stored, true)
        XCTAssertEqual(try [s.status().stored, s.status().pending], [4, 4])
    }

    func testInaccurateReportsAreAnsweredAndChangeNothingElse() throws {
        let (f, s) = try fixture()
        try report(s, north: 500, seconds: 0)
        for seconds in [10, 40, 80] {
            let answer = try report(s, north: 0, seconds: seconds, accuracy: 100.5)
            XCTAssertFalse(answer.stored)
            XCTAssertEqual(answer.arrived, [])
            XCTAssertEqual(answer.position.map { OutboxMutation.iso($0.at) }, "2020-09-10T07:00:00Z")
        }
        XCTAssertEqual(try [s.status().stored, s.status().pending], [1, 1])
        XCTAssertEqual(try cards(f)[LocationServiceTests.keyA]?["arrivedAt"], .null)
        // At exactly maxAccuracyMeters a report counts.
        XCTAssertEqual(try report(s, north: 0, seconds: 90, accuracy: 100).stored, true)
    }

    func testRefusedReportsChangeNothing() throws {
        let (_, s) = try fixture()
        try report(s, north: 500, seconds: 60)
        let before = try s.status()
        XCTAssertEqual(refusal { () throws(CarFitError) in try self.report(s, north: 0, seconds: 59) }?.field, "at")
        XCTAssertEqual(refusal { () throws(CarFitError) in try self.report(s, north: 0, seconds: 59, accuracy: 500) }?.field, "at")
        XCTAssertEqual(try s.status(), before)
        // An equal instant is accepted.
        XCTAssertEqual(try report(s, north: 0, seconds: 60).stored, true)
    }

    func testDwellOfFiftyNineSecondsIsNoArrivalSixtyIsOneAndLeavingIsTheDeparture() throws {
        let (f, s) = try fixture()
        try report(s, north: 10, seconds: 0)
        XCTAssertEqual(try report(s, north: 20, seconds: 59).arrivals.count, 0)
        XCTAssertEqual(try cards(f)[LocationServiceTests.keyA]?["arrivedAt"], .null)
        let arrived = try report(s, north: 30, seconds: 60)
        XCTAssertEqual(arrived.arrived.map(\.text), [LocationServiceTests.keyA])
        XCTAssertEqual(arrived.arrivals.map(\.key.text), [LocationServiceTests.keyA])
        var card = try XCTUnwrap(try cards(f)[LocationServiceTests.keyA])
        XCTAssertEqual(card["arrivedAt"], "2020-09-10T07:01:00Z")
        XCTAssertEqual(card["departedAt"], .null)
        XCTAssertEqual(card["suggestion"], "start")
        XCTAssertEqual(card["state"], "Todo")
        XCTAssertEqual(try cards(f)[LocationServiceTests.keyB]?["suggestion"], .null)
        // Tomorrow's visit at the same address is no candidate.
        XCTAssertEqual(try cards(f, "2020-09-11")[LocationServiceTests.keyC]?["arrivedAt"], .null)
        // Started by hand, then left: the suggestion is to finish.
        _ = try f.setState(#"{"key": "\#(LocationServiceTests.keyA)", "state": "InProgress"}"#)
        XCTAssertEqual(try cards(f)[LocationServiceTests.keyA]?["suggestion"], .null)
        XCTAssertEqual(try report(s, north: 149, seconds: 90).departures.count, 0)
        let left = try report(s, north: 152, seconds: 100)
        XCTAssertEqual(left.departed.map(\.text), [LocationServiceTests.keyA])
        card = try XCTUnwrap(try cards(f)[LocationServiceTests.keyA])
        XCTAssertEqual(card["departedAt"], "2020-09-10T07:01:40Z")
        XCTAssertEqual(card["suggestion"], "finish")
        // Back again: a visit arrives once.
        try report(s, north: 0, seconds: 200)
        XCTAssertEqual(try report(s, north: 0, seconds: 300).arrivals.count, 0)
        XCTAssertEqual(try cards(f)[LocationServiceTests.keyA]?["arrivedAt"], "2020-09-10T07:01:00Z")
    }

    func testVisitsWithTheSameAddressArriveOneAReportEarliestFirst() throws {
        let f = try ServiceFixture()
        _ = try f.importVisits(#"""
            {"data": [{"visitId": "z", "startTimeUtc": "2020-09-10T10:00:00Z", "visitState": "Todo",
                       "houseOwnerLatitude": 55.7, "houseOwnerLongitude": 12.5},
                      {"visitId": "y", "startTimeUtc": "2020-09-10T10:00:00Z", "visitState": "Todo",
                       "houseOwnerLatitude": 55.7, "houseOwnerLongitude": 12.5},
                      {"visitId": "x", "startTimeUtc": "2020-09-10T11:00:00Z", "visitState": "Todo",
                       "houseOwnerLatitude": 55.7, "houseOwnerLongitude": 12.5}]}
            """#)
        let s = LocationService(db: f.db, clock: f.clock, config: RoadConfig())
        try report(s, north: 0, seconds: 0)
        let order = try [60, 61, 62, 63].map { seconds throws(CarFitError) in try report(s, north: 0, seconds: seconds).arrivals.map(\.key.visitId) }
        XCTAssertEqual(order, [["y"], ["z"], ["x"], []])
    }

    func testAutoStartStartsTheVisitThroughTheOutboxAtTheArrival() throws {
        var road = RoadConfig()
        road.autoStart = true
        let (f, s) = try fixture(road)
        try report(s, north: 0, seconds: 0)
        try report(s, north: 0, seconds: 60)
        let card = try XCTUnwrap(try cards(f)[LocationServiceTests.keyA])
        XCTAssertEqual(card["state"], "InProgress")
        XCTAssertEqual(card["pending"], true)
        XCTAssertEqual(card["suggestion"], .null)
        let outbox = try SyncStore(f.db).pending(limit: 10)
        XCTAssertEqual(outbox.count, 1)
        XCTAssertEqual(outbox.first?.visitId, "a")
        XCTAssertEqual(outbox.first?.state, .inProgress)
        XCTAssertEqual(outbox.first?.at, Instant(milliseconds: 1_599_721_260_000))
        XCTAssertTrue(UUIDv4.isValid(outbox.first?.mutationId ?? ""))
        // Finishing measures from the arrival.
        f.clock = try Clock(zoneName: "Europe/Copenhagen", fixedNow: Instant(milliseconds: 1_599_721_260_000 + 30 * 60_000))
        let answer = try f.setState(#"{"key": "\#(LocationServiceTests.keyA)", "state": "Done"}"#)
        XCTAssertEqual(try cards(f)[LocationServiceTests.keyA]?["timeUsedMinutes"], 30)
        // The changed card carries the road's members as the list does.
        guard case .success(let json) = JanssonParser.parse(bytes: answer.bytes), let card = json.objectValue?["visit"]?.objectValue
        else { return XCTFail("no card") }
        XCTAssertEqual(card["arrivedAt"], "2020-09-10T07:01:00Z")
        XCTAssertEqual(card["navigation"]?.objectValue?["geo"], "geo:55.7,12.5")
    }

    func testAPushOfPointsThatCannotConnectKeepsThemPendingAndBacksOff() throws {
        let (f, s) = try fixture()
        try report(s, north: 500, seconds: 0)
        try report(s, north: 600, seconds: 10)
        let lock = PushLock(database: ":memory:")
        let client = HTTPClient(limits: HTTPLimits(timeoutMs: 2000, totalTimeoutMs: 5000))
        let service = SyncService(db: f.db, clock: f.clock,
                                  setup: PushSetup(visitUpdates: nil, locations: "http://127.0.0.1:1/l", client: client,
                                                   pushLock: lock, waitMs: 1000))
        let failure = refusal { () throws(CarFitError) in _ = try service.push(ifDue: false, lock: f) }
        XCTAssertEqual(failure?.status, .unavailable)
        XCTAssertEqual(failure?.reason, "refused")
        XCTAssertEqual(try [s.status().stored, s.status().pending], [2, 2])
        XCTAssertNil(try s.status().lastPushAt)
        XCTAssertEqual(try service.status().state.consecutiveFailures, 1)
        let skipped = try service.push(ifDue: true, lock: f)
        XCTAssertEqual(skipped.skipped.map { if case .backoff = $0 { true } else { false } }, true)
        let nowhere = SyncService(db: f.db, clock: f.clock,
                                  setup: PushSetup(visitUpdates: nil, locations: nil, client: client, pushLock: lock, waitMs: 0))
        XCTAssertEqual(refusal { () throws(CarFitError) in _ = try nowhere.push(ifDue: false, lock: f) }?.field, "sources.visitUpdates")
    }

    func testTheAreasOfTheRoadTables() {
        XCTAssertEqual(StoredAreas.areas(of: ["road_arrivals"]), ["visits", "location"])
        XCTAssertEqual(StoredAreas.areas(of: ["road_points", "road_state", "road_dwell"]), ["location"])
    }
}

/// Today's plan from the position and the clock: the live estimates.
final class LivePlanTests: XCTestCase {
    static func items(_ json: JSON) -> [JSON]? { if case .array(let a) = json { return a }; return nil }

    func plan(_ f: ServiceFixture, _ text: String) throws -> JSONObject {
        try XCTUnwrap(try f.plan(text).objectValue)
    }

    func testTodaysPlanStartsFromTheReportedPositionAndTheLaterOfNowAndTheFirstStart() throws {
        // 08:20:30Z is 10:20:30 in Copenhagen; a starts at 10:00 local, b at 11:00.
        let f = try ServiceFixture(now: "2020-09-10T08:20:30Z")
        _ = try f.importVisits(LocationServiceTests.document)
        var plan = try self.plan(f, #"{"date": "2020-09-10"}"#)
        XCTAssertEqual(plan["startTime"], "10:20", "now, rounded down, is later than the first start (10:00)")
        XCTAssertEqual(plan["stops"].flatMap(LivePlanTests.items)?.first?.objectValue?["distanceMeters"], 0)
        let s = LocationService(db: f.db, clock: f.clock, config: RoadConfig())
        _ = try s.report(latitude: 55.72, longitude: 12.5, accuracyMeters: 5, at: nil)
        plan = try self.plan(f, #"{"date": "2020-09-10"}"#)
        let stops = try XCTUnwrap(plan["stops"].flatMap(LivePlanTests.items))
        // From 55.72 the nearer stop (b, 1113 m; a is 2227 m: GeodSolve) comes first unless the order is kept.
        XCTAssertEqual(stops.first?.objectValue?["visitId"], "b")
        XCTAssertEqual(stops.first?.objectValue?["distanceMeters"], 1113)
        let kept = try self.plan(f, #"{"date": "2020-09-10", "keepOrder": true}"#)
        let keptIds: [JSON] = kept["stops"].flatMap(LivePlanTests.items)?.compactMap { $0.objectValue?["visitId"] } ?? []
        XCTAssertEqual(keptIds, ["a", "b"])
        XCTAssertEqual(kept["optimized"], false)
        XCTAssertEqual(kept["stops"].flatMap(LivePlanTests.items)?.first?.objectValue?["distanceMeters"], 2227)
        // A given start and startTime win; another day ignores the position and the clock.
        XCTAssertEqual(try self.plan(f, #"{"date": "2020-09-10", "startTime": "07:30"}"#)["startTime"], "07:30")
        let tomorrow = try self.plan(f, #"{"date": "2020-09-11"}"#)
        XCTAssertEqual(tomorrow["startTime"], "10:00")
        XCTAssertEqual(tomorrow["stops"].flatMap(LivePlanTests.items)?.first?.objectValue?["distanceMeters"], 0)
    }

    func testAPositionOfAnotherDayIsNotTheStart() throws {
        let f = try ServiceFixture(now: "2020-09-10T06:00:00Z")
        _ = try f.importVisits(LocationServiceTests.document)
        let s = LocationService(db: f.db, clock: f.clock, config: RoadConfig())
        _ = try s.report(latitude: 55.72, longitude: 12.5, accuracyMeters: 5, at: Instant(iso: "2020-09-09T20:00:00Z"))
        let plan = try self.plan(f, #"{"date": "2020-09-10"}"#)
        XCTAssertEqual(plan["startTime"], "10:00", "the first start is later than now (08:00)")
        XCTAssertEqual(plan["stops"].flatMap(LivePlanTests.items)?.first?.objectValue?["distanceMeters"], 0)
    }
}
