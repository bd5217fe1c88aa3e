import CarFitCore
import CarFitIO
import CarFitServices
import CarFitStore
import XCTest

final class TransactionsServiceTests: XCTestCase {
    func testPinningChangesTheInsightsAndAReimportKeepsThePin() throws {
        let f = try ServiceFixture()
        let service = TransactionsService(transactions: TransactionStore(f.db))
        let document = try ServiceFixture.data("transactions.json")
        let request = try document.withUnsafeBytes { bytes throws(CarFitError) in try JanssonParser.object(bytes) }
        XCTAssertEqual(try service.importTransactions(request), .obj(["imported": 13, "rejected": []]))
        // Every new transaction is pinned: the insights hold all 13, 472.08 in all.
        XCTAssertEqual(try service.insights().objectValue?["total"], 472.08)
        XCTAssertEqual(try service.insights().objectValue?["count"], 13)

        let unpinned = try service.pin(try ServiceFixture.fields(#"{"id": 1, "pinned": false}"#))
        XCTAssertEqual(unpinned.objectValue?["transaction"]?.objectValue?["pinned"], false)
        XCTAssertEqual(try service.insights().objectValue?["total"], 389.09)
        XCTAssertEqual(try service.insights().objectValue?["count"], 12)

        // The records say nothing about pins: importing them again keeps the user's choice.
        _ = try service.importTransactions(request)
        XCTAssertEqual(try service.insights().objectValue?["count"], 12)

        let missing = refusal { () throws(CarFitError) in _ = try service.pin(try ServiceFixture.fields(#"{"id": "1", "pinned": true}"#)) }
        XCTAssertEqual(missing?.status, .notFound)
        XCTAssertEqual(missing?.field, "id")
    }

    func testListFiltersByCategory() throws {
        let f = try ServiceFixture()
        let service = TransactionsService(transactions: TransactionStore(f.db))
        let document = try ServiceFixture.data("transactions.json")
        _ = try service.importTransactions(try document.withUnsafeBytes { bytes throws(CarFitError) in try JanssonParser.object(bytes) })
        let all = try service.list(try ServiceFixture.fields("{}"))
        XCTAssertEqual(all.objectValue?["count"], 13)
        let food = try service.list(try ServiceFixture.fields(#"{"category": "food"}"#))
        guard case .array(let rows)? = food.objectValue?["transactions"] else { return XCTFail("no transactions") }
        XCTAssertFalse(rows.isEmpty)
        XCTAssertTrue(rows.allSatisfy { $0.objectValue?["category"] == "food" })
        XCTAssertEqual(food.objectValue?["count"], .int(Int64(rows.count)))
    }
}
