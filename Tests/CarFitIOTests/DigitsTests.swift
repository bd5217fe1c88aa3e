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

    func testTenthsReadAsTheirDouble() {
        var values = Array(-2_000...200_000)
        var power = 1
        for _ in 0..<18 {
            power *= 10
            values += [power - 1, power, power + 1, -power, -(power - 1), -(power + 1)]
        }
        values += [.max, .min, .max - 1, .min + 1]
        var seed: UInt64 = 0x9E37_79B9_7F4A_7C15
        for _ in 0..<50_000 {
            seed = seed &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            values.append(Int(truncatingIfNeeded: seed >> UInt64(seed % 50)))
        }
        for t in values {
            let expected = (Double(t) / 10).description
            guard text({ $0.appendTenths(t) }) == expected else {
                return XCTFail("\(t): \(text { $0.appendTenths(t) } ?? "nil") is not \(expected)")
            }
        }
        XCTAssertEqual(text { $0.appendTenths(36) }, "3.6")
        XCTAssertEqual(text { $0.appendTenths(0) }, "0.0")
        XCTAssertEqual(text { $0.appendTenths(-5) }, "-0.5")
    }

    func testShortDecimals() {
        for d in [55.778413, 12.448409, -0.001, 0.5, 1.0, 999_999_999.5, 12.3, 100.25, 7.0e-3] {
            XCTAssertEqual(text { $0.appendDouble(d) }, d.description, "\(d)")
        }
    }
}
