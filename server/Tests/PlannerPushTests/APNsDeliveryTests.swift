import Foundation
import NIOSSL
import XCTest
@testable import PlannerPush

final class APNsDeliveryTests: XCTestCase {
    var credentials: TestCredentials!
    var fake: FakeAPNs!
    var clock: TestClock!
    var queue: InMemoryPushQueue!
    var deliverer: PushDeliverer!
    var transport: PushTransport!

    override func setUp() async throws {
        credentials = try TestCredentials()
        clock = TestClock()
        let clock = clock!
        fake = FakeAPNs(credentials: credentials, now: { clock.now })
        try await fake.start()
        queue = InMemoryPushQueue()
        let root = try NIOSSLCertificate.fromPEMFile(credentials.caPath)
        let config = PushConfig(fcm: nil, apns: try APNsConfig(
            keyId: credentials.keyId, teamId: credentials.teamId, bundleId: credentials.bundleId,
            privateKeyPEM: credentials.apnsKey.pemRepresentation, baseURL: fake.baseURL, extraTrustRoots: root))
        deliverer = PushDeliverer(config: config, queue: queue, clock: clock.pushClock, jitter: { 1.0 }, log: { _ in })
        transport = PushTransport(config: config, clock: clock.pushClock, options: PushDeliveryOptions())
    }

    override func tearDown() async throws {
        await transport?.shutdown()
        await fake?.stop()
        credentials?.remove()
        XCTAssertEqual(fake?.violations ?? [], [])
    }

    @discardableResult
    func deliverAll(maxRounds: Int = 50) async -> Int {
        var total = 0
        for _ in 0..<maxRounds {
            guard case .success(let count) = await deliverer.deliverDue(transport), count > 0 else { break }
            total += count
        }
        return total
    }

    func testBackgroundPushesOverHTTP2InSeqOrder() async throws {
        var expected: [String] = []
        for _ in 0..<3 {
            expected.append(await queue.enqueue(clientId: "phone", platform: "apns", token: "a1b2c3d4e5f6"))
            await queue.enqueue(clientId: "pad", platform: "apns", token: "ffee0011")
        }
        let observed1 = await deliverAll()
        XCTAssertEqual(observed1, 6)
        let phone = fake.deliveries.filter { $0.deviceToken == "a1b2c3d4e5f6" }
        XCTAssertEqual(phone.map(\.id), expected)
        XCTAssertEqual(phone.map(\.seq), [1, 2, 3])
        XCTAssertEqual(fake.deliveries.filter { $0.deviceToken == "ffee0011" }.map(\.seq), [1, 2, 3])
        XCTAssertEqual(Set(fake.deliveries.map(\.credential)).count, 1, "one provider token for all")
        for record in await queue.records {
            XCTAssertEqual(record.state, "sent")
            XCTAssertEqual(record.attempts, 1)
        }
    }

    func testProviderTokenIsRenewedAfterFiftyMinutes() async throws {
        await queue.enqueue(clientId: "phone", platform: "apns", token: "aa")
        await deliverAll()
        clock.advance(seconds: 50 * 60 - 1)
        await queue.enqueue(clientId: "phone", platform: "apns", token: "aa")
        await deliverAll()
        clock.advance(seconds: 1)
        await queue.enqueue(clientId: "phone", platform: "apns", token: "aa")
        await deliverAll()
        let tokens = fake.deliveries.map(\.credential)
        XCTAssertEqual(tokens.count, 3)
        XCTAssertEqual(tokens[0], tokens[1], "reused within 50 minutes")
        XCTAssertNotEqual(tokens[1], tokens[2], "renewed after 50 minutes")
        let renewed = try XCTUnwrap(DecodedJWT(tokens[2]))
        XCTAssertEqual(renewed.integer("iat"), clock.now / 1000)
    }

