@testable import CarFit
import CarFitCore
import CarFitIO
import XCTest

/// The boundary's check of request member types (`RequestCheck`) over the table generated from
/// include/carfit.schema.json (`RequestTypes`).
final class RequestCheckTests: XCTestCase {
    /// Every operation of the manifest has its entry in the generated table, and only those.
    func testTheTableCoversTheManifest() {
        XCTAssertEqual(Set(RequestTypes.members.keys), Set(Manifest.operations.map(\.symbol)))
    }

    func testTypesFollowJSONSchema() {
        XCTAssertTrue(RequestCheck.fits(.int(3), RequestCheck.number))
        XCTAssertTrue(RequestCheck.fits(.double(3.0), RequestCheck.integer))
        XCTAssertFalse(RequestCheck.fits(.double(3.5), RequestCheck.integer))
        XCTAssertFalse(RequestCheck.fits(.string("3"), RequestCheck.integer | RequestCheck.number))
        XCTAssertTrue(RequestCheck.fits(.null, RequestCheck.string))
        XCTAssertFalse(RequestCheck.fits(.bool(true), RequestCheck.string | RequestCheck.array))
        XCTAssertEqual(RequestCheck.describe(RequestCheck.integer | RequestCheck.string), "a whole number or a string")
        XCTAssertEqual(RequestCheck.describe(RequestCheck.boolean), "true or false")
    }

    func testAWrongMemberIsInvalidWithItsPath() throws {
        let plan = Fields(JSONObject(["date": .string("2020-09-10"),
                                      "start": .obj(["latitude": .string("north"), "longitude": .int(12)])]))
        XCTAssertThrowsError(try RequestCheck.check("carfit_visits_plan", plan)) { error in
            XCTAssertEqual((error as? CarFitError)?.status, .invalid)
            XCTAssertEqual((error as? CarFitError)?.field, "start.latitude")
        }
        let list = Fields(JSONObject(["dates": .array([.string("2020-09-10"), .int(5)])]))
        XCTAssertThrowsError(try RequestCheck.check("carfit_visits_list", list)) { error in
            XCTAssertEqual((error as? CarFitError)?.field, "dates[1]")
        }
        // Members of their types, null members and unknown members pass.
        try RequestCheck.check("carfit_visits_list", Fields(JSONObject(["dates": .null, "unknown": .int(1)])))
        try RequestCheck.check("carfit_cart_add", Fields(JSONObject(["productId": .string("101"), "quantity": .double(2)])))
    }
}
