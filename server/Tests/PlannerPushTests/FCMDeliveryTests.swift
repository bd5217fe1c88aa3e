import Foundation
import XCTest
@testable import PlannerPush

final class FCMDeliveryTests: XCTestCase {
    var credentials: TestCredentials!
    var fake: FakeFCM!
    var clock: TestClock!
    var queue: InMemoryPushQueue!
    var logs: LogLines!
    var deliverer: PushDeliverer!
    var transport: PushTransport!

    override func setUp() async throws {
        credentials = try TestCredentials()
        clock = TestClock()
        let clock = clock!
        fake = FakeFCM(credentials: credentials, now: { clock.now })
        try await fake.start()
        queue = InMemoryPushQueue()
        logs = LogLines()
        let config = try PushConfig(fcm: FCMConfig(reading: reader(["serviceAccountFile": credentials.serviceAccountPath,
                                                                    "baseUrl": fake.baseURL])), apns: nil)
        let logs = logs!
        deliverer = PushDeliverer(config: config, queue: queue, clock: clock.pushClock, jitter: { 1.0 }, log: { logs.append($0) })
        transport = PushTransport(config: config, clock: clock.pushClock, options: PushDeliveryOptions())
    }

    override func tearDown() async throws {
        await transport?.shutdown()
        await fake?.stop()
        credentials?.remove()
        XCTAssertEqual(fake?.violations ?? [], [])
        for line in logs?.lines ?? [] {
            for token in fake?.issuedTokens ?? [] { XCTAssertFalse(line.contains(token), "a log line holds an access token") }
        }
    }

    func reader(_ object: [String: Any]) -> ConfigReader {
        ConfigReader(object: object, prefix: "fcm.", directory: "")
    }

    /// Rounds until a round claims nothing.
    @discardableResult
    func deliverAll(maxRounds: Int = 50) async -> Int {
        var total = 0
        for _ in 0..<maxRounds {
            guard case .success(let count) = await deliverer.deliverDue(transport), count > 0 else { break }
            total += count
        }
        return total
    }

    func testSendsEachDevicesPushesInSeqOrderWithOneAccessToken() async throws {
        var ids: [String: [String]] = [:]
        for round in 0..<3 {
            ids["a", default: []].append(await queue.enqueue(clientId: "a", platform: "fcm", token: "token-a"))
            if round < 2 { ids["b", default: []].append(await queue.enqueue(clientId: "b", platform: "fcm", token: "token-b")) }
        }
        let claimed = await deliverAll()
        XCTAssertEqual(claimed, 5)
        let deliveries = fake.deliveries
        XCTAssertEqual(deliveries.filter { $0.deviceToken == "token-a" }.map(\.id), ids["a"])
        XCTAssertEqual(deliveries.filter { $0.deviceToken == "token-a" }.map(\.seq), [1, 2, 3])
        XCTAssertEqual(deliveries.filter { $0.deviceToken == "token-b" }.map(\.seq), [1, 2])
        XCTAssertEqual(fake.issuedTokens.count, 1, "the access token is reused")
        XCTAssertEqual(Set(deliveries.map(\.credential)), Set(fake.issuedTokens))
        for record in await queue.records {
            XCTAssertEqual(record.state, "sent")
            XCTAssertEqual(record.attempts, 1)
            XCTAssertNil(record.lastError)
        }
    }

    func testAccessTokenIsRenewedAMinuteBeforeItExpires() async throws {
        await queue.enqueue(clientId: "a", platform: "fcm", token: "token-a")
        await deliverAll()
        // The fake's tokens live 3599 s: reused until 60 s before that.
        clock.advance(seconds: 3599 - 61)
        await queue.enqueue(clientId: "a", platform: "fcm", token: "token-a")
        await deliverAll()
        XCTAssertEqual(fake.issuedTokens.count, 1)
        clock.advance(seconds: 2)
        await queue.enqueue(clientId: "a", platform: "fcm", token: "token-a")
        await deliverAll()
        XCTAssertEqual(fake.issuedTokens.count, 2)
        let times = fake.assertionTimes
        XCTAssertEqual(times.count, 2)
        XCTAssertEqual(times.last, clock.now / 1000, "the new assertion is issued now")
        XCTAssertEqual(fake.deliveries.map(\.credential), [fake.issuedTokens[0], fake.issuedTokens[0], fake.issuedTokens[1]])
    }

