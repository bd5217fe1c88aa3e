import CarFitCore
import CarFitStore
import XCTest

final class SourceStoreTests: XCTestCase {
    private let failure = SourceStore.Failure(reason: "refused", message: "refused", httpStatus: nil, isNetwork: true)
    private let notFound = SourceStore.Failure(reason: "http_status", message: "404", httpStatus: 404, isNetwork: false)

    func testAttemptsAreCountedAndTheErrorClearedBySuccess() throws {
        let db = try Database(path: ":memory:")
        let store = SourceStore(db)
        XCTAssertNil(try store.state("visits"))
        try store.recordFailure("visits", at: Instant(milliseconds: 1000), notFound)
        try store.recordFailure("visits", at: Instant(milliseconds: 2000), failure)
        var state = try XCTUnwrap(try store.state("visits"))
        XCTAssertEqual(state.consecutiveFailures, 2)
        XCTAssertEqual(state.errorReason, "refused")
        XCTAssertNil(state.errorStatus)
        XCTAssertEqual(state.lastAttempt, Instant(milliseconds: 2000))
        XCTAssertNil(state.lastSuccess)
        try store.recordSuccess("visits", at: Instant(milliseconds: 3000), notModified: false,
                                validators: ("http://a/v", "\"e1\"", "Tue, 01 Sep 2020 00:00:00 GMT"))
        state = try XCTUnwrap(try store.state("visits"))
        XCTAssertEqual(state.consecutiveFailures, 0)
        XCTAssertNil(state.errorReason)
        XCTAssertEqual(state.lastSuccess, Instant(milliseconds: 3000))
        XCTAssertEqual(state.etag, "\"e1\"")
        XCTAssertEqual(state.validatorsURL, "http://a/v")
        // A 304 keeps the validators; an import drops them.
        try store.recordSuccess("visits", at: Instant(milliseconds: 4000), notModified: true, validators: nil)
        XCTAssertEqual(try store.state("visits")?.etag, "\"e1\"")
        XCTAssertEqual(try store.state("visits")?.notModified, true)
        try store.dropValidators("visits")
        XCTAssertNil(try store.state("visits")?.etag)
        XCTAssertNil(try store.state("visits")?.lastModified)
    }

    func testOfflineFollowsTheLatestNetworkFailureAndSuccess() throws {
        let db = try Database(path: ":memory:")
        let store = SourceStore(db)
        XCTAssertFalse(try store.offline())
        try store.recordFailure("visits", at: Instant(milliseconds: 1), failure)
        XCTAssertTrue(try store.offline())
        // A failure that is no network failure does not clear it; a success of any source does.
        try store.recordFailure("articles", at: Instant(milliseconds: 2), notFound)
        XCTAssertTrue(try store.offline())
        try store.recordSuccess("articles", at: Instant(milliseconds: 3), notModified: false, validators: nil)
        XCTAssertFalse(try store.offline())
        try store.recordFailure("catalog", at: Instant(milliseconds: 3), failure)
        XCTAssertTrue(try store.offline())
    }
}
