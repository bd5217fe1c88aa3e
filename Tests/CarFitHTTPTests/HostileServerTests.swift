import CarFitHTTP
import Foundation
import XCTest

/// The hostile servers: each one is cut off at its limit with the right reason, within its
/// timeout (with a generous margin: the server itself would go on for 30 s or more), and
/// without the body ever being held whole.
final class HostileServerTests: XCTestCase {
    private var server: FixtureServer!

    override func setUpWithError() throws {
        server = try FixtureServer.get()
    }

    func testASlowDripIsCutOffByTheTotalTimeout() {
        // A byte every 100 ms never leaves the connection idle for timeoutMs, so only the
        // whole transfer's bound ends it.
        let client = CurlClient(limits: HTTPLimits(timeoutMs: 5000, totalTimeoutMs: 1500))
        var delivered = 0
        let start = DispatchTime.now()
        let error = assertFails(.timeout) { () throws(HTTPError) in
            try client.stream(.get(server.url("/drip?bytes=1000&interval_ms=100"))) { chunk in
                delivered += chunk.count
                return true
            }
        }
        XCTAssertLessThan(secondsSince(start), 1.5 + 5)
        XCTAssertGreaterThan(delivered, 0, "the bytes that came were delivered")
        XCTAssertLessThan(delivered, 1000)
        XCTAssertTrue(error?.message.contains("1500 ms") == true, error?.message ?? "")
    }

    func testADripSlowerThanMinBytesPerSecondIsCutOffAfterTimeoutMs() {
        // Five bytes a second is never silent for timeoutMs, but slower than 1024 bytes a second.
        let client = CurlClient(limits: HTTPLimits(timeoutMs: 1000, totalTimeoutMs: 30_000, minBytesPerSecond: 1024))
        let start = DispatchTime.now()
        let error = assertFails(.timeout) { () throws(HTTPError) in
            try client.stream(.get(server.url("/drip?bytes=1000&interval_ms=200"))) { _ in true }
        }
        XCTAssertLessThan(secondsSince(start), 1 + 4)
        XCTAssertTrue(error?.message.contains("fewer than 1024 bytes per second for 1000 ms") == true, error?.message ?? "")
    }

    func testAServerThatStopsSendingIsCutOffAfterTimeoutMs() {
        let client = CurlClient(limits: HTTPLimits(timeoutMs: 500, totalTimeoutMs: 60_000))
        let start = DispatchTime.now()
        let error = assertFails(.timeout) { () throws(HTTPError) in
            try client.fetch(.get(server.url("/stall?bytes=100&seconds=30")))
        }
        XCTAssertLessThan(secondsSince(start), 0.5 + 5)
        XCTAssertEqual(error?.status, 200)
        XCTAssertTrue(error?.isNetworkFailure == true)
    }

    func testAServerThatNeverAnswersIsCutOffAfterTimeoutMs() {
        let client = CurlClient(limits: HTTPLimits(timeoutMs: 500, totalTimeoutMs: 60_000))
        let start = DispatchTime.now()
        let error = assertFails(.timeout) { () throws(HTTPError) in try client.fetch(.get(server.url("/hang?seconds=30"))) }
        XCTAssertLessThan(secondsSince(start), 0.5 + 5)
        XCTAssertNil(error?.status)
    }

    func testABodyShorterThanItsContentLengthIsTruncated() {
        let client = CurlClient()
        let error = assertFails(.truncated) { () throws(HTTPError) in
            try client.fetch(.get(server.url("/short?declared=10000&sent=1000")))
        }
        XCTAssertEqual(error?.status, 200)
        assertFails(.truncated) { () throws(HTTPError) in try client.fetch(.get(server.url("/short-chunked?sent=500"))) }
    }

    func testAServerThatClosesWithoutAnsweringIsNoResponse() {
        assertFails(.noResponse) { () throws(HTTPError) in try CurlClient().fetch(.get(server.url("/silent"))) }
    }

    func testAnEndlessBodyIsCutOffAtMaxBodyBytes() {
        let limit: Int64 = 4 << 20
        let client = CurlClient(limits: HTTPLimits(maxBodyBytes: limit))
        var delivered: Int64 = 0
        let error = assertFails(.tooLarge) { () throws(HTTPError) in
            try client.stream(.get(server.url("/endless"))) { chunk in
                delivered += Int64(chunk.count)
                return true
            }
        }
        XCTAssertEqual(error?.status, 200)
        XCTAssertLessThanOrEqual(delivered, limit)
        XCTAssertGreaterThan(delivered, limit - 65536, "everything up to the limit was delivered")
    }

