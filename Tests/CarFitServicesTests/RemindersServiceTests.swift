@testable import CarFitCore
import CarFitAPI
import CarFitIO
import CarFitServices
import CarFitStore
import XCTest

/// Time to leave, checked against an oracle written here over seeded random days: the origin
/// rules, the position's age, the rounding of travel and of leaveAt, lateness and the order.
final class RemindersServiceTests: XCTestCase {
    func testRandomDaysMatchTheOracle() throws {
        var random = SplitMix64(seed: 0x1EA7E)
        let day0 = ReportServiceTests.day0
        for round in 0..<30 {
            let f = try ServiceFixture()
            var config = RemindersConfig()
            if round % 2 == 1 {
                config.bufferMinutes = Int64(random.below(241))
                config.speedKmh = Double(1 + random.below(120))
                config.detourFactor = 1 + Double(random.below(90)) / 10
                config.positionMaxAgeSeconds = Int64(random.below(3_600))
            }
            // Now: 07:00Z to 13:00Z on 2020-09-10, at any millisecond.
            let now = day0 + 7 * 3_600_000 + Int64(random.below(21_600_000))
            let n = 1 + random.below(30)
            struct Stop { var id: String; var start: Int64; var state: String; var lat: Double?; var lon: Double?; var arrived = false }
            var stops: [Stop] = []
            var records: [String] = []
            for i in 0..<n {
                let start = day0 + 4 * 3_600_000 + Int64(random.below(720)) * 60_000
                let state = ["Todo", "ToDo", "Todo", "Done", "InProgress", "Rejected"][random.below(6)]
                var lat: Double? = 55.6 + Double(random.below(20_000)) / 100_000
                var lon: Double? = 12.4 + Double(random.below(30_000)) / 100_000
                if random.below(6) == 0 { lat = nil; lon = nil }
                stops.append(Stop(id: "r\(i)", start: start, state: state, lat: lat, lon: lon))
                records.append(ReportServiceTests.record(id: "r\(i)", startMs: start, state: state, latitude: lat, longitude: lon,
                                                         name: "N\(i)"))
            }
            try f.importVisits(ReportServiceTests.document(records))
            for i in 0..<n where random.below(5) == 0 {
                stops[i].arrived = true
                try LocationStore(f.db).recordArrival(try XCTUnwrap(VisitKey(text: ReportServiceTests.key(stops[i].id, stops[i].start))),
                                                      at: Instant(milliseconds: stops[i].start))
            }
            // The position: none, or reported around positionMaxAgeSeconds before now (exactly
            // at the limit now and then).
            var position: (lat: Double, lon: Double, at: Int64)?
            if random.below(4) > 0 {
                let limit = config.positionMaxAgeSeconds * 1000
                let age = [limit, limit + 1, limit - 1, Int64(random.below(2_000_000)), 0][random.below(5)]
                position = (55.65 + Double(random.below(1000)) / 10_000, 12.5, now - age)
                try ReportServiceTests.at(f, now - age)
                _ = try LocationService(db: f.db, clock: f.clock, config: RoadConfig())
                    .report(latitude: position?.lat ?? 0, longitude: 12.5, accuracyMeters: 5, at: nil)
            }
            try ReportServiceTests.at(f, now)
            let listed = try RemindersService(visits: f.visits, config: config).list(nil)
            XCTAssertEqual(listed.date.description, "2020-09-10")

            // The oracle.
            let order = (0..<n).sorted { stops[$0].start != stops[$1].start ? stops[$0].start < stops[$1].start : $0 < $1 }
            var expected: [(leave: Int64, key: String, travel: Int64?, metres: Int?, late: Bool)] = []
            var previous: (Double, Double)?
            var first = true
            for i in order {
                let stop = stops[i]
                defer { if let lat = stop.lat, let lon = stop.lon { previous = (lat, lon) } }
                guard let lat = stop.lat, let lon = stop.lon, !stop.arrived, stop.state == "Todo" || stop.state == "ToDo" else { continue }
                var origin = previous
                if first, let p = position, now - p.at <= config.positionMaxAgeSeconds * 1000 { origin = (p.lat, p.lon) }
                first = false
                var travel: Int64?
                var metres: Int?
                if let origin {
                    let d = try XCTUnwrap(Geodesic.distance(latitude1: origin.0, longitude1: origin.1, latitude2: lat, longitude2: lon))
                    metres = Int(d.rounded())
                    travel = Int64((d * config.detourFactor / (config.speedKmh * 1000 / 60)).rounded(.up))
                }
                let leaveExact = stop.start - ((travel ?? 0) + config.bufferMinutes) * 60_000
                let leave = Int64((Double(leaveExact) / 60_000).rounded(.down)) * 60_000
                expected.append((leave, ReportServiceTests.key(stop.id, stop.start), travel, metres, now > leave))
            }
            expected.sort { $0.leave != $1.leave ? $0.leave < $1.leave : Array($0.key.utf8).lexicographicallyPrecedes(Array($1.key.utf8)) }
            XCTAssertEqual(listed.reminders.map(\.card.key.text), expected.map(\.key), "round \(round)")
            XCTAssertEqual(listed.reminders.map(\.leaveAt.milliseconds), expected.map(\.leave), "round \(round)")
            XCTAssertEqual(listed.reminders.map(\.travelMinutes), expected.map(\.travel), "round \(round)")
            XCTAssertEqual(listed.reminders.map(\.distanceMeters), expected.map(\.metres), "round \(round)")
            XCTAssertEqual(listed.reminders.map(\.late), expected.map(\.late), "round \(round)")
        }
    }

