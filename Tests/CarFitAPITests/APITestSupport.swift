import CarFitCore
import CarFitIO
import XCTest

extension XCTestCase {
    /// A request object of `pairs`, as the boundary hands it to an API function.
    func fields(_ pairs: KeyValuePairs<String, JSON>) -> Fields { Fields(JSONObject(pairs)) }

    /// Asserts that `body` refuses its request as `invalid`, naming `field`, with a message.
    func refused(_ field: String, _ body: () throws(CarFitError) -> Void, file: StaticString = #filePath, line: UInt = #line) {
        do throws(CarFitError) {
            try body()
            XCTFail("expected invalid on \(field)", file: file, line: line)
        } catch {
            XCTAssertEqual(error.status, .invalid, error.message, file: file, line: line)
            XCTAssertEqual(error.field, field, error.message, file: file, line: line)
            XCTAssertFalse(error.message.isEmpty, file: file, line: line)
        }
    }
}
