import CarFitAPI
import CarFitCore
import CarFitIO
import CarFitServices
import XCTest

/// `sync.push` read from its request, and the documents of the push and the status.
final class SyncAPITests: XCTestCase {
    static let at = Instant(milliseconds: 1_599_725_100_000)

    func testAPushRequestReadsIfDue() throws {
        XCTAssertFalse(try SyncPushRequest(Fields(JSONObject())).ifDue)
        XCTAssertTrue(try SyncPushRequest(Fields(JSONObject(["ifDue": true]))).ifDue)
        XCTAssertFalse(try SyncPushRequest(Fields(JSONObject(["ifDue": false, "other": 1]))).ifDue)
        for bad: JSON in ["true", 1, [true], .obj(["x": 1])] {
            XCTAssertThrowsError(try SyncPushRequest(Fields(JSONObject(["ifDue": bad]))), bad.encoded()) { error in
                XCTAssertEqual((error as? CarFitError)?.status, .invalid)
                XCTAssertEqual((error as? CarFitError)?.field, "ifDue")
            }
        }
    }

    func testThePushAnswers() {
        XCTAssertEqual(PushSummary(pushed: 3, rejected: 1, pending: 2).json.encoded(), #"{"pushed":3,"rejected":1,"pending":2}"#)
        XCTAssertEqual(PushSummary(pending: 4, skipped: .unauthorized).json.encoded(),
                       #"{"pushed":0,"rejected":0,"pending":4,"skipped":"unauthorized"}"#)
        XCTAssertEqual(PushSummary(pending: 4, skipped: .busy).json.encoded(), #"{"pushed":0,"rejected":0,"pending":4,"skipped":"busy"}"#)
        XCTAssertEqual(PushSummary(pending: 4, skipped: .backoff(until: Instant(milliseconds: 1_599_725_101_250))).json.encoded(),
                       #"{"pushed":0,"rejected":0,"pending":4,"skipped":"backoff","nextAttemptAt":"2020-09-10T08:05:01.250Z"}"#)
        let full = PushSummary(pushed: 1, rejected: 0, pending: 0, locations: .init(pushed: 5, pending: 1),
                               attachments: .init(uploaded: 2, pending: 3, failed: 1))
        XCTAssertEqual(full.json.encoded(),
                       #"{"pushed":1,"rejected":0,"pending":0,"locations":{"pushed":5,"pending":1},"attachments":{"uploaded":2,"pending":3,"failed":1}}"#)
    }

    func testTheStatusAnswer() {
        var state = SyncState(clientId: "c")
        let fresh = SyncService.Status(state: state, pending: 0, rejected: [])
        XCTAssertEqual(fresh.json.encoded(),
                       #"{"clientId":"c","lastAttemptAt":null,"lastSuccessAt":null,"lastError":null,"consecutiveFailures":0,"nextAttemptAt":null,"pending":0,"rejected":[]}"#)
        state.lastAttemptAt = SyncAPITests.at
        state.lastSuccessAt = Instant(milliseconds: 1_599_725_000_500)
        state.lastError = SyncFailure(reason: "http_status", message: "m", at: SyncAPITests.at, httpStatus: 503)
        state.consecutiveFailures = 2
        state.nextAttemptAt = Instant(milliseconds: 1_599_725_102_000)
        let rejected = [RejectedChange(mutationId: "m1", visitId: "v", start: Instant(milliseconds: 1_599_724_800_000), state: "Done",
                                       reason: "Too late", at: SyncAPITests.at, timeUsedMinutes: 42),
                        RejectedChange(mutationId: "m2", visitId: nil, start: nil, state: nil, reason: nil, at: nil)]
        XCTAssertEqual(SyncService.Status(state: state, pending: 7, rejected: rejected).json.encoded(),
                       #"{"clientId":"c","lastAttemptAt":"2020-09-10T08:05:00Z","lastSuccessAt":"2020-09-10T08:03:20.500Z","#
                       + #""lastError":{"reason":"http_status","message":"m","at":"2020-09-10T08:05:00Z","httpStatus":503},"#
                       + #""consecutiveFailures":2,"nextAttemptAt":"2020-09-10T08:05:02Z","pending":7,"rejected":["#
                       + #"{"mutationId":"m1","visitId":"v","startTimeUtc":"2020-09-10T08:00:00Z","state":"Done","reason":"Too late","at":"2020-09-10T08:05:00Z","timeUsedMinutes":42},"#
                       + #"{"mutationId":"m2","visitId":null,"startTimeUtc":null,"state":null,"reason":null,"at":null,"timeUsedMinutes":null}]}"#)
        XCTAssertEqual(SyncFailure(reason: "refused", message: "m", at: SyncAPITests.at).json.encoded(),
                       #"{"reason":"refused","message":"m","at":"2020-09-10T08:05:00Z","httpStatus":null}"#)
    }
}
