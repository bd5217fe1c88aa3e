import Foundation
import XCTest

@testable import CarFitCore
import CarFitIO

final class GeodesicTests: XCTestCase {
    private struct Reference {
        var line: Int
        var lat1: Double
        var lon1: Double
        var lat2: Double
        var lon2: Double
        var s12: Double
    }

    /// Reference distances from GeographicLib's GeodSolve (see Fixtures/make-geodesic-reference.sh).
    private func loadReference() throws -> [Reference] {
        let url = URL(fileURLWithPath: #filePath)
            .deletingLastPathComponent()
            .appendingPathComponent("Fixtures/geodesic-reference.txt")
        let text = try String(contentsOf: url, encoding: .utf8)
        var rows: [Reference] = []
        for (index, raw) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let line = raw.trimmingCharacters(in: .whitespaces)
            if line.isEmpty || line.hasPrefix("#") { continue }
            let fields = line.split(separator: " ").compactMap { Double(String($0)) }
            guard fields.count == 5 else {
                XCTFail("malformed fixture line \(index + 1): \(line)")
                continue
            }
            rows.append(Reference(line: index + 1, lat1: fields[0], lon1: fields[1],
                                  lat2: fields[2], lon2: fields[3], s12: fields[4]))
        }
        return rows
    }

    func testMatchesGeographicLibReference() throws {
        let rows = try loadReference()
        // Every line the generator writes (25 + 15 + 400 + 50 + 50 + 50 + fixed cases): a truncated
        // fixture fails here rather than testing fewer cases.
        XCTAssertEqual(rows.count, 639)
        var maxError = 0.0
        var worstLine = 0
        for row in rows {
            guard let s = Geodesic.distance(latitude1: row.lat1, longitude1: row.lon1,
                                            latitude2: row.lat2, longitude2: row.lon2)
            else {
                XCTFail("nil distance for fixture line \(row.line)")
                continue
            }
            let error = abs(s - row.s12)
            if error > maxError {
                maxError = error
                worstLine = row.line
            }
            XCTAssertLessThan(error, 0.001, "line \(row.line): got \(s), expected \(row.s12)")
        }
        print("Geodesic: \(rows.count) reference lines, max |error| = \(maxError) m (line \(worstLine))")
    }

    func testSymmetricUnderSwapAndReflection() throws {
        for row in try loadReference() {
            guard let forward = Geodesic.distance(latitude1: row.lat1, longitude1: row.lon1,
                                                  latitude2: row.lat2, longitude2: row.lon2),
                let backward = Geodesic.distance(latitude1: row.lat2, longitude1: row.lon2,
                                                 latitude2: row.lat1, longitude2: row.lon1),
                let mirrored = Geodesic.distance(latitude1: -row.lat1, longitude1: -row.lon1,
                                                 latitude2: -row.lat2, longitude2: -row.lon2)
            else {
                XCTFail("nil distance for fixture line \(row.line)")
                continue
            }
            XCTAssertLessThan(abs(forward - backward), 0.001, "line \(row.line)")
            XCTAssertLessThan(abs(forward - mirrored), 0.001, "line \(row.line)")
        }
    }

    func testSamePointIsZero() {
        XCTAssertEqual(Geodesic.distance(latitude1: 55.676098, longitude1: 12.568337,
                                         latitude2: 55.676098, longitude2: 12.568337), 0)
        XCTAssertEqual(Geodesic.distance(latitude1: 0, longitude1: 0, latitude2: 0, longitude2: 0), 0)
        XCTAssertEqual(Geodesic.distance(latitude1: 90, longitude1: 0, latitude2: 90, longitude2: 0), 0)
        // The pole is one point whatever its longitude; so is the antimeridian.
        XCTAssertEqual(Geodesic.distance(latitude1: -90, longitude1: -45, latitude2: -90, longitude2: 135), 0)
        XCTAssertEqual(Geodesic.distance(latitude1: 10, longitude1: -180, latitude2: 10, longitude2: 180), 0)
    }

    func testAntipodalEquatorialPoints() throws {
        // Shortest path runs over a pole: half a meridian.
        let s = try XCTUnwrap(Geodesic.distance(latitude1: 0, longitude1: 0, latitude2: 0, longitude2: 180))
        XCTAssertEqual(s, 20003931.458625, accuracy: 0.001)
        let t = try XCTUnwrap(Geodesic.distance(latitude1: 0, longitude1: -90, latitude2: 0, longitude2: 90))
        XCTAssertEqual(t, 20003931.458625, accuracy: 0.001)
        // Just inside the equatorial regime (lon12 < 180 (1 - f)) the geodesic follows the equator.
        let u = try XCTUnwrap(Geodesic.distance(latitude1: 0, longitude1: 0, latitude2: 0, longitude2: 179))
        XCTAssertEqual(u, 6378137 * 179 * Double.pi / 180, accuracy: 0.001)
    }

