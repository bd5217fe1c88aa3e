import XCTest
@testable import CarFitCore

/// The nearest known name a mistyped config member is told.
final class NearestNameTests: XCTestCase {
    func testTheNearestNameAllowsTwoEditsAndNoMore() {
        let known = ConfigMembers.root
        XCTAssertEqual(NearestName.nearest(to: "timeZone", among: known), "timeZone")
        XCTAssertEqual(NearestName.nearest(to: "tiemZone", among: known), "timeZone")
        XCTAssertEqual(NearestName.nearest(to: "tmZone", among: known), "timeZone")
        XCTAssertNil(NearestName.nearest(to: "tZone", among: known))
        XCTAssertEqual(NearestName.nearest(to: "no", among: known), "now")
        XCTAssertNil(NearestName.nearest(to: "zone", among: known))
        XCTAssertNil(NearestName.nearest(to: "", among: known))
        XCTAssertEqual(NearestName.distance(Array("ab".unicodeScalars), Array("ba".unicodeScalars)), 1)
        XCTAssertEqual(NearestName.distance(Array("kitten".unicodeScalars), Array("sitting".unicodeScalars)), 3)
    }

}
