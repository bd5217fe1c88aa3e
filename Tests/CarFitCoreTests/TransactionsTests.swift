import Foundation
import XCTest

@testable import CarFitCore

final class TransactionsTests: XCTestCase {
    // MARK: - Helpers

    private func transaction(_ id: TransactionID, _ category: String, _ cents: Int64, _ date: String,
                             pinned: Bool = true) throws -> Transaction {
        Transaction(id: id, name: nil, category: category, amount: Money(cents: cents),
                    date: try XCTUnwrap(CivilDate(iso: date)), accountName: nil, provider: nil, pinned: pinned)
    }


    func testMoneyFromStrings() throws {
        let cases: [(String, Int64)] = [("54.60", 5460), ("54.6", 5460), ("-3", -300), ("0.5", 50), ("0", 0),
                                         ("-0.01", -1), ("10000000000000", 1_000_000_000_000_000),
                                         ("0012.30", 1230)]
        for (text, cents) in cases {
            XCTAssertEqual(try Money(text: text, field: "amount").cents, cents, text)
        }
        for text in ["", "-", ".5", "1.", "1.234", "+1", "1e2", " 1", "1 ", "1,50", "--1", "0x10", "१२",
                     "10000000000000.01", "99999999999999999999999"] {
            XCTAssertThrowsError(try Money(text: text, field: "amount"), text) { error in
                XCTAssertEqual((error as? CarFitError)?.field, "amount")
            }
        }
    }

    func testMoneyOutputIsNearestDouble() {
        XCTAssertEqual(Money(cents: 5460).double, 54.6)
        XCTAssertEqual(Money(cents: 47208).double, 472.08)
        XCTAssertEqual(Money(cents: -1).double, -0.01)
        XCTAssertEqual(Money(cents: 5460).text, "54.60")
        XCTAssertEqual(Money(cents: -5).text, "-0.05")
        // Beyond 2^53 cents the value goes through its exact decimal text.
        let big: Int128 = (1 << 60) + 7
        XCTAssertEqual(Money.double(cents: big), Double("11529215046068469.83"))
        XCTAssertEqual(Money.decimalText(cents: -big), "-11529215046068469.83")
        XCTAssertEqual(Money.double(cents: -big), -(Double("11529215046068469.83") ?? 0))
    }

    func testSumCountsPinnedOnlyAndAllowsRefunds() throws {
        let rows = [try transaction(.int(1), "food", 1000, "2021-04-01"),
                    try transaction(.int(2), "food", -250, "2021-04-02"),
                    try transaction(.int(3), "food", 9999, "2021-04-03", pinned: false)]
        let list = TransactionList(selected: "food", transactions: rows, present: ["food"])
        XCTAssertEqual(list.transactions.count, 3)
        XCTAssertEqual(list.pinnedCount, 2)
        XCTAssertEqual(list.sum.cents, 750)
        XCTAssertEqual(list.sum.double, 7.5)
    }

    func testShares() {
        func s(_ part: Int128, _ whole: Int128) -> Double {
            var p = MoneySum(), w = MoneySum()
            p.add(Money(cents: Int64(part)))
            w.add(Money(cents: Int64(whole)))
            return MoneySum.share(p, of: w)
        }
        XCTAssertEqual(s(7428, 47208), 0.1573)
        XCTAssertEqual(s(1, 3), 0.3333)
        XCTAssertEqual(s(2, 3), 0.6667)
        XCTAssertEqual(s(1, 20000), 0.0001)       // 0.00005: half away from zero
        XCTAssertEqual(s(-1, 20000), -0.0001)
        XCTAssertEqual(s(1, 20001), 0)
        XCTAssertEqual(s(5, 0), 0)
        XCTAssertEqual(s(0, 0), 0)
        XCTAssertEqual(s(100, 100), 1)
        XCTAssertEqual(s(-300, 100), -3)          // refunds can make a share exceed 1 in magnitude
        XCTAssertEqual(s(150, -100), -1.5)
    }

