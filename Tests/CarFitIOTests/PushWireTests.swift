import XCTest
@testable import CarFitCore
import CarFitIO

/// The update server's wire format: the request body written, the answer read and classified.

final class PushWireTests: XCTestCase {
    func mutation(_ n: Int64, _ state: VisitState = .inProgress) -> OutboxMutation {
        OutboxMutation(sequence: n, mutationId: "m\(n)", visitId: "v\(n)", start: Instant(milliseconds: 1_599_725_100_000),
                       state: state, at: Instant(milliseconds: 1_599_725_160_000))
    }

    func testRequestBodyShape() {
        let done = OutboxMutation(sequence: 1, mutationId: "m1", visitId: "v", start: Instant(milliseconds: 1_599_725_100_000),
                                  state: .done, at: Instant(milliseconds: 1_599_727_620_000), timeUsedMinutes: 42)
        let rejected = OutboxMutation(sequence: 2, mutationId: "m2", visitId: nil, start: Instant(milliseconds: 0),
                                      state: .rejected, at: Instant(milliseconds: 0), reason: "Nobody home")
        let body = PushRequest(clientId: "c", mutations: [done, rejected]).json
        XCTAssertEqual(body, .obj([
            "clientId": "c",
            "mutations": [
                .obj(["mutationId": "m1", "visitId": "v", "startTimeUtc": "2020-09-10T08:05:00Z", "state": "Done",
                      "at": "2020-09-10T08:47:00Z", "timeUsedMinutes": 42, "reason": nil]),
                .obj(["mutationId": "m2", "visitId": nil, "startTimeUtc": "1970-01-01T00:00:00Z", "state": "Rejected",
                      "at": "1970-01-01T00:00:00Z", "timeUsedMinutes": nil, "reason": "Nobody home"]),
            ],
        ]))
    }

    func testInstantsKeepTheirMilliseconds() {
        XCTAssertEqual(OutboxMutation.iso(Instant(milliseconds: 1_599_725_100_000)), "2020-09-10T08:05:00Z")
        XCTAssertEqual(OutboxMutation.iso(Instant(milliseconds: 1_599_725_100_250)), "2020-09-10T08:05:00.250Z")
        XCTAssertEqual(OutboxMutation.iso(Instant(milliseconds: 1_599_725_100_007)), "2020-09-10T08:05:00.007Z")
        XCTAssertEqual(OutboxMutation.iso(Instant(milliseconds: -1)), "1969-12-31T23:59:59.999Z")
        for ms: Int64 in [0, 1, 999, 1_000, 1_599_725_100_123, -62_135_596_800_000, 253_402_300_799_999] {
            XCTAssertEqual(Instant(iso: OutboxMutation.iso(Instant(milliseconds: ms)))?.milliseconds, ms)
        }
    }

    func testBatchesOfAtMostFiveHundredOldestFirst() {
        var random = CarFitCore.SplitMix64(seed: 5)
        var pending = (1...1_234).map { mutation(Int64($0)) }
        pending.shuffle(using: &random)
        let batches = PushRequest.batches(clientId: "c", pending: pending)
        XCTAssertEqual(batches.map(\.mutations.count), [500, 500, 234])
        XCTAssertEqual(batches.flatMap(\.mutations).map(\.sequence), (1...1_234).map(Int64.init))
        XCTAssertTrue(batches.allSatisfy { $0.clientId == "c" })
        XCTAssertEqual(PushRequest.batches(clientId: "c", pending: []), [])
        XCTAssertEqual(PushRequest.batches(clientId: "c", pending: Array(pending.prefix(3)), limit: 0).count, 3)
        XCTAssertEqual(PushRequest.batches(clientId: "c", pending: (1...500).map { mutation(Int64($0)) }).count, 1)
    }

    func testClassification() throws {
        let sent = ["a", "b", "c", "d"]
        let answer = try PushAnswer(json: .obj([
            "applied": ["c", "a", "ghost"],
            "rejected": [.obj(["mutationId": "b", "reason": "Visit was reassigned."]),
                         .obj(["mutationId": "other", "reason": "x"])],
            "extra": true,
        ]))
        let outcome = answer.outcome(sent: sent)
        XCTAssertEqual(outcome.applied, ["a", "c"])
        XCTAssertEqual(outcome.rejected, [PushAnswer.Rejected(mutationId: "b", reason: "Visit was reassigned.")])
        XCTAssertEqual(outcome.pending, ["d"])
    }