    func testDeadTokensUnregisterTheDevice() async throws {
        for (client, answer, text) in [
            ("gone", FakeAnswer.json(410, #"{"reason":"Unregistered","timestamp":1800000000000}"#), "410 Unregistered"),
            ("bad", FakeAnswer.json(400, #"{"reason":"BadDeviceToken"}"#), "400 BadDeviceToken"),
        ] {
            let first = await queue.enqueue(clientId: client, platform: "apns", token: "0a\(client)")
            let second = await queue.enqueue(clientId: client, platform: "apns", token: "0a\(client)")
            fake.script([answer])
            await deliverAll()
            let observed2 = await queue.token(of: client)
            XCTAssertEqual(observed2, .some(nil))
            for id in [first, second] {
                let record = try await queue.require(id)
                XCTAssertEqual(record.state, "dropped")
                XCTAssertEqual(record.lastError, text)
            }
            let observed3 = try await queue.require(first).attempts
            XCTAssertEqual(observed3, 1)
        }
        XCTAssertEqual(fake.requests.count, 2)
    }

    func testRefusalsDropThePushAndFailuresRetry() async throws {
        let ids = [
            await queue.enqueue(clientId: "phone", platform: "apns", token: "beef"),
            await queue.enqueue(clientId: "phone", platform: "apns", token: "beef"),
            await queue.enqueue(clientId: "phone", platform: "apns", token: "beef"),
        ]
        fake.script([
            .json(400, #"{"reason":"DeviceTokenNotForTopic"}"#),
            .json(403, #"{"reason":"InvalidProviderToken"}"#),
            .json(429, #"{"reason":"TooManyRequests"}"#),
        ])
        await deliverAll()
        let observed4 = try await queue.require(ids[0]).lastError
        XCTAssertEqual(observed4, "400 DeviceTokenNotForTopic")
        let observed5 = try await queue.require(ids[0]).state
        XCTAssertEqual(observed5, "dropped")
        let observed6 = try await queue.require(ids[1]).lastError
        XCTAssertEqual(observed6, "403 InvalidProviderToken")
        let observed7 = try await queue.require(ids[1]).state
        XCTAssertEqual(observed7, "dropped")
        var third = try await queue.require(ids[2])
        XCTAssertEqual(third.state, "queued")
        XCTAssertEqual(third.lastError, "429 TooManyRequests")
        XCTAssertEqual(third.notBefore, clock.now + 1_000)

        clock.advance(seconds: 1)
        fake.script([.json(503, #"{"reason":"ServiceUnavailable"}"#, headers: [("Retry-After", "7")])])
        await deliverAll()
        third = try await queue.require(ids[2])
        XCTAssertEqual(third.lastError, "503 ServiceUnavailable")
        XCTAssertEqual(third.notBefore, clock.now + 7_000)

        clock.advance(seconds: 7)
        fake.script([.drop])
        await deliverAll()
        third = try await queue.require(ids[2])
        XCTAssertTrue(third.lastError?.hasPrefix("network: ") ?? false, third.lastError ?? "nil")
        XCTAssertEqual(third.attempts, 3)

        // A request right after the drop may still meet the closing connection: one more network failure.
        var rounds = 0
        repeat {
            clock.advance(seconds: Double(third.notBefore - clock.now) / 1000)
            await deliverAll()
            third = try await queue.require(ids[2])
            rounds += 1
        } while third.state == "queued" && rounds < 3 && (third.lastError?.hasPrefix("network: ") ?? false)
        XCTAssertEqual(third.state, "sent")
        XCTAssertEqual(third.attempts, 3 + rounds)
        let observed8 = await queue.token(of: "phone")
        XCTAssertEqual(observed8, .some("beef"))
        // After InvalidProviderToken a new token was signed (a new `iat` second apart or a new signature).
        let credentials = fake.requests.map(\.credential)
        XCTAssertNotEqual(credentials[1], credentials[2])
    }

    func testAnUntrustedServerIsANetworkFailure() async throws {
        let config = PushConfig(fcm: nil, apns: try APNsConfig(
            keyId: credentials.keyId, teamId: credentials.teamId, bundleId: credentials.bundleId,
            privateKeyPEM: credentials.apnsKey.pemRepresentation, baseURL: fake.baseURL))
        var options = PushDeliveryOptions()
        options.connectTimeoutMillis = 1_000
        let untrusting = PushTransport(config: config, clock: clock.pushClock, options: options)
        let id = await queue.enqueue(clientId: "phone", platform: "apns", token: "beef")
        _ = await deliverer.deliverDue(untrusting)
        await untrusting.shutdown()
        let record = try await queue.require(id)
        XCTAssertEqual(record.state, "queued")
        XCTAssertEqual(record.lastError, "network: TLS handshake failed")
        XCTAssertEqual(fake.requests.count, 0)
    }
}
