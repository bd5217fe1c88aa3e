import CarFitCore
import CarFitIO
import CarFitServices
import CarFitStore
import XCTest

final class TransactionsServiceTests: XCTestCase {
    func sample() throws -> TransactionBatch {
        let document = try ServiceFixture.data("transactions.json")
        return try TransactionBatch(document: try document.withUnsafeBytes { bytes throws(CarFitError) in try JanssonParser.object(bytes) })
    }

    func testPinningChangesTheInsightsAndAReimportKeepsThePin() throws {
        let f = try ServiceFixture()
        let service = TransactionsService(transactions: TransactionStore(f.db))
        let batch = try sample()
        XCTAssertEqual(batch.records.count, 13)
        try service.importTransactions(batch)
        // Every new transaction is pinned: the insights hold all 13, 472.08 in all.
        XCTAssertEqual(try service.insights().total.double, 472.08)
        XCTAssertEqual(try service.insights().count, 13)

        let unpinned = try service.pin(.int(1), pinned: false)
        XCTAssertFalse(unpinned.pinned)
        XCTAssertEqual(try service.insights().total.double, 389.09)
        XCTAssertEqual(try service.insights().count, 12)

        // The records say nothing about pins: importing them again keeps the user's choice.
        try service.importTransactions(batch)
        XCTAssertEqual(try service.insights().count, 12)

        // Ids keep their JSON type: "1" is not 1.
        let missing = refusal { () throws(CarFitError) in _ = try service.pin(.string("1"), pinned: true) }
        XCTAssertEqual(missing?.status, .notFound)
        XCTAssertEqual(missing?.field, "id")
    }

    func testListFiltersByCategoryNewestFirst() throws {
        let f = try ServiceFixture()
        let service = TransactionsService(transactions: TransactionStore(f.db))
        try service.importTransactions(try sample())
        let all = try service.list(category: TransactionCategories.all)
        XCTAssertEqual(all.transactions.count, 13)
        XCTAssertEqual(all.sum.double, 472.08)
        XCTAssertEqual(all.categories, ["all", "food", "health", "entertainment", "shopping", "travel"])
        let food = try service.list(category: "food")
        XCTAssertEqual(food.transactions.map(\.id), [.int(11), .int(7), .int(9), .int(3), .int(4)])
        XCTAssertEqual(food.sum.double, 74.28)
        XCTAssertEqual(food.categories, all.categories)
        XCTAssertEqual(try service.list(category: "nothing").transactions, [])
    }
}