    func testEveryEntryLandsInExactlyOneList() throws {
        var random = CarFitCore.SplitMix64(seed: 11)
        for _ in 0..<200 {
            let sent = (0..<random.below(20)).map { "m\($0)" }
            var applied: [JSON] = [], rejected: [JSON] = []
            for id in sent + ["x1", "x2"] {
                switch random.below(3) {
                case 0: applied.append(.string(id))
                case 1: rejected.append(.obj(["mutationId": .string(id), "reason": "r"]))
                default: break
                }
            }
            let outcome = try PushAnswer(json: .obj(["applied": .array(applied), "rejected": .array(rejected)]))
                .outcome(sent: sent)
            let all = outcome.applied + outcome.rejected.map(\.mutationId) + outcome.pending
            XCTAssertEqual(all.sorted(), sent.sorted())
        }
    }

    func testAnIdBothAppliedAndRejectedMakesTheAnswerMalformed() {
        XCTAssertThrowsError(try PushAnswer(json: .obj(["applied": ["a"], "rejected": [.obj(["mutationId": "a", "reason": "r"])]]))) {
            XCTAssertEqual($0 as? MalformedAnswer, MalformedAnswer("names mutation a both applied and rejected"))
        }
    }

    func testMalformedAnswers() {
        let bad: [JSON] = [
            [], "applied", .obj([:]), .obj(["applied": []]), .obj(["rejected": []]),
            .obj(["applied": .null, "rejected": []]), .obj(["applied": [1], "rejected": []]),
            .obj(["applied": [], "rejected": ["a"]]), .obj(["applied": [], "rejected": [.obj(["reason": "r"])]]),
            .obj(["applied": [], "rejected": [.obj(["mutationId": 3, "reason": "r"])]]),
            .obj(["applied": [], "rejected": [.obj(["mutationId": "a", "reason": 3])]]),
        ]
        for json in bad {
            XCTAssertThrowsError(try PushAnswer(json: json), json.encoded()) { XCTAssertTrue($0 is MalformedAnswer) }
            XCTAssertThrowsError(try PushAnswer(answer: json.encodedBytes()), json.encoded()) { XCTAssertTrue($0 is MalformedAnswer) }
        }
        for text in ["", "{", "applied", "{\"applied\": [], \"rejected\": []"] {
            XCTAssertThrowsError(try PushAnswer(answer: Array(text.utf8)), text) { XCTAssertEqual($0 as? MalformedAnswer, MalformedAnswer("is not JSON")) }
        }
        XCTAssertEqual(try PushAnswer(answer: Array(#"{"applied": ["a"], "rejected": []}"#.utf8)), PushAnswer(applied: ["a"], rejected: []))
    }

    func testAMissingReasonGetsTheDefault() throws {
        let answer = try PushAnswer(json: .obj(["applied": [], "rejected": [.obj(["mutationId": "a"]),
                                                                            .obj(["mutationId": "b", "reason": nil])]]))
        XCTAssertEqual(answer.rejected.map(\.reason), [PushAnswer.defaultReason, PushAnswer.defaultReason])
    }

    func testDuplicatesInTheAnswerOrTheRequestCountOnce() throws {
        let answer = try PushAnswer(json: .obj(["applied": ["a", "a"],
                                                "rejected": [.obj(["mutationId": "b", "reason": "first"]),
                                                             .obj(["mutationId": "b", "reason": "second"])]]))
        let outcome = answer.outcome(sent: ["a", "b", "a"])
        XCTAssertEqual(outcome, PushOutcome(applied: ["a"], rejected: [.init(mutationId: "b", reason: "first")]))
    }

    func testTheLocationPushBodyAndItsAnswer() throws {
        let report = LocationReport(latitude: 55.5, longitude: 12.25, accuracyMeters: 8, at: Instant(milliseconds: 1_599_725_100_250))
        let body = LocationPushWire.body(clientId: "c", points: [("p1", report)])
        XCTAssertEqual(String(decoding: body, as: UTF8.self),
                       #"{"clientId":"c","points":[{"id":"p1","latitude":55.5,"longitude":12.25,"accuracyMeters":8.0,"at":"2020-09-10T08:05:00.250Z"}]}"#)
        XCTAssertEqual(try LocationPushWire.applied(Array(#"{"applied": ["p1", "x"], "more": 1}"#.utf8)), ["p1", "x"])
        for text in ["", "[]", #"{"applied": "p1"}"#, #"{"applied": [1]}"#, #"{"points": []}"#] {
            XCTAssertThrowsError(try LocationPushWire.applied(Array(text.utf8)), text) { XCTAssertTrue($0 is MalformedAnswer) }
        }
    }
}
