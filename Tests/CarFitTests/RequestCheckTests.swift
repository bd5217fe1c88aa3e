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

    private func refused(_ symbol: String, _ pairs: KeyValuePairs<String, JSON>, _ field: String,
                         file: StaticString = #filePath, line: UInt = #line) {
        XCTAssertThrowsError(try RequestCheck.check(symbol, Fields(JSONObject(pairs))), file: file, line: line) { error in
            XCTAssertEqual((error as? CarFitError)?.status, .invalid, file: file, line: line)
            XCTAssertEqual((error as? CarFitError)?.field, field, file: file, line: line)
        }
    }

    /// Each kind of constraint the schema states is refused with the member's path, and its
    /// bounds themselves are taken.
    func testEveryConstraintKindIsCheckedWithTheMembersPath() throws {
        // required, also of an object member's members
        refused("carfit_visits_set_state", ["state": "Done"], "key")
        refused("carfit_visits_set_state", ["key": .null, "state": "Done"], "key")
        refused("carfit_visits_plan", ["date": "2020-09-10", "start": .obj(["latitude": 55])], "start.longitude")
        // enum
        refused("carfit_visits_set_state", ["key": "k", "state": "Finished"], "state")
        refused("carfit_catalog_list", ["sort": "price"], "sort")
        try RequestCheck.check("carfit_catalog_list", Fields(JSONObject(["sort": .null])))
        try RequestCheck.check("carfit_catalog_list", Fields(JSONObject(["sort": "-name"])))
        // minimum / maximum and the exclusive form
        refused("carfit_visits_plan", ["date": "2020-09-10", "start": .obj(["latitude": 90.5, "longitude": 12])], "start.latitude")
        refused("carfit_visits_plan", ["date": "2020-09-10", "start": .obj(["latitude": 55, "longitude": -180.01])], "start.longitude")
        refused("carfit_visits_plan", ["date": "2020-09-10", "speedKmh": 0], "speedKmh")
        refused("carfit_visits_plan", ["date": "2020-09-10", "speedKmh": -5], "speedKmh")
        refused("carfit_visits_plan", ["date": "2020-09-10", "speedKmh": 300.0001], "speedKmh")
        refused("carfit_visits_plan", ["date": "2020-09-10", "detourFactor": 0.99], "detourFactor")
        refused("carfit_visits_plan", ["date": "2020-09-10", "detourFactor": 10.5], "detourFactor")
        try RequestCheck.check("carfit_visits_plan", Fields(JSONObject(["date": "2020-09-10", "speedKmh": 300, "detourFactor": 1,
                                                                       "start": .obj(["latitude": -90, "longitude": 180.0])])))
        refused("carfit_cart_add", ["productId": 1, "quantity": 1000], "quantity")
        refused("carfit_calendar_month", ["year": 2020, "month": 0], "month")
        refused("carfit_events_wait", ["timeoutMs": 60_001], "timeoutMs")
        // minLength / maxLength, in code points (not UTF-8 bytes, not grapheme clusters)
        refused("carfit_visits_attach", ["key": "k", "kind": "note", "text": ""], "text")
        let oneThousand = String(repeating: "\u{1F600}", count: 1_000)  // 4 UTF-8 bytes each
        try RequestCheck.check("carfit_visits_set_state", Fields(JSONObject(["key": "k", "state": "Done", "reason": .string(oneThousand)])))
        refused("carfit_visits_set_state", ["key": "k", "state": "Done", "reason": .string(oneThousand + "x")], "reason")
        let combining = String(repeating: "e\u{301}", count: 501)  // 501 characters, 1002 code points
        refused("carfit_visits_set_state", ["key": "k", "state": "Done", "reason": .string(combining)], "reason")
        refused("carfit_auth_set", ["token": ""], "token")
        try RequestCheck.check("carfit_auth_set", Fields(JSONObject(["token": .null])))
        // array items
        refused("carfit_images_prefetch", ["urls": .array(["a", .int(3)])], "urls[1]")
        // A member the operation would ignore is still the schema's.
        refused("carfit_visits_import", ["data": .array([]), "file": .obj(["zz": 1])], "file")
    }

    /// minItems and maxItems, and const, over a made-up table entry (no operation states them yet).
    func testItemCountsAndConst() throws {
        let members = [RequestMember(["tags"], types: RequestCheck.array | RequestCheck.null, minItems: 1, maxItems: 2),
                       RequestMember(["tags", "[]"], types: RequestCheck.string, minLength: 2),
                       RequestMember(["v"], types: RequestCheck.integer, required: true, choices: [.int(1)])]
        func check(_ pairs: KeyValuePairs<String, JSON>) throws {
            try RequestCheck.check(members, Fields(JSONObject(pairs)))
        }
        try check(["v": 1, "tags": .array(["ab"])])
        try check(["v": .double(1.0), "tags": .null])
        XCTAssertThrowsError(try check(["v": 1, "tags": .array([])])) { XCTAssertEqual(($0 as? CarFitError)?.field, "tags") }
        XCTAssertThrowsError(try check(["v": 1, "tags": .array(["ab", "cd", "ef"])])) { XCTAssertEqual(($0 as? CarFitError)?.field, "tags") }
        XCTAssertThrowsError(try check(["v": 1, "tags": .array(["ab", "c"])])) { XCTAssertEqual(($0 as? CarFitError)?.field, "tags[1]") }
        XCTAssertThrowsError(try check(["v": 2])) { XCTAssertEqual(($0 as? CarFitError)?.field, "v") }
        XCTAssertThrowsError(try check(["tags": .null])) { XCTAssertEqual(($0 as? CarFitError)?.field, "v") }
    }
}
