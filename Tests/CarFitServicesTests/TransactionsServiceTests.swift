import CarFitCore
import CarFitIO
import CarFitServices
import CarFitStore
import Foundation
import XCTest

/// The transactions and insights rules on the typed service: the list per category, newest
/// first, with its exact sum of the pinned; the insights per category; pins and how an import
/// keeps them; the upsert by id of either JSON type; rejected records; exact sums.
final class TransactionsServiceTests: XCTestCase {
    static let five = ["food", "health", "entertainment", "shopping", "travel"]

    /// The sample (13 transactions, 472.08 in all) imported.
    private func loaded() throws -> ServiceFixture {
        let f = try ServiceFixture()
        XCTAssertEqual(try f.importTransactions(json: try ServiceFixture.text("transactions.json")), .init(imported: 13, rejected: []))
        return f
    }

    /// An id as JSON writes it: 1, "1".
    static func text(_ id: TransactionID) -> String {
        switch id {
        case .int(let i): "\(i)"
        case .string(let s): "\"\(s)\""
        }
    }

    private func ids(_ list: TransactionList) -> [String] { list.transactions.map { TransactionsServiceTests.text($0.id) } }

    /// Each insights row as "category total count share".
    private func rows(_ insights: Insights) -> [String] {
        insights.rows.map { "\($0.category) \($0.total.double) \($0.count) \(MoneySum.share($0.total, of: insights.total))" }
    }

    func testPinningChangesTheInsightsAndAReimportKeepsThePin() throws {
        let f = try loaded()
        let service = f.transactions
        // Every new transaction is pinned: the insights hold all 13, 472.08 in all.
        XCTAssertEqual(try service.insights().total.double, 472.08)
        XCTAssertEqual(try service.insights().count, 13)

        let unpinned = try service.pin(.int(1), pinned: false)
        XCTAssertFalse(unpinned.pinned)
        XCTAssertEqual(try service.insights().total.double, 389.09)
        XCTAssertEqual(try service.insights().count, 12)

        // The records say nothing about pins: importing them again keeps the user's choice.
        try f.importTransactions(json: try ServiceFixture.text("transactions.json"))
        XCTAssertEqual(try service.insights().count, 12)

        // Ids keep their JSON type: "1" is not 1.
        let missing = refusal { () throws(CarFitError) in _ = try service.pin(.string("1"), pinned: true) }
        XCTAssertEqual(missing?.status, .notFound)
        XCTAssertEqual(missing?.field, "id")
    }

    func testListFiltersByCategoryNewestFirst() throws {
        let f = try loaded()
        let service = f.transactions
        let all = try service.list(category: TransactionCategories.all)
        XCTAssertEqual(all.category, "all")
        XCTAssertEqual(ids(all), ["13", "11", "12", "2", "6", "7", "10", "9", "3", "4", "8", "5", "1"])
        XCTAssertEqual(all.sum.double, 472.08)
        XCTAssertEqual(all.categories, ["all"] + TransactionsServiceTests.five)
        let food = try service.list(category: "food")
        XCTAssertEqual(food.category, "food")
        XCTAssertEqual(ids(food), ["11", "7", "9", "3", "4"])
        XCTAssertTrue(food.transactions.allSatisfy { $0.category == "food" && $0.pinned })
        XCTAssertEqual(food.pinnedCount, 5)
        XCTAssertEqual(food.sum.cents, 7428)
        XCTAssertEqual(food.categories, all.categories)
        let latte = try XCTUnwrap(food.transactions.first)
        XCTAssertEqual(latte, Transaction(id: .int(11), name: "Matcha Latte", category: "food", amount: Money(cents: 989),
                                          date: try XCTUnwrap(CivilDate(iso: "2021-04-27")), accountName: "Credit Card",
                                          provider: "starbucks", pinned: true))
    }

