import XCTest
@testable import CarFitIO

/// Integers and reals written by `JSONBuffer` read as Swift's own decimal text, at every
/// change of length.
final class DigitsTests: XCTestCase {
    func text(_ write: (inout JSONBuffer) -> Void) -> String? {
        var buffer = JSONBuffer(capacity: 1)
        write(&buffer)
        guard let taken = buffer.takeCString() else { return nil }
        defer { free(taken) }
        return String(cString: taken)
    }

    func testIntegersAtEveryLength() {
        var values: [Int64] = [0, 1, 9, 10, 11, 99, 100, 101, 999, 1000, 1_598_943_600_000, .max, .min, .max - 1, .min + 1]
        var power: Int64 = 1
        for _ in 0..<18 {
            power *= 10
            values += [power - 1, power, power + 1, -power, -(power - 1), -(power + 1)]
        }
        for v in values {
            XCTAssertEqual(text { $0.appendInt(v) }, String(v), "\(v)")
        }
    }

    func testShortDecimals() {
        for d in [55.778413, 12.448409, -0.001, 0.5, 1.0, 999_999_999.5, 12.3, 100.25, 7.0e-3] {
            XCTAssertEqual(text { $0.appendDouble(d) }, d.description, "\(d)")
        }
    }
}
