import CarFitCore
import CarFitIO
import CarFitHTTP
import CarFitNet
import CarFitServices
import CarFitStore
import XCTest

/// A refresh's bookkeeping on the typed service: the maxAge shortcut, the validators sent and
/// kept, the success recorded in the import's own transaction, failures recorded.
final class SourcesServiceTests: XCTestCase {
    func service(_ f: ServiceFixture) -> SourcesService {
        SourcesService(sources: SourceStore(f.db), clock: f.clock, config: CoreConfig(hour24: true, processors: 1).sources)
    }

    func testAStoredAnswerIsRecordedInTheImportsTransactionWithItsValidators() throws {
        let f = try ServiceFixture()
        let sources = service(f)
        let outcome = try sources.refresh("catalog", url: "http://127.0.0.1:1/c", maxAge: nil, conditional: true, lock: f) {
            url, validators, commit throws(CarFitError) -> RefreshOutcome<Int> in
            XCTAssertEqual(url, "http://127.0.0.1:1/c")
            XCTAssertTrue(validators.isEmpty)
            try f.db.transaction { () throws(CarFitError) in try commit("\"v1\"", "Tue, 01 Sep 2020 10:00:00 GMT") }
            return .stored(7)
        }
        guard case .stored(7) = outcome else { return XCTFail("\(outcome)") }
        XCTAssertEqual(outcome.eventStatus, "ok")
        let state = try XCTUnwrap(try SourceStore(f.db).state("catalog"))
        XCTAssertEqual(state.lastSuccess, f.clock.now)
        XCTAssertEqual(state.etag, "\"v1\"")
        XCTAssertEqual(state.validatorsURL, "http://127.0.0.1:1/c")
        XCTAssertFalse(state.notModified)
        // The next attempt sends them; a 304 is recorded as a success that changed nothing.
        let again = try sources.refresh("catalog", url: "http://127.0.0.1:1/c", maxAge: nil, conditional: true, lock: f) {
            _, validators, _ throws(CarFitError) -> RefreshOutcome<Int> in
            XCTAssertEqual(validators, SourceValidators(etag: "\"v1\"", lastModified: "Tue, 01 Sep 2020 10:00:00 GMT"))
            return .notModified
        }
        XCTAssertEqual(again.eventStatus, "not_modified")
        XCTAssertEqual(try SourceStore(f.db).state("catalog")?.notModified, true)
        // Validators of another URL are not sent.
        _ = try sources.refresh("catalog", url: "http://127.0.0.1:1/other", maxAge: nil, conditional: true, lock: f) {
            _, validators, _ throws(CarFitError) -> RefreshOutcome<Int> in
            XCTAssertTrue(validators.isEmpty)
            return .notModified
        }
    }

    func testARecentSuccessIsFreshWithoutAnAttemptAndAFailureIsRecorded() throws {
        let f = try ServiceFixture()
        let sources = service(f)
        _ = try sources.refresh("articles", url: "http://127.0.0.1:1/a", maxAge: 60, conditional: true, lock: f) {
            _, _, commit throws(CarFitError) -> RefreshOutcome<Int> in
            try commit(nil, nil)
            return .stored(1)
        }
        let fresh = try sources.refresh("articles", url: "http://127.0.0.1:1/a", maxAge: 60, conditional: true, lock: f) {
            _, _, _ throws(CarFitError) -> RefreshOutcome<Int> in
            XCTFail("a fresh source is not asked")
            return .notModified
        }
        guard case .fresh = fresh else { return XCTFail("\(fresh)") }
        XCTAssertNil(fresh.eventStatus)
        let failed = refusal { () throws(CarFitError) in
            _ = try sources.refresh("articles", url: "http://127.0.0.1:1/a", maxAge: 0, conditional: true, lock: f) {
                _, _, _ throws(CarFitError) -> RefreshOutcome<Int> in
                throw CarFitError(.storage, "The disk is full.")
            }
        }
        XCTAssertEqual(failed?.status, .storage)
        let state = try XCTUnwrap(try SourceStore(f.db).state("articles"))
        XCTAssertEqual(state.errorReason, "storage")
        XCTAssertEqual(state.consecutiveFailures, 1)
        XCTAssertEqual(try sources.states().map(\.name), [])
        XCTAssertFalse(try sources.offline())
        // A failure of the connection itself is recorded as one: the sources are offline
        // until a success; an answer's failure keeps its reason and HTTP status.
        _ = refusal { () throws(CarFitError) in
            _ = try sources.refresh("articles", url: "http://127.0.0.1:1/a", maxAge: nil, conditional: true, lock: f) {
                url, _, _ throws(CarFitError) -> RefreshOutcome<Int> in
                throw CarFitError(HTTPError(.refused, url: url, message: "Connection refused."))
            }
        }
        XCTAssertEqual(try SourceStore(f.db).state("articles")?.errorReason, "refused")
        XCTAssertTrue(try sources.offline())
        _ = refusal { () throws(CarFitError) in
            _ = try sources.refresh("catalog", url: "http://127.0.0.1:1/c", maxAge: nil, conditional: true, lock: f) {
                url, _, _ throws(CarFitError) -> RefreshOutcome<Int> in
                throw CarFitError(ImageLoadError.httpStatus(url: url, status: 503))
            }
        }
        let answered = try XCTUnwrap(try SourceStore(f.db).state("catalog"))
        XCTAssertEqual(answered.errorReason, "http_status")
        XCTAssertEqual(answered.errorStatus, 503)
        XCTAssertTrue(try sources.offline(), "an answer is no success")
        _ = try sources.refresh("catalog", url: "http://127.0.0.1:1/c", maxAge: nil, conditional: true, lock: f) {
            _, _, _ throws(CarFitError) -> RefreshOutcome<Int> in .notModified
        }
        XCTAssertFalse(try sources.offline())
        // A request refused before the network is no attempt.
        XCTAssertFalse(SourcesService.isAttemptFailure(CarFitError(.invalid, "no")))
    }

    /// An import the host makes itself replaces what a source's validators describe: the next
    /// refresh of that area asks unconditionally; the other areas keep theirs.
    func testAHostImportDropsTheValidatorsOfItsAreaOnly() throws {
        let f = try ServiceFixture()
        let sources = service(f)
        for area in ["visits", "catalog"] {
            _ = try sources.refresh(area, url: "http://127.0.0.1:1/\(area)", maxAge: nil, conditional: true, lock: f) {
                _, _, commit throws(CarFitError) -> RefreshOutcome<Int> in
                try f.db.transaction { () throws(CarFitError) in try commit("\"\(area)-1\"", nil) }
                return .stored(1)
            }
        }
        try sources.imported("catalog")
        XCTAssertNil(try SourceStore(f.db).state("catalog")?.etag)
        var sent: [String: SourceValidators] = [:]
        for area in ["visits", "catalog"] {
            _ = try sources.refresh(area, url: "http://127.0.0.1:1/\(area)", maxAge: nil, conditional: true, lock: f) {
                _, validators, _ throws(CarFitError) -> RefreshOutcome<Int> in
                sent[area] = validators
                return .notModified
            }
        }
        XCTAssertEqual(sent["visits"], SourceValidators(etag: "\"visits-1\"", lastModified: nil))
        XCTAssertEqual(sent["catalog"]?.isEmpty, true)
        // The record of the last success stays.
        XCTAssertEqual(try SourceStore(f.db).state("catalog")?.lastSuccess, f.clock.now)
    }
}
