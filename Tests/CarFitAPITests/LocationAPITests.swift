import CarFitAPI
import CarFitCore
import CarFitIO
import XCTest

/// A location report read from its request, and the documents of the location operations.
final class LocationAPITests: XCTestCase {
    static let base = Instant(milliseconds: 1_599_724_800_000)

    func read(_ pairs: KeyValuePairs<String, JSON>) throws(CarFitError) -> LocationReport {
        let r = try ReportRequest(Fields(JSONObject(pairs)))
        return LocationReport(latitude: r.latitude, longitude: r.longitude, accuracyMeters: r.accuracyMeters, at: r.at ?? LocationAPITests.base)
    }

    func testAReportIsReadWithEachRefusalNamingItsField() throws {
        let report = try read(["latitude": 55.77883, "longitude": 12.52124, "accuracyMeters": 8])
        XCTAssertEqual(report, LocationReport(latitude: 55.77883, longitude: 12.52124, accuracyMeters: 8, at: LocationAPITests.base))
        XCTAssertEqual(try read(["latitude": 0, "longitude": 0, "accuracyMeters": 0, "at": "2020-09-10T10:00:00+02:00"]).at,
                       LocationAPITests.base)
        func field(_ pairs: KeyValuePairs<String, JSON>) -> String? {
            do { _ = try read(pairs); return nil } catch { return error.status == .invalid ? error.field : "status" }
        }
        XCTAssertEqual(field(["longitude": 0, "accuracyMeters": 1]), "latitude")
        XCTAssertEqual(field(["latitude": 90.0001, "longitude": 0, "accuracyMeters": 1]), "latitude")
        XCTAssertEqual(field(["latitude": "55", "longitude": 0, "accuracyMeters": 1]), "latitude")
        XCTAssertEqual(field(["latitude": 0, "longitude": -180.5, "accuracyMeters": 1]), "longitude")
        XCTAssertEqual(field(["latitude": 0, "longitude": 0]), "accuracyMeters")
        XCTAssertEqual(field(["latitude": 0, "longitude": 0, "accuracyMeters": -1]), "accuracyMeters")
        XCTAssertEqual(field(["latitude": 0, "longitude": 0, "accuracyMeters": 10_000.5]), "accuracyMeters")
        XCTAssertEqual(field(["latitude": .double(.infinity), "longitude": 0, "accuracyMeters": 1]), "latitude")
        XCTAssertEqual(field(["latitude": .double(.nan), "longitude": 0, "accuracyMeters": 1]), "latitude")
        XCTAssertEqual(field(["latitude": 0, "longitude": 0, "accuracyMeters": 1, "at": "2020-09-10T08:00:00"]), "at")
        XCTAssertEqual(field(["latitude": 0, "longitude": 0, "accuracyMeters": 1, "at": "yesterday"]), "at")
        XCTAssertEqual(field(["latitude": 0, "longitude": 0, "accuracyMeters": 1, "at": 5]), "at")
        XCTAssertNil(field(["latitude": -90, "longitude": 180, "accuracyMeters": 10_000]))
    }

    func testReportDocuments() {
        let report = LocationReport(latitude: 55.5, longitude: 12.25, accuracyMeters: 8, at: LocationAPITests.base)
        XCTAssertEqual(report.json.encoded(), #"{"latitude":55.5,"longitude":12.25,"accuracyMeters":8.0,"at":"2020-09-10T08:00:00Z"}"#)
    }
}