    func testADeclaredLengthPastTheLimitFailsBeforeTheBody() {
        var delivered = 0
        assertFails(.tooLarge) { () throws(HTTPError) in
            try CurlClient().stream(.get(server.url("/huge"))) { chunk in
                delivered += chunk.count
                return true
            }
        }
        XCTAssertEqual(delivered, 0)
    }

    func testAGzipBombIsCutOffAtMaxBodyBytesOfDecodedBytes() {
        let limit: Int64 = 16 << 20
        let client = CurlClient(limits: HTTPLimits(maxBodyBytes: limit))
        var delivered: Int64 = 0
        var zeros = true
        assertFails(.tooLarge) { () throws(HTTPError) in
            try client.stream(.get(server.url("/bomb"))) { chunk in
                delivered += Int64(chunk.count)
                zeros = zeros && chunk.allSatisfy { $0 == 0 }
                return true
            }
        }
        XCTAssertLessThanOrEqual(delivered, limit)
        XCTAssertGreaterThan(delivered, 1 << 20, "decoded bytes reached the receiver, more than the ~1 MB sent")
        XCTAssertTrue(zeros)
    }

    func testABodyThatIsNotTheGzipItClaimsIsTransport() {
        assertFails(.transport) { () throws(HTTPError) in try CurlClient().fetch(.get(server.url("/bad-gzip"))) }
    }

    func testEndlessHeadersAreTooLarge() {
        let client = CurlClient(limits: HTTPLimits(maxHeaderBytes: 64 << 10))
        assertFails(.tooLarge) { () throws(HTTPError) in try client.fetch(.get(server.url("/headers?count=200&size=1000"))) }
        XCTAssertEqual(try? client.fetch(.get(server.url("/headers?count=20&size=100"))).response.status, 200)
    }

    // MARK: - Peak memory

    /// The bound on the peak's growth: far below the hostile bodies (1 GiB, 8 GiB) and below
    /// the default maxBodyBytes (256 MiB) they are cut off at.
    private let growthBound = 64 << 20

    func testPeakMemoryStaysFlatUnderAGzipBombWithTheDefaultLimits() throws {
        try assertPeakGrowthBounded(path: "/bomb")
    }

    func testPeakMemoryStaysFlatUnderAnEndlessBodyWithTheDefaultLimits() throws {
        try assertPeakGrowthBounded(path: "/endless")
    }

    func testPeakMemoryOfAFetchIsItsLimitNotTheBomb() throws {
        try XCTSkipUnless(PeakMemory.reset(), "the kernel does not allow resetting the peak (/proc/self/clear_refs)")
        let before = try XCTUnwrap(PeakMemory.current())
        assertFails(.tooLarge) { () throws(HTTPError) in try CurlClient().fetch(.get(server.url("/bomb")), maxBytes: 8 << 20) }
        let growth = try XCTUnwrap(PeakMemory.current()) - before
        XCTAssertLessThan(growth, growthBound, "peak grew by \(growth >> 20) MiB")
    }

    /// Streams `path` with the default limits to a receiver that keeps nothing, and checks
    /// the body was cut off at 256 MiB while the process's peak grew by less than the bound.
    private func assertPeakGrowthBounded(path: String) throws {
        try XCTSkipUnless(PeakMemory.reset(), "the kernel does not allow resetting the peak (/proc/self/clear_refs)")
        let before = try XCTUnwrap(PeakMemory.current())
        let client = CurlClient()
        var delivered: Int64 = 0
        assertFails(.tooLarge) { () throws(HTTPError) in
            try client.stream(.get(server.url(path))) { chunk in
                delivered += Int64(chunk.count)
                return true
            }
        }
        let growth = try XCTUnwrap(PeakMemory.current()) - before
        XCTAssertLessThanOrEqual(delivered, client.limits.maxBodyBytes)
        XCTAssertGreaterThan(delivered, client.limits.maxBodyBytes - (1 << 20), "the body ran up to the limit")
        XCTAssertLessThan(growth, growthBound, "peak grew by \(growth >> 20) MiB while \(delivered >> 20) MiB passed through")
    }
}
