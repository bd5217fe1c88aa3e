import CarFitAPI
import CarFitCore
import CarFitIO
import XCTest

/// The transactions' requests read from their documents and their documents written.
final class TransactionsAPITests: XCTestCase {
    func testTheListRequestsCategory() throws {
        XCTAssertEqual(try TransactionsListRequest(Fields(JSONObject())).category, "all")
        XCTAssertEqual(try TransactionsListRequest(Fields(JSONObject(["category": .null]))).category, "all")
        XCTAssertEqual(try TransactionsListRequest(Fields(JSONObject(["category": "All"]))).category, "all")
        XCTAssertEqual(try TransactionsListRequest(Fields(JSONObject(["category": " Food"]))).category, "food")
        XCTAssertThrowsError(try TransactionsListRequest(Fields(JSONObject(["category": 3]))))
        XCTAssertThrowsError(try TransactionsListRequest(Fields(JSONObject(["category": ""]))))
        XCTAssertEqual(try TransactionsListRequest(Fields(JSONObject(["category": " ALL "]))).category, "all")
        XCTAssertEqual(try TransactionsListRequest(Fields(JSONObject(["category": "  TRAVEL "]))).category, "travel")
        for bad: JSON in [3, "", ["food"]] {
            XCTAssertThrowsError(try TransactionsListRequest(Fields(JSONObject(["category": bad])))) { error in
                XCTAssertEqual((error as? CarFitError)?.field, "category")
                XCTAssertEqual((error as? CarFitError)?.status, .invalid)
            }
        }
    }

    func testThePinRequestKeepsTheIdsType() throws {
        XCTAssertEqual(try PinRequest(Fields(JSONObject(["id": "1", "pinned": true]))).id, .string("1"))
        XCTAssertEqual(try PinRequest(Fields(JSONObject(["id": 1, "pinned": false]))).id, .int(1))
        for (object, field) in [(JSONObject(["pinned": true]), "id"), (JSONObject(["id": 1]), "pinned"),
                                (JSONObject(["id": 1.5, "pinned": true]), "id"), (JSONObject(["id": 1, "pinned": 1]), "pinned"),
                                (JSONObject(["id": .null, "pinned": false]), "id"), (JSONObject(["id": true, "pinned": false]), "id"),
                                (JSONObject(["id": "", "pinned": false]), "id"), (JSONObject(["id": [3], "pinned": false]), "id"),
                                (JSONObject(["id": 3, "pinned": .null]), "pinned"), (JSONObject(["id": 3, "pinned": "false"]), "pinned"),
                                (JSONObject(["id": 3, "pinned": 0]), "pinned")] {
            XCTAssertThrowsError(try PinRequest(Fields(object))) { error in
                XCTAssertEqual((error as? CarFitError)?.field, field)
            }
        }
    }

    func testDocuments() throws {
        XCTAssertEqual(TransactionID.string("a").json, .string("a"))
        XCTAssertEqual(TransactionID.int(-4).json, .int(-4))
        let date = try XCTUnwrap(CivilDate(iso: "2021-04-25"))
        let jeans = Transaction(id: .int(1), name: "Jeans", category: "shopping", amount: Money(cents: 5460), date: date,
                                accountName: "Credit Card", provider: "jCrew", pinned: true)
        XCTAssertEqual(PinnedAnswer(transaction: jeans).json.encoded(),
                       #"{"transaction":{"id":1,"name":"Jeans","category":"shopping","amount":54.6,"date":"2021-04-25","accountName":"Credit Card","provider":"jCrew","pinned":true}}"#)
        XCTAssertEqual(Insights(pinned: [], present: []).json.encoded(),
                       #"{"categories":[{"category":"food","total":0.0,"count":0,"share":0.0},{"category":"health","total":0.0,"count":0,"share":0.0},{"category":"entertainment","total":0.0,"count":0,"share":0.0},{"category":"shopping","total":0.0,"count":0,"share":0.0},{"category":"travel","total":0.0,"count":0,"share":0.0}],"total":0.0,"count":0}"#)
        let list = TransactionList(selected: "shopping", transactions: [jeans], present: ["shopping"])
        XCTAssertEqual(list.json.objectValue?["sum"], .double(54.6))
        XCTAssertEqual(list.json.objectValue?["pinnedCount"], 1)
        XCTAssertEqual(list.json.objectValue?["count"], 1)
    }
}
