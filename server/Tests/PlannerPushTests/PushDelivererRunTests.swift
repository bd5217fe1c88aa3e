import Foundation
import XCTest
@testable import PlannerPush

final class PushDelivererRunTests: XCTestCase {
    func testRunDeliversQueuedAndNewPushesUntilCancelled() async throws {
        let credentials = try TestCredentials()
        defer { credentials.remove() }
        let fake = FakeFCM(credentials: credentials, now: nil)
        try await fake.start()
        let configPath = credentials.directory.appendingPathComponent("push.json").path
        try "{\"fcm\": {\"serviceAccountFile\": \"service-account.json\", \"baseUrl\": \"\(fake.baseURL)\"}}"
            .write(toFile: configPath, atomically: true, encoding: .utf8)
        let queue = InMemoryPushQueue()
        let queued = await queue.enqueue(clientId: "a", platform: "fcm", token: "token-a")
        // An APNs push stays queued: that service is not configured.
        let elsewhere = await queue.enqueue(clientId: "b", platform: "apns", token: "beef")

        let deliverer = PushDeliverer(config: try PushConfig.load(path: configPath), queue: queue)
        let running = Task { await deliverer.run() }
        try await waitUntil { await queue.record(queued)?.state == "sent" }
        let later = await queue.enqueue(clientId: "a", platform: "fcm", token: "token-a")
        try await waitUntil { await queue.record(later)?.state == "sent" }
        running.cancel()
        await running.value

        XCTAssertEqual(fake.deliveries.map(\.seq), [1, 2])
        let observed1 = await queue.record(elsewhere)?.state
        XCTAssertEqual(observed1, "queued")
        let observed2 = await queue.record(elsewhere)?.attempts
        XCTAssertEqual(observed2, 0)
        let afterStop = await queue.enqueue(clientId: "a", platform: "fcm", token: "token-a")
        try await Task.sleep(nanoseconds: 1_500_000_000)
        let observed3 = await queue.record(afterStop)?.state
        XCTAssertEqual(observed3, "queued", "nothing is sent once run has returned")
        await fake.stop()
        XCTAssertEqual(fake.violations, [])
    }

    func testRunWithoutServicesWaitsForCancellation() async throws {
        let deliverer = PushDeliverer(config: PushConfig(), queue: InMemoryPushQueue())
        let running = Task { await deliverer.run() }
        try await Task.sleep(nanoseconds: 200_000_000)
        running.cancel()
        await running.value
    }

    func waitUntil(seconds: Double = 15, _ condition: @Sendable () async -> Bool) async throws {
        let deadline = Date().addingTimeInterval(seconds)
        while Date() < deadline {
            if await condition() { return }
            try await Task.sleep(nanoseconds: 50_000_000)
        }
        XCTFail("timed out")
    }
}