    func testPoleToPole() throws {
        let s = try XCTUnwrap(Geodesic.distance(latitude1: 90, longitude1: 0, latitude2: -90, longitude2: 0))
        XCTAssertEqual(s, 20003931.4586, accuracy: 0.001)
        let t = try XCTUnwrap(Geodesic.distance(latitude1: -90, longitude1: 17, latitude2: 90, longitude2: -123))
        XCTAssertEqual(t, 20003931.4586, accuracy: 0.001)
        let quarter = try XCTUnwrap(Geodesic.distance(latitude1: 0, longitude1: 33, latitude2: 90, longitude2: 0))
        XCTAssertEqual(quarter, 10001965.729313, accuracy: 0.001)
    }

    func testShortCopenhagenDistance() throws {
        // About 1 m east-west at Copenhagen's latitude.
        let s = try XCTUnwrap(Geodesic.distance(latitude1: 55.676098, longitude1: 12.568337,
                                                latitude2: 55.676098, longitude2: 12.568353))
        XCTAssertGreaterThan(s, 0.9)
        XCTAssertLessThan(s, 1.1)
    }

    func testAzimuths() throws {
        let r = try XCTUnwrap(Geodesic.inverse(latitude1: 0, longitude1: 0, latitude2: 0, longitude2: 90))
        XCTAssertEqual(r.azimuth1, 90, accuracy: 1e-12)
        XCTAssertEqual(r.azimuth2, 90, accuracy: 1e-12)
        let north = try XCTUnwrap(Geodesic.inverse(latitude1: 10, longitude1: 5, latitude2: 20, longitude2: 5))
        XCTAssertEqual(north.azimuth1, 0, accuracy: 1e-12)
        XCTAssertEqual(north.azimuth2, 0, accuracy: 1e-12)
        // `echo 40.64 -73.78 1.36 103.99 | GeodSolve -i -p 6` -> 3.30577347802 177.48784020816 15347512.940513
        let jfkSin = try XCTUnwrap(Geodesic.inverse(latitude1: 40.64, longitude1: -73.78,
                                                    latitude2: 1.36, longitude2: 103.99))
        XCTAssertEqual(jfkSin.distance, 15347512.940513, accuracy: 0.001)
        XCTAssertEqual(jfkSin.azimuth1, 3.30577347802, accuracy: 1e-9)
        XCTAssertEqual(jfkSin.azimuth2, 177.48784020816, accuracy: 1e-9)
    }

    func testInvalidInputsReturnNil() {
        XCTAssertNil(Geodesic.distance(latitude1: 91, longitude1: 0, latitude2: 0, longitude2: 0))
        XCTAssertNil(Geodesic.distance(latitude1: 0, longitude1: 0, latitude2: -90.0001, longitude2: 0))
        XCTAssertNil(Geodesic.distance(latitude1: 0, longitude1: 180.5, latitude2: 0, longitude2: 0))
        XCTAssertNil(Geodesic.distance(latitude1: 0, longitude1: 0, latitude2: 0, longitude2: -181))
        XCTAssertNil(Geodesic.distance(latitude1: .nan, longitude1: 0, latitude2: 0, longitude2: 0))
        XCTAssertNil(Geodesic.distance(latitude1: 0, longitude1: .nan, latitude2: 0, longitude2: 0))
        XCTAssertNil(Geodesic.distance(latitude1: 0, longitude1: 0, latitude2: .infinity, longitude2: 0))
        XCTAssertNil(Geodesic.distance(latitude1: 0, longitude1: 0, latitude2: 0, longitude2: -.infinity))
        XCTAssertNil(Geodesic.inverse(latitude1: .signalingNaN, longitude1: 0, latitude2: 0, longitude2: 0))
    }

    func testTinyAndExtremeInputsDoNotTrap() {
        let values: [Double] = [0, -0.0, 1e-300, -1e-300, .leastNonzeroMagnitude, 1e-12, 89.999999999, 90, -90,
                                179.999999999, 180, -180, 45]
        for a in values {
            for b in values {
                let lat1 = min(max(a, -90), 90), lat2 = min(max(-b, -90), 90)
                let s = Geodesic.distance(latitude1: lat1, longitude1: a, latitude2: lat2, longitude2: b)
                XCTAssertNotNil(s)
                if let s {
                    XCTAssertTrue(s >= 0 && s <= 20003931.46, "\(lat1) \(a) \(lat2) \(b) -> \(s)")
                }
            }
        }
    }