    func testInsightsListEveryCategoryEvenWhenNothingIsPinned() {
        let insights = Insights(pinned: [(category: "bills", amount: Money(cents: 500))],
                                present: ["zoo", "food", "bills"])
        XCTAssertEqual(insights.rows.map(\.category),
                       ["food", "health", "entertainment", "shopping", "travel", "bills", "zoo"])
        XCTAssertEqual(insights.rows.map(\.count), [0, 0, 0, 0, 0, 1, 0])
        XCTAssertEqual(insights.total.cents, 500)
        let empty = Insights(pinned: [], present: [])
        XCTAssertEqual(empty.rows.count, 5)
        XCTAssertEqual(empty.rows.map(\.count), [0, 0, 0, 0, 0])
        XCTAssertEqual(empty.total.cents, 0)
    }

    // MARK: - Categories

    func testCategoryOrder() throws {
        XCTAssertEqual(TransactionCategories.bar(["travel", "zoo", "bills", "food", "Äpfel", "bills"]),
                       ["all", "food", "health", "entertainment", "shopping", "travel", "bills", "zoo", "Äpfel"])
        XCTAssertEqual(TransactionCategories.bar([]), ["all", "food", "health", "entertainment", "shopping", "travel"])
        XCTAssertEqual(try TransactionCategories.normalized("  Food\n", field: "category"), "food")
        XCTAssertEqual(try TransactionCategories.normalized("Home Office", field: "category"), "home office")
        for bad in ["", "   ", "all", " ALL ", "fo\u{0}od", String(repeating: "x", count: 257)] {
            XCTAssertThrowsError(try TransactionCategories.normalized(bad, field: "category"), bad) { error in
                XCTAssertEqual((error as? CarFitError)?.field, "category")
            }
        }
    }

    // MARK: - Ids, upsert and pin rules

    func testListOrderIsNewestFirstThenId() throws {
        let rows = [try transaction(.int(2), "food", 1, "2021-04-22"),
                    try transaction(.string("x"), "food", 1, "2021-04-22"),
                    try transaction(.int(10), "food", 1, "2021-04-22"),
                    try transaction(.int(1), "food", 1, "2021-03-05"),
                    try transaction(.int(3), "food", 1, "2021-04-30")]
        let list = TransactionList(selected: "food", transactions: rows, present: ["food"])
        XCTAssertEqual(list.transactions.map(\.id), [.int(3), .int(2), .int(10), .string("x"), .int(1)])
    }


    func testIdsFromTextAndNumbers() throws {
        XCTAssertEqual(try TransactionID(text: "1", field: "id"), .string("1"))
        XCTAssertEqual(try TransactionID(number: 3.0, field: "id"), .int(3))
        for bad in [1.5, 1e300, -.infinity, .nan] {
            XCTAssertThrowsError(try TransactionID(number: bad, field: "x.id"), "\(bad)") { error in
                XCTAssertEqual((error as? CarFitError)?.field, "x.id")
            }
        }
        for bad in ["", String(repeating: "x", count: 257), "a\u{0}b"] {
            XCTAssertThrowsError(try TransactionID(text: bad, field: "id"), bad) { error in
                XCTAssertEqual((error as? CarFitError)?.field, "id")
            }
        }
        let ids: [TransactionID] = [.string("b"), .int(10), .string("B"), .int(-1), .int(2), .string("a")]
        XCTAssertEqual(ids.sorted(), [.int(-1), .int(2), .int(10), .string("B"), .string("a"), .string("b")])
    }

    func testPinRule() throws {
        let t = try transaction(.int(1), "food", 100, "2021-04-01")
        // Without "pinned": a new transaction is pinned, an existing one keeps the user's choice.
        XCTAssertEqual(TransactionRecord(transaction: t, pinned: nil).pinned(existing: nil), true)
        XCTAssertEqual(TransactionRecord(transaction: t, pinned: nil).pinned(existing: false), false)
        XCTAssertEqual(TransactionRecord(transaction: t, pinned: nil).pinned(existing: true), true)
        // With "pinned": the record decides.
        XCTAssertEqual(TransactionRecord(transaction: t, pinned: false).pinned(existing: true), false)
        XCTAssertEqual(TransactionRecord(transaction: t, pinned: true).pinned(existing: false), true)
    }
}