    func testARemovedCardIsAnOriginButHasNoReminder() throws {
        let f = try ServiceFixture()
        let (a, b) = (ReportServiceTests.day0 + 8 * 3_600_000, ReportServiceTests.day0 + 9 * 3_600_000)
        try ReportServiceTests.at(f, ReportServiceTests.day0 + 7 * 3_600_000)
        let b1 = ReportServiceTests.record(id: "b", startMs: b, latitude: 55.72, longitude: 12.52)
        try f.importVisits(ReportServiceTests.document([
            ReportServiceTests.record(id: "a", startMs: a, latitude: 55.70, longitude: 12.50), b1,
        ]))
        // a started and put back to Todo: its changes wait for the update server when the
        // planner drops it, so its card stays (removed, Todo).
        try ReportServiceTests.set(f, ReportServiceTests.key("a", a), .inProgress, atMs: a - 120_000)
        try ReportServiceTests.set(f, ReportServiceTests.key("a", a), .todo, atMs: a - 60_000)
        try ReportServiceTests.at(f, ReportServiceTests.day0 + 7 * 3_600_000)
        try f.importVisits(ReportServiceTests.document([b1]))
        let listed = try f.visits.cardsOn(try XCTUnwrap(CivilDate(iso: "2020-09-10")), employeeId: nil)
        XCTAssertEqual(listed.map(\.removed), [true, false])
        XCTAssertEqual(listed.first?.visit.state, "Todo")
        let reminders = try RemindersService(visits: f.visits, config: RemindersConfig()).list(nil).reminders
        XCTAssertEqual(reminders.map(\.card.key.text), [ReportServiceTests.key("b", b)])
        let metres = try XCTUnwrap(Geodesic.distance(latitude1: 55.70, longitude1: 12.50, latitude2: 55.72, longitude2: 12.52))
        XCTAssertEqual(reminders.first?.distanceMeters, Int(metres.rounded()), "the removed card is b's origin")
        XCTAssertEqual(reminders.first?.travelMinutes,
                       LeaveReminders.travelMinutes(metres: metres, config: RemindersConfig()))
    }

    func testAReminderIsWrittenWithItsLinks() throws {
        let f = try ServiceFixture()
        let start = ReportServiceTests.day0 + 9 * 3_600_000
        try f.importVisits(ReportServiceTests.document([
            ReportServiceTests.record(id: "a b/é:@", startMs: start, latitude: 55.77883, longitude: 12.52124, name: "Ann"),
        ]))
        let json = try RemindersAPI.list(RemindersService(visits: f.visits, config: RemindersConfig()),
                                         try ServiceFixture.fields(#"{"date": "2020-09-10"}"#))
        guard case .array(let items)? = json.objectValue?["reminders"], let r = items.first?.objectValue else {
            return XCTFail("no reminder")
        }
        XCTAssertEqual(r["id"], .string("leave:a b/é:@|\(start)|0"))
        XCTAssertEqual(r["title"], "Time to leave")
        XCTAssertEqual(r["body"], "Ann at 11:00, Street a b/é:@")
        XCTAssertEqual(r["deepLink"], .string("carfit://visit/a%20b%2F%C3%A9%3A%40%7C\(start)%7C0"))
        // The link a notification of the same visit carries.
        let key = VisitKey(visitId: "a b/é:@", start: Instant(milliseconds: start))
        let notification = PushNotification(id: "visit:\(key.text)", kind: "visit", title: "Next visit", body: "", key: key)
        XCTAssertEqual(r["deepLink"], .string(try XCTUnwrap(notification.deepLink)))
        XCTAssertEqual(r["travelMinutes"], .null, "the first card has no origin")
        XCTAssertEqual(r["leaveAt"], .string(ReportServiceTests.iso(start - 5 * 60_000)))
        XCTAssertEqual(r["late"], false)
        // The visit's start as its card writes startTimeUtc: to the second.
        XCTAssertEqual(r["arriveBy"], .string(Instant(milliseconds: start).iso))
        XCTAssertEqual(r["arriveBy"], "2020-09-10T09:00:00Z")
        XCTAssertEqual(r["navigation"]?.objectValue?["geo"], "geo:55.77883,12.52124")
        XCTAssertEqual(refusal { () throws(CarFitError) in _ = try RemindersAPI.list(RemindersService(visits: f.visits, config: RemindersConfig()),
                                                           try ServiceFixture.fields(#"{"date": "2020-9-1"}"#)) }?.field, "date")
    }

    /// `arriveBy` is the card's `startTimeUtc` as the card writes it: to the second, also for a
    /// start with a fraction of a second.
    func testArriveByIsTheCardsStartTimeUtc() throws {
        let f = try ServiceFixture()
        let start = ReportServiceTests.day0 + 9 * 3_600_000 + 250
        try f.importVisits(ReportServiceTests.document([
            ReportServiceTests.record(id: "v", startMs: start, latitude: 55.77883, longitude: 12.52124),
        ]))
        let json = try RemindersAPI.list(RemindersService(visits: f.visits, config: RemindersConfig()),
                                         try ServiceFixture.fields(#"{"date": "2020-09-10"}"#))
        guard case .array(let items)? = json.objectValue?["reminders"], let r = items.first?.objectValue else {
            return XCTFail("no reminder")
        }
        XCTAssertEqual(r["arriveBy"], "2020-09-10T09:00:00Z")
        // The card writes its startTimeUtc as the instant's `iso` (DayListWriter).
        let visit = try XCTUnwrap(try f.visits.visitsOn(try XCTUnwrap(CivilDate(iso: "2020-09-10")), employeeId: nil).first)
        XCTAssertEqual(r["arriveBy"], .string(visit.start.iso))
    }
}
