import XCTest

@testable import CarFitCore

/// The road rules: reading a report, the trail, arrivals, departures and
/// the card's suggestion and navigation links.
final class RoadTests: XCTestCase {
    /// Degrees of longitude along the equator for `metres`: the equator is a geodesic, so the
    /// distance between two of its points is exactly a·Δλ (GeographicLib gives the same).
    static func east(_ metres: Double) -> Double { metres / 6_378_137 * 180 / Double.pi }

    static let base = Instant(milliseconds: 1_599_724_800_000)  // 2020-09-10T08:00:00Z

    func report(_ metresEast: Double, _ seconds: Double, lat: Double = 0, accuracy: Double = 5) -> LocationReport {
        LocationReport(latitude: lat, longitude: 10 + RoadTests.east(metresEast), accuracyMeters: accuracy,
                       at: Instant(milliseconds: RoadTests.base.milliseconds + Int64(seconds * 1000)))
    }

    func visit(_ id: String, startMinute: Int64 = 0, metresEast: Double = 0, candidate: Bool = true) -> ArrivalRule.Visit {
        ArrivalRule.Visit(key: VisitKey(visitId: id, start: Instant(milliseconds: RoadTests.base.milliseconds + startMinute * 60_000)),
                          latitude: 0, longitude: 10 + RoadTests.east(metresEast), isCandidate: candidate)
    }

    // MARK: Reports

    func testAnInstantWithoutAZoneIsNoReportTime() {
        XCTAssertTrue(LocationReport.hasZone("2020-09-10T10:00:00+02:00"))
        XCTAssertTrue(LocationReport.hasZone("2020-09-10T08:00:00Z"))
        XCTAssertFalse(LocationReport.hasZone("2020-09-10T08:00:00"))
        XCTAssertFalse(LocationReport.hasZone("2020-09-10"))
    }

    // MARK: The trail

    func testTheTrailKeepsTheFirstThenTwentyMetresOrFiveMinutes() {
        let config = RoadConfig()
        XCTAssertTrue(TrailRule.stores(report(0, 0), after: nil, config: config))
        let last = TrailRule.Point(latitude: 0, longitude: 10, at: RoadTests.base)
        XCTAssertFalse(TrailRule.stores(report(19.99, 10), after: last, config: config))
        XCTAssertTrue(TrailRule.stores(report(20.001, 10), after: last, config: config))
        XCTAssertTrue(TrailRule.stores(report(-20.001, 10), after: last, config: config))
        XCTAssertFalse(TrailRule.stores(report(0, 299.999), after: last, config: config))
        XCTAssertTrue(TrailRule.stores(report(0, 300), after: last, config: config))
        XCTAssertFalse(TrailRule.stores(report(0, 0), after: last, config: config))
    }

    func testTheTrailMeasuresGeodesicsNotDegrees() {
        // A degree of longitude is 111 km at the equator and 64 km at
        // 55° north (GeodSolve: 6.399413 m for 0.0001°): 20 m east is more degrees up north.
        let config = RoadConfig()
        let north = TrailRule.Point(latitude: 55, longitude: 12, at: RoadTests.base)
        let nearby = LocationReport(latitude: 55, longitude: 12 + RoadTests.east(20), accuracyMeters: 5,
                                    at: Instant(milliseconds: RoadTests.base.milliseconds + 1000))
        XCTAssertFalse(TrailRule.stores(nearby, after: north, config: config))
        let metres = Geo.distance(55, 12, 55, 12.0001)
        XCTAssertEqual(metres ?? 0, 6.399413, accuracy: 0.000001)
    }

    /// Points a hair inside and outside each threshold of the rules, 37° east of north from
    /// Mads Kolding's address (55.7765, 12.5127), by GeographicLib's direct problem:
    /// `echo "55.7765 12.5127 37 <metres>" | GeodSolve -p 12`.
    static let fromMads: [(metres: Double, latitude: Double, longitude: Double)] = [
        (19.999, 55.776643454428644, 12.512891797451321),
        (20.001, 55.776643468774786, 12.512891816632095),
        (74.999, 55.777037972273064, 12.513419274081683),
        (75.001, 55.777037986619121, 12.513419293262835),
        (149.999, 55.777575947463582, 12.514138577570110),
        (150.001, 55.777575961809525, 12.514138596751796),
    ]