    func testDistanceIsTheInverseDistance() {
        var r = TestRandom(state: 13)
        let special: [Double] = [0, -0.0, 90, -90, 180, -180, 89.9999999, 1e-300, .nan, .infinity]
        for i in 0..<20_000 {
            let lat1 = i % 10 == 0 ? r.pick(special) : r.unit() * 180 - 90
            let lon1 = i % 7 == 0 ? r.pick(special) : r.unit() * 360 - 180
            let lat2 = i % 3 == 0 ? -lat1 + (r.unit() - 0.5) * 1e-3 : r.unit() * 180 - 90
            let lon2 = i % 5 == 0 ? lon1 + 180 - r.unit() * 1e-3 : (i % 2 == 0 ? lon1 + (r.unit() - 0.5) * 0.2 : r.unit() * 360 - 180)
            let d = Geodesic.distance(latitude1: lat1, longitude1: lon1, latitude2: lat2, longitude2: lon2)
            let inverse = Geodesic.inverse(latitude1: lat1, longitude1: lon1, latitude2: lat2, longitude2: lon2)
            XCTAssertEqual(d?.bitPattern, inverse?.distance.bitPattern, "\(lat1) \(lon1) \(lat2) \(lon2)")
        }
    }

    private func wrapped(_ lon: Double) -> Double { lon > 180 ? lon - 360 : (lon < -180 ? lon + 360 : lon) }

    func testRoundedDistanceIsTheRoundedSolution() {
        var r = TestRandom(state: 14)
        var byChord = 0
        let count = 100_000
        for i in 0..<count {
            let lat1 = i % 50 == 0 ? r.pick([90.0, -90, 0, 89.99, -89.99]) : (i % 2 == 0 ? 55.5 + r.unit() : r.unit() * 180 - 90)
            let lon1 = i % 40 == 0 ? r.pick([180.0, -180, 0, 179.999]) : (i % 2 == 0 ? 12 + r.unit() : r.unit() * 360 - 180)
            let spread = r.pick([0.000001, 0.0001, 0.01, 0.1, 0.3, 0.6, 1.0])
            let lat2 = min(90, max(-90, lat1 + (r.unit() - 0.5) * 2 * spread))
            let lon2 = wrapped(lon1 + (r.unit() - 0.5) * 2 * spread)
            let expected = Geodesic.distance(latitude1: lat1, longitude1: lon1, latitude2: lat2, longitude2: lon2)
                .map { Int($0.rounded()) }
            let rounded = Geodesic.roundedDistance(latitude1: lat1, longitude1: lon1, latitude2: lat2, longitude2: lon2)
            XCTAssertEqual(rounded, expected, "\(lat1) \(lon1) \(lat2) \(lon2)")
            if Geodesic.roundedShortDistance(lat1, lon1, lat2, lon2) != nil { byChord += 1 }
        }
        // Most lines of this mix are short enough for the chord to settle them.
        XCTAssertGreaterThan(byChord, count / 2)
        XCTAssertNil(Geodesic.roundedDistance(latitude1: 91, longitude1: 0, latitude2: 90, longitude2: 0))
        XCTAssertNil(Geodesic.roundedDistance(latitude1: .nan, longitude1: 0, latitude2: 0, longitude2: 0))
    }

    /// Points whose solved distance lies a hair from a half metre: the chord must leave them to
    /// the solution, and the answer is still the solution's.
    func testHalfMetreBoundariesAreLeftToTheSolution() throws {
        var r = TestRandom(state: 15)
        var near = 0
        for _ in 0..<400 {
            let lat1 = r.unit() < 0.5 ? 55.5 + r.unit() : r.unit() * 170 - 85
            let lon1 = r.unit() * 360 - 180
            let dlat = (r.unit() - 0.5) * r.pick([0.001, 0.05, 0.5]), dlon = (r.unit() - 0.5) * r.pick([0.001, 0.05, 0.5])
            func point(_ t: Double) -> (Double, Double) { (min(90, max(-90, lat1 + t * dlat)), wrapped(lon1 + t * dlon)) }
            func solved(_ t: Double) -> Double {
                let (lat2, lon2) = point(t)
                return Geodesic.distance(latitude1: lat1, longitude1: lon1, latitude2: lat2, longitude2: lon2) ?? .nan
            }
            let full = solved(1)
            guard full.isFinite, full > 2 else { continue }
            let target = (r.unit() * (full - 1)).rounded(.down) + 0.5
            var lo = 0.0, hi = 1.0
            for _ in 0..<80 {
                let mid = (lo + hi) / 2
                if solved(mid) < target { lo = mid } else { hi = mid }
            }
            for t in [lo, hi, lo.nextDown, hi.nextUp] {
                let (lat2, lon2) = point(t)
                let d = try XCTUnwrap(Geodesic.distance(latitude1: lat1, longitude1: lon1, latitude2: lat2, longitude2: lon2))
                XCTAssertEqual(Geodesic.roundedDistance(latitude1: lat1, longitude1: lon1, latitude2: lat2, longitude2: lon2),
                               Int(d.rounded()), "\(lat1) \(lon1) \(lat2) \(lon2)")
                if abs(d - target) < 0.0005 {
                    near += 1
                    XCTAssertNil(Geodesic.roundedShortDistance(lat1, lon1, lat2, lon2), "\(lat1) \(lon1) \(lat2) \(lon2)")
                }
            }
        }
        XCTAssertGreaterThan(near, 400)
    }
}

