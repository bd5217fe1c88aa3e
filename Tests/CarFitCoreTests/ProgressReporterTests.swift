import CarFitCore
import XCTest

/// A reporter of an operation whose size is learnt on the way (a download): nothing while it is
/// within 1 MiB, no total until it is told one, and the complete report only on `finish`.
final class ProgressReporterTests: XCTestCase {
    private final class Reports {
        var list: [(done: Int64, total: Int64?)] = []
    }

    private let clock = FakeMonotonicClock()

    private func reporter() -> (ProgressReporter, Reports) {
        let reports = Reports()
        return (ProgressReporter(clock: clock) { done, total in reports.list.append((done, total)) }, reports)
    }

    func testReportsAreAtLeastAnIntervalApartOnTheClockHandedIn() throws {
        let reports = Reports()
        let progress = try XCTUnwrap(ProgressReporter(total: 8 << 20, clock: clock) { reports.list.append(($0, $1)) })
        progress.advance(to: 1 << 20)
        XCTAssertEqual(reports.list.count, 1)
        clock.now += ProgressReporter.intervalNs - 1
        progress.advance(to: 2 << 20)
        XCTAssertEqual(reports.list.count, 1, "within the interval")
        clock.now += 1
        progress.advance(to: 3 << 20)
        XCTAssertEqual(reports.list.count, 2)
        XCTAssertEqual(reports.list.last?.done, 3 << 20)
        progress.advance(to: 4 << 20)
        progress.finish()
        XCTAssertEqual(reports.list.map(\.done), [1 << 20, 3 << 20, 8 << 20], "the last report does not wait")
        XCTAssertNil(ProgressReporter(total: 1 << 20, clock: clock) { _, _ in })
    }

    func testAnUnknownSizeReportsOnceMoreThan1MiBArrivedWithoutATotal() {
        let (progress, reports) = reporter()
        progress.advance(to: ProgressReporter.threshold)
        XCTAssertTrue(reports.list.isEmpty, "1 MiB is not reported")
        progress.advance(to: ProgressReporter.threshold + 1)
        XCTAssertEqual(reports.list.count, 1)
        XCTAssertEqual(reports.list.first?.done, ProgressReporter.threshold + 1)
        XCTAssertNil(reports.list.first?.total ?? nil)
        progress.finish()
        XCTAssertEqual(reports.list.count, 1, "no complete report without a total")
        progress.expect(total: 3 << 20)
        progress.finish()
        progress.finish()
        XCTAssertEqual(reports.list.count, 2)
        XCTAssertEqual(reports.list.last?.done, 3 << 20)
        XCTAssertEqual(reports.list.last?.total, 3 << 20)
    }

    func testASmallOperationLearntAtTheEndReportsNothing() {
        let (progress, reports) = reporter()
        progress.advance(to: 500)
        progress.expect(total: 500)
        progress.finish()
        XCTAssertTrue(reports.list.isEmpty)
    }

    func testTheSizeNotTheTotalDecidesWhetherToReport() {
        let (small, smallReports) = reporter()
        small.expect(total: 2 << 20, size: 1 << 20)
        small.advance(to: 10)
        small.finish()
        XCTAssertTrue(smallReports.list.isEmpty, "a body of 1 MiB counted twice is still not reported")

        let (large, largeReports) = reporter()
        large.expect(total: 4 << 20, size: 2 << 20)
        large.advance(to: 10)
        large.advance(to: 5 << 20)
        large.finish()
        XCTAssertEqual(largeReports.list.first?.done, 10)
        XCTAssertEqual(largeReports.list.first?.total, 4 << 20)
        XCTAssertTrue(largeReports.list.dropLast().allSatisfy { $0.done < 4 << 20 }, "only finish completes")
        XCTAssertEqual(largeReports.list.last?.done, 4 << 20)
    }
}