    func testEachCategorysListHoldsItsTransactionsAndTheirExactSum() throws {
        let f = try loaded()
        let expected: [(String, Int128, Int)] = [("food", 7428, 5), ("health", 2153, 1), ("entertainment", 8299, 1),
                                                 ("shopping", 7800, 3), ("travel", 21528, 3)]
        var seen = 0
        for (category, cents, count) in expected {
            let list = try f.transactions.list(category: category)
            XCTAssertEqual(list.sum.cents, cents, category)
            XCTAssertEqual(list.transactions.count, count, category)
            XCTAssertTrue(list.transactions.allSatisfy { $0.category == category }, category)
            XCTAssertEqual(list.transactions.map(\.date), list.transactions.map(\.date).sorted(by: >), category)
            seen += count
        }
        XCTAssertEqual(seen, 13)
        XCTAssertEqual(try f.transactions.list(category: "travel").sum.double, 215.28)
    }

    func testTheSampleInsightsAreExact() throws {
        let f = try loaded()
        let insights = try f.transactions.insights()
        XCTAssertEqual(insights.total.cents, 47208)
        XCTAssertEqual(insights.count, 13)
        XCTAssertEqual(rows(insights), ["food 74.28 5 0.1573", "health 21.53 1 0.0456", "entertainment 82.99 1 0.1758",
                                        "shopping 78.0 3 0.1652", "travel 215.28 3 0.456"])
    }

    func testAnUnknownCategoryListsNothingAndAnEmptyStoreHasEveryCategory() throws {
        let empty = try ServiceFixture()
        let nothing = try empty.transactions.list(category: "all")
        XCTAssertEqual(nothing.categories, ["all"] + TransactionsServiceTests.five)
        XCTAssertEqual(nothing.transactions, [])
        XCTAssertEqual(nothing.sum.cents, 0)
        XCTAssertEqual(nothing.pinnedCount, 0)
        XCTAssertEqual(rows(try empty.transactions.insights()), TransactionsServiceTests.five.map { "\($0) 0.0 0 0.0" })
        let f = try loaded()
        let pets = try f.transactions.list(category: "pets")
        XCTAssertEqual(pets.category, "pets")
        XCTAssertEqual(pets.transactions, [])
        XCTAssertEqual(pets.sum.cents, 0)
        XCTAssertEqual(pets.categories, ["all"] + TransactionsServiceTests.five)
    }

    func testAPinShowsInTheListAndTheInsightsAtOnce() throws {
        let f = try loaded()
        XCTAssertEqual(try f.transactions.pin(.int(3), pinned: false).id, .int(3))
        let food = try f.transactions.list(category: "food")
        XCTAssertEqual(food.transactions.count, 5)
        XCTAssertEqual(food.pinnedCount, 4)
        XCTAssertEqual(food.sum.cents, 4896)
        XCTAssertEqual(try f.transactions.list(category: "all").sum.cents, 44676)
        let insights = try f.transactions.insights()
        XCTAssertEqual(insights.total.cents, 44676)
        XCTAssertEqual(rows(insights).first, "food 48.96 4 0.1096")
        XCTAssertTrue(try f.transactions.pin(.int(3), pinned: true).pinned)
        XCTAssertEqual(try f.transactions.list(category: "food").sum.cents, 7428)
        XCTAssertEqual(try f.transactions.insights().total.cents, 47208)
    }

    func testACategoryWithNothingPinnedStaysInTheInsights() throws {
        let f = try loaded()
        _ = try f.transactions.pin(.int(8), pinned: false)   // the only health transaction
        XCTAssertEqual(rows(try f.transactions.insights())[1], "health 0.0 0 0.0")
        for t in try f.transactions.list(category: "all").transactions { _ = try f.transactions.pin(t.id, pinned: false) }
        let insights = try f.transactions.insights()
        XCTAssertEqual(insights.total.cents, 0)
        XCTAssertEqual(insights.count, 0)
        XCTAssertEqual(rows(insights), TransactionsServiceTests.five.map { "\($0) 0.0 0 0.0" })
        XCTAssertEqual(try f.transactions.list(category: "all").transactions.count, 13)
    }

    func testPinningAnUnknownIdIsNotFoundAndChangesNothing() throws {
        let f = try loaded()
        for id: TransactionID in [.int(99), .string("3"), .int(-1), .string("nope")] {
            let error = refusal { () throws(CarFitError) in _ = try f.transactions.pin(id, pinned: false) }
            XCTAssertEqual(error?.status, .notFound, "\(id)")
            XCTAssertEqual(error?.field, "id", "\(id)")
        }
        XCTAssertEqual(try f.transactions.insights().total.cents, 47208)
        XCTAssertEqual(try f.transactions.list(category: "all").pinnedCount, 13)
    }