    func testEachThresholdAgainstGeographicLib() throws {
        func point(_ metres: Double, _ seconds: Int64) throws -> LocationReport {
            let p = try XCTUnwrap(RoadTests.fromMads.first { $0.metres == metres })
            return LocationReport(latitude: p.latitude, longitude: p.longitude, accuracyMeters: 5,
                                  at: Instant(milliseconds: RoadTests.base.milliseconds + seconds * 1000))
        }
        for p in RoadTests.fromMads {
            XCTAssertEqual(Geo.distance(55.7765, 12.5127, p.latitude, p.longitude) ?? 0, p.metres, accuracy: 1e-6)
        }
        let mads = TrailRule.Point(latitude: 55.7765, longitude: 12.5127, at: RoadTests.base)
        XCTAssertFalse(TrailRule.stores(try point(19.999, 1), after: mads, config: RoadConfig()))
        XCTAssertTrue(TrailRule.stores(try point(20.001, 1), after: mads, config: RoadConfig()))
        let visit = ArrivalRule.Visit(key: VisitKey(visitId: "m", start: RoadTests.base), latitude: 55.7765,
                                      longitude: 12.5127, isCandidate: true)
        // 75.001 m is outside: the span restarts; 74.999 m is inside.
        var step = ArrivalRule.step(try point(74.999, 0), visits: [visit], config: RoadConfig())
        step = ArrivalRule.step(try point(75.001, 30), visits: step.visits, config: RoadConfig())
        step = ArrivalRule.step(try point(74.999, 60), visits: step.visits, config: RoadConfig())
        XCTAssertNil(step.arrived)
        step = ArrivalRule.step(try point(74.999, 120), visits: step.visits, config: RoadConfig())
        XCTAssertEqual(step.arrived, visit.key)
        step = ArrivalRule.step(try point(149.999, 130), visits: step.visits, config: RoadConfig())
        XCTAssertEqual(step.departed, [])
        step = ArrivalRule.step(try point(150.001, 140), visits: step.visits, config: RoadConfig())
        XCTAssertEqual(step.departed, [visit.key])
    }

    // MARK: Arrivals

    func testDwellAtFiftyNineSecondsIsNoArrivalAtSixtyItIs() {
        var visits = [visit("a")]
        var step = ArrivalRule.step(report(10, 0), visits: visits, config: RoadConfig())
        XCTAssertNil(step.arrived)
        XCTAssertEqual(step.visits[0].insideSince, RoadTests.base)
        visits = step.visits
        step = ArrivalRule.step(report(20, 59.999), visits: visits, config: RoadConfig())
        XCTAssertNil(step.arrived)
        visits = step.visits
        step = ArrivalRule.step(report(30, 60), visits: visits, config: RoadConfig())
        XCTAssertEqual(step.arrived, visits[0].key)
        XCTAssertEqual(step.visits[0].arrivedAt, report(0, 60).at)
    }

    func testAReportOutsideTheRadiusRestartsTheSpan() {
        var visits = [visit("a")]
        for (metres, seconds) in [(0.0, 0.0), (75.01, 30.0), (74.99, 40.0), (0.0, 99.0)] {
            let step = ArrivalRule.step(report(metres, seconds), visits: visits, config: RoadConfig())
            XCTAssertNil(step.arrived, "at \(seconds) s")
            visits = step.visits
        }
        XCTAssertEqual(ArrivalRule.step(report(0, 100), visits: visits, config: RoadConfig()).arrived, visits[0].key)
    }

    func testOnlyCandidatesArriveButEveryVisitKeepsItsSpan() {
        var visits = [visit("done", candidate: false)]
        var step = ArrivalRule.step(report(0, 0), visits: visits, config: RoadConfig())
        step = ArrivalRule.step(report(0, 60), visits: step.visits, config: RoadConfig())
        XCTAssertNil(step.arrived)
        visits = step.visits
        visits[0].isCandidate = true
        XCTAssertEqual(ArrivalRule.step(report(0, 61), visits: visits, config: RoadConfig()).arrived, visits[0].key)
    }

