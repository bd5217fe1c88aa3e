import XCTest
@testable import CarFitCore

final class BackoffTests: XCTestCase {
    func testBaseDoublesFromOneSecondUpToFiveMinutes() {
        XCTAssertEqual(Backoff.baseDelay(failures: 0), 0)
        XCTAssertEqual(Backoff.baseDelay(failures: -5), 0)
        XCTAssertEqual((1...10).map { Backoff.baseDelay(failures: $0) },
                       [1_000, 2_000, 4_000, 8_000, 16_000, 32_000, 64_000, 128_000, 256_000, 300_000])
        XCTAssertEqual(Backoff.baseDelay(failures: 64), 300_000)
        XCTAssertEqual(Backoff.baseDelay(failures: .max), 300_000)
    }

    func testJitterStaysWithinTwentyPercentAndUsesTheWholeRange() {
        var random = CarFitCore.SplitMix64(seed: 16)
        for failures in [1, 2, 5, 9, 10, 1_000, Int.max] {
            let base = Backoff.baseDelay(failures: failures)
            var low = Int64.max, high = Int64.min
            for _ in 0..<2_000 {
                let d = Backoff.delay(failures: failures, random: &random)
                XCTAssertGreaterThanOrEqual(d, base - base / 5)
                XCTAssertLessThanOrEqual(d, base + base / 5)
                low = min(low, d)
                high = max(high, d)
            }
            // 2,000 draws reach both ends' neighbourhood (within 1% of the spread).
            XCTAssertLessThan(low, base - base / 5 + base / 250, "failures \(failures)")
            XCTAssertGreaterThan(high, base + base / 5 - base / 250, "failures \(failures)")
        }
    }

    func testTheSameGeneratorGivesTheSameSchedule() {
        var a = CarFitCore.SplitMix64(seed: 7), b = CarFitCore.SplitMix64(seed: 7), c = CarFitCore.SplitMix64(seed: 8)
        let first = (1...12).map { Backoff.delay(failures: $0, random: &a) }
        XCTAssertEqual(first, (1...12).map { Backoff.delay(failures: $0, random: &b) })
        XCTAssertNotEqual(first, (1...12).map { Backoff.delay(failures: $0, random: &c) })
    }

    func testTheExtremesOfTheRandomSource() {
        struct Fixed: RandomNumberGenerator { var value: UInt64; mutating func next() -> UInt64 { value } }
        var zero = Fixed(value: 0), top = Fixed(value: .max)
        XCTAssertEqual(Backoff.delay(failures: 1, random: &zero), 800)
        XCTAssertEqual(Backoff.delay(failures: 1, random: &top), 1_200)
        XCTAssertEqual(Backoff.delay(failures: 20, random: &zero), 240_000)
        XCTAssertEqual(Backoff.delay(failures: 20, random: &top), 360_000)
        XCTAssertEqual(Backoff.delay(failures: 0, random: &top), 0)
    }

    func testNextAttemptAddsTheDelayAndSaturates() {
        var random = CarFitCore.SplitMix64(seed: 1)
        var copy = random
        let failure = Instant(milliseconds: 1_599_725_100_000)
        let next = Backoff.nextAttempt(lastFailure: failure, failures: 3, random: &random)
        XCTAssertEqual(next.milliseconds - failure.milliseconds, Backoff.delay(failures: 3, random: &copy))
        let end = Backoff.nextAttempt(lastFailure: Instant(milliseconds: .max - 10), failures: 9, random: &random)
        XCTAssertEqual(end.milliseconds, .max)
    }

    func testDueness() {
        let now = Instant(milliseconds: 5_000)
        XCTAssertTrue(Backoff.isDue(now: now, nextAttempt: nil))
        XCTAssertTrue(Backoff.isDue(now: now, nextAttempt: Instant(milliseconds: 5_000)))
        XCTAssertTrue(Backoff.isDue(now: now, nextAttempt: Instant(milliseconds: 4_999)))
        XCTAssertFalse(Backoff.isDue(now: now, nextAttempt: Instant(milliseconds: 5_001)))
    }
}
