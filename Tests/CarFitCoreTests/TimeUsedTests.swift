import XCTest
@testable import CarFitCore

final class TimeUsedTests: XCTestCase {
    let start = Instant(milliseconds: 1_599_725_100_000)  // 2020-09-10T08:05:00Z

    func after(_ ms: Int64) -> Instant { Instant(milliseconds: start.milliseconds + ms) }

    func testWholeMinutesRoundedHalfUp() {
        XCTAssertEqual(TimeUsed.minutes(from: start, to: start), 0)
        XCTAssertEqual(TimeUsed.minutes(from: start, to: after(29_999)), 0)
        XCTAssertEqual(TimeUsed.minutes(from: start, to: after(30_000)), 1)
        XCTAssertEqual(TimeUsed.minutes(from: start, to: after(89_999)), 1)
        XCTAssertEqual(TimeUsed.minutes(from: start, to: after(90_000)), 2)
        XCTAssertEqual(TimeUsed.minutes(from: start, to: after(42 * 60_000)), 42)
        XCTAssertEqual(TimeUsed.minutes(from: start, to: after(3 * 3_600_000 + 29_000)), 180)
    }

    func testNoStartIsNull() {
        XCTAssertNil(TimeUsed.minutes(from: nil, to: start))
    }

    func testNeverNegative() {
        XCTAssertEqual(TimeUsed.minutes(from: start, to: after(-1)), 0)
        XCTAssertEqual(TimeUsed.minutes(from: start, to: after(-3_600_000)), 0)
    }

    func testExtremesSaturateInsteadOfTrapping() {
        let min = Instant(milliseconds: .min), max = Instant(milliseconds: .max)
        XCTAssertEqual(TimeUsed.minutes(from: min, to: max), Int(Int64.max / 60_000))
        XCTAssertEqual(TimeUsed.minutes(from: max, to: min), 0)
        XCTAssertEqual(TimeUsed.minutes(from: Instant(milliseconds: 0), to: max), Int(Int64.max / 60_000) + 1)
    }
}