    func testOneArrivalPerReportTheEarliestStartThenTheSmallerKey() {
        // Three visits at one address: b starts first; a and c start together.
        var visits = [visit("c", startMinute: 30), visit("b", startMinute: 0), visit("a", startMinute: 30)]
        var step = ArrivalRule.step(report(0, 0), visits: visits, config: RoadConfig())
        step = ArrivalRule.step(report(0, 60), visits: step.visits, config: RoadConfig())
        XCTAssertEqual(step.arrived?.visitId, "b")
        step = ArrivalRule.step(report(0, 61), visits: step.visits, config: RoadConfig())
        XCTAssertEqual(step.arrived?.visitId, "a")
        step = ArrivalRule.step(report(0, 62), visits: step.visits, config: RoadConfig())
        XCTAssertEqual(step.arrived?.visitId, "c")
        step = ArrivalRule.step(report(0, 63), visits: step.visits, config: RoadConfig())
        XCTAssertNil(step.arrived)
        visits = step.visits
        XCTAssertEqual(visits.map { $0.arrivedAt?.milliseconds }, [62_000, 60_000, 61_000].map { RoadTests.base.milliseconds + $0 })
        // Keys compare by code points: "B" (U+0042) before "a" (U+0061).
        let upper = [visit("a"), visit("B")]
        step = ArrivalRule.step(report(0, 0), visits: upper, config: RoadConfig())
        XCTAssertEqual(ArrivalRule.step(report(0, 60), visits: step.visits, config: RoadConfig()).arrived?.visitId, "B")
    }

    func testDepartureIsTheFirstReportBeyondTwiceTheRadius() {
        var visits = [visit("a")]
        for seconds in [0.0, 60.0] { visits = ArrivalRule.step(report(0, seconds), visits: visits, config: RoadConfig()).visits }
        XCTAssertNotNil(visits[0].arrivedAt)
        var step = ArrivalRule.step(report(149.99, 70), visits: visits, config: RoadConfig())
        XCTAssertEqual(step.departed, [])
        step = ArrivalRule.step(report(150.01, 80), visits: step.visits, config: RoadConfig())
        XCTAssertEqual(step.departed, [visits[0].key])
        XCTAssertEqual(step.visits[0].departedAt, report(0, 80).at)
        step = ArrivalRule.step(report(500, 90), visits: step.visits, config: RoadConfig())
        XCTAssertEqual(step.departed, [])
        step = ArrivalRule.step(report(0, 200), visits: step.visits, config: RoadConfig())
        XCTAssertNil(step.arrived, "a visit arrives once")
    }

    func testTheSuggestion() {
        let t = RoadTests.base
        XCTAssertNil(RoadSuggestion.of(arrivedAt: nil, departedAt: nil, state: .todo))
        XCTAssertEqual(RoadSuggestion.of(arrivedAt: t, departedAt: nil, state: .todo), "start")
        XCTAssertNil(RoadSuggestion.of(arrivedAt: t, departedAt: nil, state: .inProgress))
        XCTAssertEqual(RoadSuggestion.of(arrivedAt: t, departedAt: t, state: .inProgress), "finish")
        XCTAssertNil(RoadSuggestion.of(arrivedAt: t, departedAt: t, state: .todo))
        XCTAssertNil(RoadSuggestion.of(arrivedAt: t, departedAt: t, state: .done))
    }

    func testNavigationLinks() {
        let links = Navigation.links(latitude: "55.77883", longitude: "12.52124")
        XCTAssertEqual(links.map(\.member), ["geo", "google", "apple"])
        XCTAssertEqual(links.map(\.url), ["geo:55.77883,12.52124",
                                          "https://www.google.com/maps/dir/?api=1&destination=55.77883,12.52124",
                                          "https://maps.apple.com/?daddr=55.77883,12.52124"])
    }

