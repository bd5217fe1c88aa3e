@testable import CarFitIO
import CarFitCore
import XCTest

/// A request's members as the operations read them.
final class FieldsTests: XCTestCase {
    private func int(_ value: JSON, in range: ClosedRange<Int64> = Int64.min...Int64.max) -> Result<Int64?, CarFitError> {
        let fields = Fields(JSONObject(["n": value]))
        return Result { () throws(CarFitError) in try fields.int("n", in: range) }
    }

    func testAWholeRealIsTheIntegerItHolds() throws {
        XCTAssertEqual(try int(.double(2.0)).get(), 2)
        XCTAssertEqual(try int(.double(1e16)).get(), 10_000_000_000_000_000)
        XCTAssertEqual(try int(.double(-9.2e18)).get(), -9_200_000_000_000_000_000)
        XCTAssertEqual(try int(.double(-9_223_372_036_854_775_808.0)).get(), Int64.min)
        XCTAssertEqual(try int(.int(Int64.max)).get(), Int64.max)
    }

    func testARealWithAFractionOrPastSixtyFourBitsIsRefused() {
        func refusal(_ value: JSON) -> String? {
            guard case .failure(let e) = int(value) else { return nil }
            XCTAssertEqual(e.field, "n")
            return e.message
        }
        XCTAssertEqual(refusal(.double(2.5)), "n must be a whole number.")
        // 2^63 is whole but no 64-bit integer.
        XCTAssertEqual(refusal(.double(9_223_372_036_854_775_808.0)),
                       "n must be between -9223372036854775808 and 9223372036854775807.")
        XCTAssertEqual(refusal(.double(1e300)), "n must be between -9223372036854775808 and 9223372036854775807.")
        guard case .failure(let e) = int(.double(1e16), in: 0...100) else { return XCTFail("1e16 is above 100") }
        XCTAssertEqual(e.message, "n must be between 0 and 100.")
    }
}