    func testNewTransactionsArePinnedUnlessTheRecordSaysOtherwise() throws {
        let f = try ServiceFixture()
        try f.importTransactions(json: #"""
            {"transactions": [{"id": 1, "category": "food", "amount": 1.00, "date": "2021-04-01"},
                              {"id": 2, "category": "food", "amount": 2.00, "date": "2021-04-02", "pinned": false},
                              {"id": 3, "category": "food", "amount": 4.00, "date": "2021-04-03", "pinned": null}]}
            """#)
        let food = try f.transactions.list(category: "food")
        XCTAssertEqual(food.transactions.map { "\(TransactionsServiceTests.text($0.id)) \($0.pinned)" }, ["3 true", "2 false", "1 true"])
        XCTAssertEqual(food.sum.cents, 500)
    }

    func testAReimportKeepsTheUsersPinUnlessTheRecordSaysPinned() throws {
        let f = try loaded()
        _ = try f.transactions.pin(.int(3), pinned: false)
        _ = try f.transactions.pin(.int(2), pinned: true)
        XCTAssertEqual(try f.importTransactions(json: try ServiceFixture.text("transactions.json")).imported, 13)
        let pins = Dictionary(uniqueKeysWithValues: try f.transactions.list(category: "all").transactions.map { ($0.id, $0.pinned) })
        XCTAssertEqual(pins[.int(3)], false)
        XCTAssertEqual(pins[.int(2)], true)
        XCTAssertEqual(try f.transactions.list(category: "food").sum.cents, 4896)
        // A record that says "pinned" decides.
        let three = try XCTUnwrap(try f.transactions.list(category: "food").transactions.first { $0.id == .int(3) })
        try f.importTransactions(json: #"{"transactions": [{"id": 3, "category": "food", "amount": \#(three.amount.cents / 100).\#(String(format: "%02lld", three.amount.cents % 100)), "date": "\#(three.date)", "pinned": true}]}"#)
        XCTAssertEqual(try f.transactions.list(category: "food").sum.cents, 7428)
    }

    func testAnUpsertReplacesTheRecordsMembersAndKeepsTheOthers() throws {
        let f = try loaded()
        let answer = try f.importTransactions(json: #"""
            {"transactions": [{"id": 3, "name": "Big Salad", "category": "Groceries", "amount": "30.10", "date": "2021-05-01"},
                              {"id": 14, "category": "bills", "amount": -5, "date": "2021-05-01"}]}
            """#)
        XCTAssertEqual(answer, .init(imported: 2, rejected: []))
        let all = try f.transactions.list(category: "all")
        XCTAssertEqual(all.transactions.count, 14)
        XCTAssertEqual(all.categories, ["all"] + TransactionsServiceTests.five + ["bills", "groceries"])
        let moved = try XCTUnwrap(all.transactions.first { $0.id == .int(3) })
        XCTAssertEqual(moved, Transaction(id: .int(3), name: "Big Salad", category: "groceries", amount: Money(cents: 3010),
                                          date: try XCTUnwrap(CivilDate(iso: "2021-05-01")), accountName: nil, provider: nil, pinned: true))
        XCTAssertEqual(try f.transactions.list(category: "food").sum.cents, 4896)
        XCTAssertEqual(all.sum.cents, 47208 - 2532 + 3010 - 500)
        XCTAssertEqual(try f.transactions.insights().rows.map(\.category), TransactionsServiceTests.five + ["bills", "groceries"])
    }

    func testARepeatedIdInOneDocumentKeepsTheLast() throws {
        let f = try ServiceFixture()
        let answer = try f.importTransactions(json: #"""
            {"transactions": [{"id": 1, "category": "food", "amount": 1.10, "date": "2021-04-01"},
                              {"id": 1, "category": "food", "amount": 2.20, "date": "2021-04-01", "pinned": false}]}
            """#)
        XCTAssertEqual(answer.imported, 2)
        let all = try f.transactions.list(category: "all")
        XCTAssertEqual(all.transactions.map(\.amount.cents), [220])
        XCTAssertEqual(all.transactions.map(\.pinned), [false])
    }

    func testIntegerAndStringIdsAreDistinct() throws {
        let f = try ServiceFixture()
        try f.importTransactions(json: #"""
            {"transactions": [{"id": 1, "category": "food", "amount": 1, "date": "2021-04-01"},
                              {"id": "1", "category": "food", "amount": 2, "date": "2021-04-01"},
                              {"id": "b", "category": "food", "amount": 3, "date": "2021-04-01"},
                              {"id": 10, "category": "food", "amount": 4, "date": "2021-04-01"},
                              {"id": 2, "category": "food", "amount": 5, "date": "2021-04-01"}]}
            """#)
        XCTAssertEqual(ids(try f.transactions.list(category: "all")), ["1", "2", "10", #""1""#, #""b""#])
        XCTAssertEqual(try f.transactions.pin(.string("1"), pinned: false).amount.cents, 200)
        let pins = try f.transactions.list(category: "all").transactions.map { "\(TransactionsServiceTests.text($0.id)) \($0.pinned)" }
        XCTAssertEqual(pins, ["1 true", "2 true", "10 true", #""1" false"#, #""b" true"#])
    }

    func testRefundsAreAllowed() throws {
        let f = try ServiceFixture()
        try f.importTransactions(json: #"""
            {"transactions": [{"id": 1, "category": "shopping", "amount": 54.60, "date": "2021-04-25"},
                              {"id": 2, "category": "shopping", "amount": -54.60, "date": "2021-04-26"},
                              {"id": 3, "category": "food", "amount": 10, "date": "2021-04-26"}]}
            """#)
        XCTAssertEqual(try f.transactions.list(category: "shopping").sum.cents, 0)
        let insights = try f.transactions.insights()
        XCTAssertEqual(rows(insights)[3], "shopping 0.0 2 0.0")
        XCTAssertEqual(rows(insights)[0], "food 10.0 1 1.0")
    }

    func testEachRejectedRecordIsReportedByIndexAndFieldAndTheRestStored() throws {
        let f = try ServiceFixture()
        func record(_ id: String = "100", _ extra: String = "", amount: String? = "1.25", date: String = "2021-04-01",
                    category: String = "food") -> String {
            let members = [#""id": \#(id)"#, #""name": "ok""#, #""category": "\#(category)""#, amount.map { #""amount": \#($0)"# },
                           #""date": "\#(date)""#, extra.isEmpty ? nil : extra].compactMap { $0 }
            return "{" + members.joined(separator: ", ") + "}"
        }
        let records = [
            record(), record("101", amount: "0.125"), record("102", amount: nil), record("103", date: "2021-02-30"),
            record("104", date: "04/01/2021"), record("105", amount: #""12.345""#), record("106", amount: "1e300"),
            #"{"name": "ok", "category": "food", "amount": 1.25, "date": "2021-04-01"}"#, record("107", category: "all"),
            record("108", #""pinned": "yes""#), #""not a record""#, record("109", amount: #""54.60""#),
        ]
        let answer = try f.importTransactions(json: #"{"transactions": [\#(records.joined(separator: ", "))]}"#)
        XCTAssertEqual(answer, .init(imported: 2, rejected: ["1 amount", "2 amount", "3 date", "4 date", "5 amount", "6 amount",
                                                             "7 id", "8 category", "9 pinned", "10 -"]))
        let all = try f.transactions.list(category: "all")
        XCTAssertEqual(Set(all.transactions.map(\.id)), [.int(100), .int(109)])
        XCTAssertEqual(all.sum.cents, 5585)
    }

    func testADocumentWithoutATransactionsArrayChangesNothing() throws {
        let f = try loaded()
        for document in ["{}", #"{"transactions": null}"#, #"{"transactions": {"id": 1}}"#, #"{"data": []}"#] {
            let error = refusal { () throws(CarFitError) in try f.importTransactions(json: document) }
            XCTAssertEqual(error?.status, .invalid, document)
            XCTAssertEqual(error?.field, "transactions", document)
        }
        XCTAssertEqual(try f.transactions.list(category: "all").transactions.count, 13)
        XCTAssertEqual(try f.transactions.insights().total.cents, 47208)
    }

    /// Random amounts of two decimals, some as strings, in many categories: every sum and share
    /// exact, each amount back as the double nearest its decimal.
    func testRandomTwoDecimalAmountsSumExactly() throws {
        let f = try ServiceFixture()
        let categories = TransactionsServiceTests.five + ["bills", "gifts"]
        var rng = SplitMix64(seed: 47208)
        var records: [String] = []
        var expected = Dictionary(uniqueKeysWithValues: categories.map { ($0, (cents: Int128(0), count: 0)) })
        var amounts: [Int64] = []
        for i in 0..<30_000 {
            let cents = i % 7 == 0 ? Int64(rng.below(2_000_000_000_000_001)) - 1_000_000_000_000_000 : Int64(rng.below(52_000_001)) - 2_000_000
            let category = categories[rng.below(categories.count)]
            let pinned = rng.below(10) < 8
            let magnitude = cents.magnitude
            let text = "\(cents < 0 ? "-" : "")\(magnitude / 100).\(String(format: "%02llu", magnitude % 100))"
            let amount = i % 11 == 0 ? "\"\(text)\"" : text
            records.append(#"{"id": \#(i), "category": "\#(category)", "amount": \#(amount), "date": "2021-04-\#(String(format: "%02d", 1 + i % 28))", "pinned": \#(pinned)}"#)
            amounts.append(cents)
            if pinned {
                expected[category]?.cents += Int128(cents)
                expected[category]?.count += 1
            }
        }
        XCTAssertEqual(try f.importTransactions(json: #"{"transactions": [\#(records.joined(separator: ","))]}"#), .init(imported: 30_000, rejected: []))
        let insights = try f.transactions.insights()
        let grand = expected.values.reduce(Int128(0)) { $0 + $1.cents }
        XCTAssertEqual(insights.total.cents, grand)
        XCTAssertEqual(insights.rows.map(\.category), categories)
        for row in insights.rows {
            XCTAssertEqual(row.total.cents, expected[row.category]?.cents, row.category)
            XCTAssertEqual(row.count, expected[row.category]?.count, row.category)
            XCTAssertEqual(try f.transactions.list(category: row.category).sum.cents, expected[row.category]?.cents, row.category)
        }
        let all = try f.transactions.list(category: "all")
        XCTAssertEqual(all.transactions.count, 30_000)
        XCTAssertEqual(all.sum.cents, grand)
        for t in all.transactions {
            guard case .int(let i) = t.id else { return XCTFail("an id changed its type") }
            XCTAssertEqual(t.amount.cents, amounts[Int(i)])
            XCTAssertEqual(t.amount.double, Double("\(Decimal(amounts[Int(i)]) / 100)"), "\(i)")
        }
    }

    func testTheLargestAmountsSumExactlyBeyondADoublesPrecision() throws {
        let f = try ServiceFixture()
        let records = (0..<1000).map { #"{"id": \#($0), "category": "travel", "amount": 9999999999999.99, "date": "2021-04-01"}"# }
            + [#"{"id": "x", "category": "travel", "amount": "0.01", "date": "2021-04-01"}"#]
        try f.importTransactions(json: #"{"transactions": [\#(records.joined(separator: ","))]}"#)
        let exact = Int128(999_999_999_999_999) * 1000 + 1
        XCTAssertEqual(try f.transactions.list(category: "travel").sum.cents, exact)
        XCTAssertEqual(try f.transactions.insights().total.cents, exact)
        XCTAssertEqual(try f.transactions.insights().total.double, 9_999_999_999_999_990.01)
        let answer = try f.importTransactions(json: #"""
            {"transactions": [{"id": "big", "category": "travel", "amount": 10000000000000.01, "date": "2021-04-01"},
                              {"id": "ok", "category": "travel", "amount": 10000000000000, "date": "2021-04-01"}]}
            """#)
        XCTAssertEqual(answer, .init(imported: 1, rejected: ["0 amount"]))
    }
}