    // MARK: A property: random walks against a small model

    /// The rules restated over the whole history: the trail by scanning the stored points; an
    /// arrival when, looking back from the report, the counting reports inside the radius span
    /// the dwell; one arrival a report by the earliest start, then the key.
    func testRandomWalksFollowTheRulesOfTheModel() {
        var random = TestRandom(state: 0x5eed_0a0d)
        for walk in 0..<150 {
            var config = RoadConfig()
            config.dwellSeconds = Int64(random.below(4)) * 30
            config.arrivalRadiusMeters = [40.0, 75.0][random.below(2)]
            config.minIntervalSeconds = Int64(30 + random.below(300))
            let spots = (0..<(1 + random.below(4))).map { _ in Double(random.below(8)) * 60 }
            var visits = spots.enumerated().map { i, metres in
                visit("v\(random.below(3))\(i)", startMinute: Int64(random.below(3)), metresEast: metres,
                      candidate: random.chance(80))
            }
            var history: [LocationReport] = []
            var stored: [LocationReport] = []
            var arrivals: [VisitKey: Instant] = [:]
            var departures: [VisitKey: Instant] = [:]
            var position = 0.0
            var seconds = 0.0
            for _ in 0..<(20 + random.below(60)) {
                position += Double(random.below(121)) - 60
                seconds += Double(random.below(45))
                let report = self.report(position, seconds)
                history.append(report)
                // The model's trail.
                let modelStores: Bool
                if let last = stored.last {
                    let metres = Geo.distance(report.latitude, report.longitude, last.latitude, last.longitude) ?? 0
                    modelStores = metres >= config.minDistanceMeters
                        || report.at.milliseconds - last.at.milliseconds >= config.minIntervalSeconds * 1000
                } else {
                    modelStores = true
                }
                let lastPoint = stored.last.map { TrailRule.Point(latitude: $0.latitude, longitude: $0.longitude, at: $0.at) }
                XCTAssertEqual(TrailRule.stores(report, after: lastPoint, config: config), modelStores, "walk \(walk)")
                if modelStores { stored.append(report) }
                // The model's arrivals and departures.
                func inside(_ r: LocationReport, _ v: ArrivalRule.Visit) -> Bool {
                    (Geo.distance(r.latitude, r.longitude, v.latitude, v.longitude) ?? .infinity) <= config.arrivalRadiusMeters
                }
                var qualified: [ArrivalRule.Visit] = []
                var left: [VisitKey] = []
                for v in visits {
                    if arrivals[v.key] != nil {
                        let metres = Geo.distance(report.latitude, report.longitude, v.latitude, v.longitude) ?? 0
                        if departures[v.key] == nil, metres > 2 * config.arrivalRadiusMeters { left.append(v.key) }
                        continue
                    }
                    guard v.isCandidate, inside(report, v) else { continue }
                    var first = history.count - 1
                    while first > 0, inside(history[first - 1], v) { first -= 1 }
                    // The run may not reach back before this visit's previous reports… it has no
                    // arrival, so its whole history counts.
                    if report.at.milliseconds - history[first].at.milliseconds >= config.dwellSeconds * 1000 {
                        qualified.append(v)
                    }
                }
                let winner = qualified.min { a, b in
                    a.key.start != b.key.start ? a.key.start < b.key.start : Array(a.key.text.unicodeScalars.map(\.value))
                        .lexicographicallyPrecedes(b.key.text.unicodeScalars.map(\.value))
                }
                let step = ArrivalRule.step(report, visits: visits, config: config)
                XCTAssertEqual(step.arrived, winner?.key, "walk \(walk) at \(seconds) s")
                XCTAssertEqual(step.departed, left, "walk \(walk) at \(seconds) s")
                if let winner { arrivals[winner.key] = report.at }
                for key in left { departures[key] = report.at }
                visits = step.visits
                for v in visits {
                    XCTAssertEqual(v.arrivedAt, arrivals[v.key])
                    XCTAssertEqual(v.departedAt, departures[v.key])
                }
            }
        }
    }
}
