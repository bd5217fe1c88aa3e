import Foundation
import XCTest

/// Transactions and insights through the real library.
final class TransactionsABITests: ABITestCase {
    func sample() throws -> String {
        try String(contentsOf: Repo.fixtures.appendingPathComponent("transactions.json"), encoding: .utf8)
    }

    func testSampleThroughTheNamedExports() throws {
        let core = try TestCore(lib)
        let imported = core.export("carfit_transactions_import", try sample())
        XCTAssertEqual(imported.status, 0)
        XCTAssertEqual(imported.object["imported"] as? Int, 13)
        XCTAssertEqual((imported.object["rejected"] as? [Any])?.count, 0)

        let food = core.export("carfit_transactions_list", #"{"category": "food"}"#)
        XCTAssertEqual(food.status, 0)
        XCTAssertEqual(food.object["category"] as? String, "food")
        XCTAssertEqual(food.object["categories"] as? [String], ["all", "food", "health", "entertainment", "shopping", "travel"])
        XCTAssertEqual((food.object["transactions"] as? [[String: Any]])?.map { $0["id"] as? Int }, [11, 7, 9, 3, 4])
        XCTAssertEqual(food.object["count"] as? Int, 5)
        XCTAssertTrue(food.text?.contains(#""sum":74.28"#) ?? false, food.text ?? "")

        let insights = core.export("carfit_insights_get", nil)
        XCTAssertEqual(insights.status, 0)
        XCTAssertTrue(insights.text?.contains(#""total":472.08"#) ?? false, insights.text ?? "")
        let rows = try XCTUnwrap(insights.object["categories"] as? [[String: Any]])
        XCTAssertEqual(rows.map { $0["category"] as? String }, ["food", "health", "entertainment", "shopping", "travel"])
        XCTAssertEqual(rows.map { $0["total"] as? Double }, [74.28, 21.53, 82.99, 78.0, 215.28])
        XCTAssertEqual(rows.first?["share"] as? Double, 0.1573)

        let pinned = core.export("carfit_transactions_pin", #"{"id": 3, "pinned": false}"#)
        XCTAssertEqual(pinned.status, 0)
        XCTAssertEqual((pinned.object["transaction"] as? [String: Any])?["pinned"] as? Bool, false)
        XCTAssertTrue(core.call("transactions.list", #"{"category": "food"}"#).text?.contains(#""sum":48.96"#) ?? false)
        XCTAssertTrue(core.call("insights.get", nil).text?.contains(#""total":446.76"#) ?? false)
    }

    func testRefusedPinChangesNothing() throws {
        let core = try TestCore(lib)
        core.call("transactions.import", try sample())
        let before = [core.call("transactions.list", nil).text, core.call("insights.get", nil).text]
        let cases: [(String?, Int32, String)] = [
            (nil, 2, "id"), (#"{"id": 3}"#, 2, "pinned"), (#"{"id": true, "pinned": false}"#, 2, "id"),
            (#"{"id": 3, "pinned": "no"}"#, 2, "pinned"), (#"{"id": "3", "pinned": false}"#, 3, "id"),
            (#"{"id": 404, "pinned": false}"#, 3, "id"),
        ]
        for (request, status, field) in cases {
            let reply = core.export("carfit_transactions_pin", request)
            XCTAssertEqual(reply.status, status, request ?? "NULL")
            XCTAssertEqual(reply.field, field, request ?? "NULL")
        }
        XCTAssertEqual(core.call("transactions.import", #"{"transactions": 1}"#).field, "transactions")
        XCTAssertEqual([core.call("transactions.list", nil).text, core.call("insights.get", nil).text], before)
    }

    func testPinsSurviveReopening() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("carfit-tx-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let config = #"{"database": "\#(dir.appendingPathComponent("db.sqlite").path)"}"#
        let first = try TestCore(lib, config: config)
        first.call("transactions.import", try sample())
        first.call("transactions.pin", #"{"id": 13, "pinned": false}"#)
        let before = first.call("insights.get", nil).text
        first.close()
        let second = try TestCore(lib, config: config)
        XCTAssertEqual(second.call("insights.get", nil).text, before)
        XCTAssertTrue(before?.contains(#""total":355.3"#) ?? false, before ?? "")
    }
}
