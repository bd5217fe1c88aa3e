import XCTest
@testable import PlannerPush

final class PushQueueTests: XCTestCase {
    func testPayloadIsCompactJSON() {
        let push = QueuedPush(id: "6F1C", clientId: "c", washerId: "w", platform: "fcm",
                              deviceToken: "t", seq: 3, attempts: 0)
        XCTAssertEqual(push.carfitJSON, #"{"v":1,"id":"6F1C","kind":"visits","seq":3}"#)
    }
}
