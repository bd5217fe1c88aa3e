import CarFitAPI
import CarFitCore
import CarFitIO
import CarFitServices
import XCTest

/// The change feed's request and its batch of events as documents.
final class EventsAPITests: XCTestCase {
    func testEachKindOfEventAsAFeedEntry() throws {
        let at = try XCTUnwrap(Instant(iso: "2020-09-10T07:00:00Z"))
        let batch = EventBatch(events: [
            .init(seq: 4, event: .gap),
            .init(seq: 5, event: .changed(areas: ["visits", "calendar"], external: false)),
            .init(seq: 6, event: .changed(areas: ["all"], external: true)),
            .init(seq: 7, event: .progress(operation: "visits.refresh", done: 10, total: nil)),
            .init(seq: 8, event: .source(source: "visits", status: "ok")),
            .init(seq: 9, event: .image(url: "http://a/b.png", status: "loaded")),
            .init(seq: 10, event: .auth(status: "required", source: "visits", httpStatus: 401)),
            .init(seq: 11, event: .arrival(key: "k", at: at)),
        ], last: 11)
        XCTAssertEqual(batch.json.encoded(), """
            {"events":[{"seq":4,"kind":"gap"},{"seq":5,"kind":"changed","areas":["visits","calendar"]},\
            {"seq":6,"kind":"changed","areas":["all"],"external":true},\
            {"seq":7,"kind":"progress","operation":"visits.refresh","done":10,"total":null,"unit":"bytes"},\
            {"seq":8,"kind":"source","source":"visits","status":"ok"},\
            {"seq":9,"kind":"image","url":"http://a/b.png","status":"loaded"},\
            {"seq":10,"kind":"auth","status":"required","source":"visits","httpStatus":401},\
            {"seq":11,"kind":"arrival","key":"k","at":"2020-09-10T07:00:00Z"}],"last":11}
            """)
    }

    func testTheWaitRequestAndTheHubsBatch() throws {
        let r = try EventsWait(Fields(JSONObject()))
        XCTAssertEqual(r.after, 0)
        XCTAssertEqual(r.timeoutMs, 1000)
        XCTAssertThrowsError(try EventsWait(Fields(JSONObject(["timeoutMs": 60_001]))))
        let hub = EventHub()
        hub.publish(.source(source: "catalog", status: "failed"))
        let batch = try EventsService(hub: hub).wait(after: 0, timeoutMs: 0)
        XCTAssertEqual(batch, EventBatch(events: [.init(seq: 1, event: .source(source: "catalog", status: "failed"))], last: 1))
        XCTAssertEqual(try hub.wait(after: 1, timeoutMs: 0), EventBatch(events: [], last: 1))
        XCTAssertEqual(try hub.wait(after: 5, timeoutMs: 0).events.first?.event, .gap, "a seq of an earlier core")
    }
}