    func testRetriesWithBackoffAndRetryAfterThenSendsInOrder() async throws {
        let first = await queue.enqueue(clientId: "a", platform: "fcm", token: "token-a")
        let second = await queue.enqueue(clientId: "a", platform: "fcm", token: "token-a")
        let start = clock.now
        fake.script([
            .json(429, #"{"error":{"code":429,"status":"RESOURCE_EXHAUSTED","details":[{"@type":"type.googleapis.com/google.firebase.fcm.v1.FcmError","errorCode":"QUOTA_EXCEEDED"}]}}"#,
                  headers: [("Retry-After", "120")]),
        ])
        await deliverAll()
        var record = try await queue.require(first)
        XCTAssertEqual(record.state, "queued")
        XCTAssertEqual(record.attempts, 1)
        XCTAssertEqual(record.lastError, "429 QUOTA_EXCEEDED")
        XCTAssertEqual(record.notBefore, start + 120_000, "the longer Retry-After replaces the 1 s backoff")
        XCTAssertEqual(fake.requests.count, 1, "the later push waits behind the first")

        clock.advance(seconds: 119)
        await deliverAll()
        XCTAssertEqual(fake.requests.count, 1, "not before Retry-After")
        clock.advance(seconds: 1)
        let date = Date(timeIntervalSince1970: Double(clock.now) / 1000 + 30)
        fake.script([.json(503, #"{"error":{"code":503,"status":"UNAVAILABLE"}}"#, headers: [("Retry-After", httpDate(date))])])
        await deliverAll()
        record = try await queue.require(first)
        XCTAssertEqual(record.attempts, 2)
        XCTAssertEqual(record.lastError, "503 UNAVAILABLE")
        XCTAssertEqual(record.notBefore, Int64(date.timeIntervalSince1970 * 1000), "an HTTP date in Retry-After")

        clock.advance(seconds: 30)
        fake.script([.drop, .respond(status: 500, body: Array("<html>oops</html>".utf8))])
        await deliverAll()
        record = try await queue.require(first)
        XCTAssertEqual(record.attempts, 3)
        XCTAssertTrue(["network: connection closed", "network: connection reset"].contains(record.lastError ?? ""), record.lastError ?? "nil")
        XCTAssertEqual(record.notBefore, clock.now + 4_000, "1 s doubling: the third failure waits 4 s")

        clock.advance(seconds: 4)
        await deliverAll()
        record = try await queue.require(first)
        XCTAssertEqual(record.attempts, 4)
        XCTAssertEqual(record.lastError, "500 Internal Server Error", "a body that is not JSON: the status's reason")
        XCTAssertEqual(record.notBefore, clock.now + 8_000)

        clock.advance(seconds: 8)
        await deliverAll()
        record = try await queue.require(first)
        XCTAssertEqual(record.state, "sent")
        XCTAssertEqual(record.attempts, 5)
        XCTAssertEqual(record.lastError, "500 Internal Server Error", "lastError stays after a later success")
        let later = try await queue.require(second)
        XCTAssertEqual(later.state, "sent")
        XCTAssertEqual(later.attempts, 1)
        XCTAssertEqual(fake.deliveries.map(\.seq), [1, 2])
        XCTAssertEqual(fake.issuedTokens.count, 1)
    }

    func testUnregisteredTokenDropsTheDevicesQueue() async throws {
        let a1 = await queue.enqueue(clientId: "a", platform: "fcm", token: "token-a")
        let a2 = await queue.enqueue(clientId: "a", platform: "fcm", token: "token-a")
        let b1 = await queue.enqueue(clientId: "b", platform: "fcm", token: "token-b")
        let c1 = await queue.enqueue(clientId: "c", platform: "fcm", token: "token-c")
        // Claimed in queue order: a, b, c (one request each, answers in the order they arrive).
        fake.script([
            .json(404, #"{"error":{"code":404,"message":"Requested entity was not found.","status":"NOT_FOUND","details":[{"@type":"type.googleapis.com/google.firebase.fcm.v1.FcmError","errorCode":"UNREGISTERED"}]}}"#),
        ])
        _ = await deliverer.deliverDue(transport)
        let firstTried = try XCTUnwrap(fake.requests.first)
        await deliverAll()
        let dead = firstTried.deviceToken
        let deadClient = String(dead.dropFirst("token-".count))
        let observed1 = await queue.token(of: deadClient)
        XCTAssertEqual(observed1, .some(nil), "the device is unregistered")
        for record in await queue.records where record.clientId == deadClient {
            XCTAssertEqual(record.state, "dropped")
            XCTAssertEqual(record.lastError, "404 UNREGISTERED")
        }
        let observed2 = try await queue.require(firstTried.id).attempts
        XCTAssertEqual(observed2, 1)
        for record in await queue.records where record.clientId != deadClient {
            XCTAssertEqual(record.state, "sent")
        }
        XCTAssertFalse(fake.requests.dropFirst().contains { $0.deviceToken == dead }, "nothing more is sent to a dead token")
        _ = (a1, a2, b1, c1)
    }

    func testNotFoundStatusWithoutDetailsIsADeadToken() async throws {
        let id = await queue.enqueue(clientId: "a", platform: "fcm", token: "token-a")
        fake.script([.json(404, #"{"error":{"code":404,"status":"NOT_FOUND"}}"#)])
        await deliverAll()
        let observed3 = try await queue.require(id).state
        XCTAssertEqual(observed3, "dropped")
        let observed4 = await queue.token(of: "a")
        XCTAssertEqual(observed4, .some(nil))
    }

    func testOtherClientErrorsDropOnlyThatPush() async throws {
        let first = await queue.enqueue(clientId: "a", platform: "fcm", token: "token-a")
        let second = await queue.enqueue(clientId: "a", platform: "fcm", token: "token-a")
        let third = await queue.enqueue(clientId: "a", platform: "fcm", token: "token-a")
        fake.script([
            .json(400, #"{"error":{"code":400,"message":"The registration token is not a valid FCM registration token","status":"INVALID_ARGUMENT","details":[{"@type":"type.googleapis.com/google.firebase.fcm.v1.FcmError","errorCode":"INVALID_ARGUMENT"}]}}"#),
            .json(403, #"{"error":{"code":403,"status":"PERMISSION_DENIED","details":[{"errorCode":"SENDER_ID_MISMATCH"}]}}"#),
        ])
        await deliverAll()
        let records = await queue.records
        XCTAssertEqual(records.map(\.state), ["dropped", "dropped", "sent"])
        let observed5 = try await queue.require(first).lastError
        XCTAssertEqual(observed5, "400 INVALID_ARGUMENT")
        let observed6 = try await queue.require(second).lastError
        XCTAssertEqual(observed6, "403 SENDER_ID_MISMATCH")
        let observed7 = try await queue.require(third).lastError
        XCTAssertNil(observed7)
        let observed8 = await queue.token(of: "a")
        XCTAssertEqual(observed8, .some("token-a"), "the device stays registered")
        XCTAssertEqual(fake.requests.map(\.seq), [1, 2, 3])
    }

    func testHostileAnswersAreBoundedAndNeverCrash() async throws {
        let ids = [
            await queue.enqueue(clientId: "a", platform: "fcm", token: "token-a"),
            await queue.enqueue(clientId: "a", platform: "fcm", token: "token-a"),
            await queue.enqueue(clientId: "a", platform: "fcm", token: "token-a"),
            await queue.enqueue(clientId: "a", platform: "fcm", token: "token-a"),
        ]
        let huge = [UInt8](repeating: UInt8(ascii: "x"), count: 8 << 20)
        let hugeJSON = Array((#"{"error":{"status":""# + String(repeating: "A", count: 200_000) + #""}}"#).utf8)
        fake.script([
            .respond(status: 500, body: huge),
            .respond(status: 404, headers: [("content-type", "application/json")], body: Array("{not json".utf8)),
            .respond(status: 400, headers: [("content-type", "application/json")], body: hugeJSON),
            .respond(status: 200, body: Array("\u{0}\u{1}binary".utf8)),
        ])
        await deliverAll()
        var first = try await queue.require(ids[0])
        XCTAssertEqual(first.lastError, "500 Internal Server Error", "an 8 MiB body that is not JSON")
        XCTAssertEqual(first.state, "queued")
        clock.advance(seconds: 2)
        await deliverAll()
        first = try await queue.require(ids[0])
        XCTAssertEqual(first.state, "dropped")
        XCTAssertEqual(first.attempts, 2)
        XCTAssertEqual(first.lastError, "404 Not Found", "a 404 that does not say UNREGISTERED drops only the push")
        let second = try await queue.require(ids[1])
        XCTAssertEqual(second.state, "dropped")
        XCTAssertEqual(second.lastError, "400 Bad Request", "a JSON error over the reading bound is not parsed")
        let observed9 = try await queue.require(ids[2]).state
        XCTAssertEqual(observed9, "sent")
        let observed10 = try await queue.require(ids[3]).state
        XCTAssertEqual(observed10, "sent")
        let observed11 = await queue.token(of: "a")
        XCTAssertEqual(observed11, .some("token-a"))
        XCTAssertEqual(fake.requests.map(\.seq), [1, 1, 2, 3, 4])
    }

    func testTokenEndpointFailuresAreRetried() async throws {
        let id = await queue.enqueue(clientId: "a", platform: "fcm", token: "token-a")
        fake.scriptToken([.json(503, #"{"error":"backend_error"}"#), .json(200, #"{"token_type":"Bearer"}"#)])
        await deliverAll()
        var record = try await queue.require(id)
        XCTAssertEqual(record.lastError, "oauth 503 backend_error")
        XCTAssertEqual(record.attempts, 1)
        XCTAssertEqual(fake.requests.count, 0, "no message without an access token")
        clock.advance(seconds: 1)
        await deliverAll()
        record = try await queue.require(id)
        XCTAssertEqual(record.lastError, "oauth 200 without an access_token")
        clock.advance(seconds: 2)
        await deliverAll()
        record = try await queue.require(id)
        XCTAssertEqual(record.state, "sent")
        XCTAssertEqual(record.attempts, 3)
    }

    func testRefusedAccessTokenIsFetchedAgain() async throws {
        let id = await queue.enqueue(clientId: "a", platform: "fcm", token: "token-a")
        fake.script([.json(401, #"{"error":{"code":401,"status":"UNAUTHENTICATED"}}"#)])
        await deliverAll()
        let observed12 = try await queue.require(id).lastError
        XCTAssertEqual(observed12, "401 UNAUTHENTICATED")
        clock.advance(seconds: 1)
        await deliverAll()
        let observed13 = try await queue.require(id).state
        XCTAssertEqual(observed13, "sent")
        XCTAssertEqual(fake.issuedTokens.count, 2)
        XCTAssertEqual(fake.deliveries.last?.credential, fake.issuedTokens.last)
    }

    func testAPushHeldByAKilledProcessIsTakenAgainWhenItsLeaseEnds() async throws {
        let id = await queue.enqueue(clientId: "a", platform: "fcm", token: "token-a")
        // Another process claimed it and was killed.
        _ = try await queue.claimDue(platforms: ["fcm"], now: clock.now, limit: 10, leaseMillis: PushDeliveryOptions().leaseMillis)
        await deliverAll()
        XCTAssertEqual(fake.requests.count, 0)
        clock.advance(seconds: 45)
        await deliverAll()
        let observed14 = try await queue.require(id).state
        XCTAssertEqual(observed14, "sent")
        XCTAssertLessThanOrEqual(PushDeliveryOptions().leaseMillis + PushDeliveryOptions().idleMillis, 60_000)
    }

    func httpDate(_ date: Date) -> String {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "GMT")
        formatter.dateFormat = "EEE, dd MMM yyyy HH:mm:ss 'GMT'"
        return formatter.string(from: date)
    }
}
