import Foundation
import XCTest

@testable import CarFitCore
@testable import CarFitIO

/// The transactions document read into typed records: amounts, ids, every rejection rule.
final class TransactionsDocumentTests: XCTestCase {
    /// The challenge's sample, from examples/data/transactions.json.
    private func sampleDocument() throws -> JSONObject {
        let url = URL(fileURLWithPath: #filePath)
            .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("examples/data/transactions.json")
        let any = try JSONSerialization.jsonObject(with: Data(contentsOf: url))
        return try XCTUnwrap(Self.json(any).objectValue, "the transactions fixture is not an object")
    }

    /// Foundation's parse tree → `JSON` (numbers with a fraction or exponent become reals).
    private static func json(_ any: Any) -> JSON {
        switch any {
        case let d as [String: Any]:
            var o = JSONObject()
            for (k, v) in d { o[k] = json(v) }
            return .object(o)
        case let a as [Any]: return .array(a.map(json))
        case let s as String: return .string(s)
        case let n as NSNumber:
            if String(cString: n.objCType) == "c" { return .bool(n.boolValue) }
            let d = n.doubleValue
            if d.rounded() == d, !n.stringValue.contains(".") { return .int(n.int64Value) }
            return .double(d)
        default: return .null
        }
    }

    private func record(_ pairs: KeyValuePairs<String, JSON>) -> JSON { .obj(pairs) }

    private func valid(_ overrides: [String: JSON] = [:], removing: [String] = []) -> JSON {
        var o = JSONObject(["id": 1, "name": "Jeans", "category": "shopping", "amount": 54.60,
                            "date": "2021-04-25", "accountName": "Credit Card", "provider": "jCrew"])
        for (k, v) in overrides { o[k] = v }
        for k in removing { o[k] = nil }
        return .object(o)
    }

    private func rejection(_ value: JSON) -> Rejection? {
        if case .failure(let r) = TransactionsDocument.record(value, index: 7) { return r }
        return nil
    }

    func testMoneyFromNumbers() throws {
        XCTAssertEqual(try Money(json: 54.60, field: "amount").cents, 5460)
        XCTAssertEqual(try Money(json: 82.99, field: "amount").cents, 8299)
        XCTAssertEqual(try Money(json: 0.1, field: "amount").cents, 10)
        XCTAssertEqual(try Money(json: -12.05, field: "amount").cents, -1205)
        XCTAssertEqual(try Money(json: 7, field: "amount").cents, 700)
        XCTAssertEqual(try Money(json: .int(-3), field: "amount").cents, -300)
        XCTAssertEqual(try Money(json: .double(-0.0), field: "amount").cents, 0)
        XCTAssertEqual(try Money(json: .double(1e13), field: "amount").cents, 1_000_000_000_000_000)
        XCTAssertEqual(try Money(json: .int(10_000_000_000_000), field: "amount").cents, 1_000_000_000_000_000)
        XCTAssertEqual(try Money(json: .double(9_999_999_999_999.99), field: "amount").cents, 999_999_999_999_999)
    }

    func testMoneyRefusesMoreThanTwoDecimalsAndHugeValues() {
        for bad: JSON in [0.125, 0.001, 54.601, 1e-7, .double(Double.leastNonzeroMagnitude), .double(1.005)] {
            XCTAssertThrowsError(try Money(json: bad, field: "amount"), "\(bad)") { error in
                let e = error as? CarFitError
                XCTAssertEqual(e?.status, .invalid)
                XCTAssertEqual(e?.field, "amount")
                XCTAssertTrue(e?.message.contains("two decimal places") ?? false, e?.message ?? "")
            }
        }
        for bad: JSON in [.double(1e13 + 0.01), .double(-2e13), .double(1e300), .double(-Double.greatestFiniteMagnitude),
                          .int(10_000_000_000_001), .int(Int64.min), .int(Int64.max)] {
            XCTAssertThrowsError(try Money(json: bad, field: "x[2].amount"), "\(bad)") { error in
                XCTAssertEqual((error as? CarFitError)?.field, "x[2].amount")
            }
        }
        for bad: JSON in [true, .null, [1], .obj(["a": 1])] {
            XCTAssertThrowsError(try Money(json: bad, field: "amount")) { error in
                XCTAssertEqual((error as? CarFitError)?.field, "amount")
            }
        }
        XCTAssertNil(Money(double: .nan))
        XCTAssertNil(Money(double: .infinity))
    }

    /// Tens of thousands of random two-decimal amounts: each parses to its own cents, and their
    /// sum equals an independently computed integer sum and Foundation's decimal sum.
    func testRandomAmountsParseAndSumExactly() throws {
        var generator = SplitMix64(seed: 20210430)
        var sum = MoneySum()
        var expectedCents: Int64 = 0
        var decimal = Decimal(0)
        var naive = 0.0
        let n = 50_000
        for i in 0..<n {
            let magnitude = Int64(generator.next() % (i % 3 == 0 ? 100_000_000_000 : 1_000_000))
            let cents = i % 5 == 0 ? -magnitude : magnitude
            let text = (cents < 0 ? "-" : "") + String(abs(cents) / 100) + "." + String(format: "%02lld", abs(cents) % 100)
            guard let x = Double(text) else { return XCTFail(text) }
            let money = try Money(json: .double(x), field: "amount")
            XCTAssertEqual(money.cents, cents, text)
            XCTAssertEqual(try Money(json: .string(text), field: "amount").cents, cents, text)
            XCTAssertEqual(money.double, x, text)
            sum.add(money)
            expectedCents += cents
            decimal += Decimal(string: text) ?? 0
            naive += x
        }
        XCTAssertEqual(sum.cents, Int128(expectedCents))
        var d = decimal
        var rounded = Decimal()
        NSDecimalRound(&rounded, &d, 2, .plain)
        XCTAssertEqual(rounded, decimal)
        XCTAssertEqual(sum.double, Double(Money.decimalText(cents: sum.cents)))
        XCTAssertEqual(Money.decimalText(cents: sum.cents), "\(decimal)".contains(".") ? Self.twoPlaces("\(decimal)") : "\(decimal).00")
        // The point of integer cents: a plain floating-point sum drifts.
        XCTAssertNotEqual(naive, sum.double)
    }

    private static func twoPlaces(_ text: String) -> String {
        guard let dot = text.firstIndex(of: ".") else { return text + ".00" }
        let places = text.distance(from: dot, to: text.endIndex) - 1
        return places >= 2 ? text : text + String(repeating: "0", count: 2 - places)
    }

    // MARK: - The sample

    func testSampleInsightsAreExact() throws {
        let batch = try TransactionBatch(document: Fields(try sampleDocument()))
        XCTAssertEqual(batch.records.count, 13)
        XCTAssertEqual(batch.rejected, [])
        let transactions = batch.records.map { $0.transaction }
        XCTAssertTrue(transactions.allSatisfy(\.pinned))
        let insights = Insights(pinned: transactions.map { ($0.category, $0.amount) },
                                present: transactions.map(\.category))
        XCTAssertEqual(insights.rows.map(\.category), ["food", "health", "entertainment", "shopping", "travel"])
        XCTAssertEqual(insights.rows.map(\.total.double), [74.28, 21.53, 82.99, 78.00, 215.28])
        XCTAssertEqual(insights.rows.map(\.count), [5, 1, 1, 3, 3])
        XCTAssertEqual(insights.total.double, 472.08)
        XCTAssertEqual(insights.total.cents, 47208)
        let food = try XCTUnwrap(insights.rows.first)
        XCTAssertEqual(MoneySum.share(food.total, of: insights.total), 0.1573)
    }

    func testSampleFoodList() throws {
        let batch = try TransactionBatch(document: Fields(try sampleDocument()))
        let all = batch.records.map { $0.transaction }
        let food = all.filter { $0.category == "food" }
        let list = TransactionList(selected: "food", transactions: food, present: all.map(\.category))
        XCTAssertEqual(list.transactions.map(\.id), [.int(11), .int(7), .int(9), .int(3), .int(4)])
        XCTAssertEqual(list.sum.double, 74.28)
        XCTAssertEqual(list.categories, ["all", "food", "health", "entertainment", "shopping", "travel"])
        let whole = TransactionList(selected: "all", transactions: all, present: all.map(\.category))
        XCTAssertEqual(whole.transactions.count, 13)
        XCTAssertEqual(whole.sum.double, 472.08)
        XCTAssertEqual(whole.transactions.first?.id, .int(13))   // 2021-04-30
        XCTAssertEqual(whole.transactions.last?.id, .int(1))     // 2021-03-05
    }

    // MARK: - Sums and shares

    func testIdsKeepTheirTypeAndOrder() throws {
        XCTAssertEqual(try TransactionID(json: 1, field: "id"), .int(1))
        XCTAssertEqual(try TransactionID(json: "1", field: "id"), .string("1"))
        XCTAssertNotEqual(try TransactionID(json: 1, field: "id"), try TransactionID(json: "1", field: "id"))
        XCTAssertEqual(try TransactionID(json: 3.0, field: "id"), .int(3))
        for bad: JSON in [1.5, true, .null, "", .string(String(repeating: "x", count: 257)), "a\u{0}b", [1], .double(1e300)] {
            XCTAssertThrowsError(try TransactionID(json: bad, field: "id"), "\(bad)") { error in
                XCTAssertEqual((error as? CarFitError)?.field, "id")
            }
        }
        let ids: [TransactionID] = [.string("b"), .int(10), .string("B"), .int(-1), .int(2), .string("a")]
        XCTAssertEqual(ids.sorted(), [.int(-1), .int(2), .int(10), .string("B"), .string("a"), .string("b")])
    }

    func testPinRuleOnImport() throws {
        func record(_ pinned: JSON?) throws -> TransactionRecord {
            var o = JSONObject(["id": 1, "category": "food", "amount": 1, "date": "2021-04-01"])
            if let pinned { o["pinned"] = pinned }
            return try TransactionsDocument.record(.object(o), index: 0).get()
        }
        // Without "pinned": a new transaction is pinned, an existing one keeps the user's choice.
        XCTAssertEqual(try record(nil).pinned(existing: nil), true)
        XCTAssertEqual(try record(nil).pinned(existing: false), false)
        XCTAssertEqual(try record(nil).pinned(existing: true), true)
        XCTAssertEqual(try record(.null).pinned(existing: false), false)
        // With "pinned": the record decides.
        XCTAssertEqual(try record(false).pinned(existing: nil), false)
        XCTAssertEqual(try record(false).pinned(existing: true), false)
        XCTAssertEqual(try record(true).pinned(existing: false), true)
        XCTAssertEqual(try record(nil).transaction.pinned, true)
    }

    // MARK: - Rejected records

    func testValidRecord() throws {
        guard case .success(let r) = TransactionsDocument.record(valid(["category": " Shopping "]), index: 0) else {
            return XCTFail("rejected")
        }
        XCTAssertEqual(r.transaction.amount.cents, 5460)
        XCTAssertEqual(r.transaction.category, "shopping")
        XCTAssertEqual(r.pinned, nil)
        XCTAssertEqual(r.transaction.name, "Jeans")
        XCTAssertEqual(r.transaction.date.description, "2021-04-25")
        XCTAssertEqual(r.transaction.accountName, "Credit Card")
        XCTAssertEqual(r.transaction.provider, "jCrew")
        XCTAssertTrue(r.transaction.pinned)
        // Optional members may be missing or null.
        guard case .success(let bare) = TransactionsDocument.record(valid(["name": .null], removing: ["accountName", "provider"]), index: 0) else {
            return XCTFail("rejected")
        }
        XCTAssertNil(bare.transaction.name)
        XCTAssertNil(bare.transaction.provider)
    }

    func testEachRejectionRuleNamesItsField() {
        let cases: [(JSON, String?)] = [
            (valid(["amount": 0.125]), "amount"),
            (valid(["amount": 12.345]), "amount"),
            (valid(removing: ["amount"]), "amount"),
            (valid(["amount": .null]), "amount"),
            (valid(["amount": "12.345"]), "amount"),
            (valid(["amount": true]), "amount"),
            (valid(["amount": .double(1e15)]), "amount"),
            (valid(["date": "2021-02-30"]), "date"),
            (valid(["date": "2021/04/25"]), "date"),
            (valid(["date": "2021-04-25T10:00:00Z"]), "date"),
            (valid(["date": 20210425]), "date"),
            (valid(removing: ["date"]), "date"),
            (valid(removing: ["id"]), "id"),
            (valid(["id": 1.5]), "id"),
            (valid(["id": false]), "id"),
            (valid(["id": ""]), "id"),
            (valid(removing: ["category"]), "category"),
            (valid(["category": "  "]), "category"),
            (valid(["category": "all"]), "category"),
            (valid(["category": 5]), "category"),
            (valid(["name": 5]), "name"),
            (valid(["accountName": ["x"]]), "accountName"),
            (valid(["provider": false]), "provider"),
            (valid(["pinned": "yes"]), "pinned"),
            ("not an object", nil),
            ([1, 2], nil),
        ]
        for (value, field) in cases {
            guard let r = rejection(value) else {
                XCTFail("accepted: \(value.encoded())")
                continue
            }
            XCTAssertEqual(r.index, 7)
            XCTAssertEqual(r.field, field, value.encoded())
            XCTAssertFalse(r.message.isEmpty)
        }
    }

    func testBatchReportsRejectedByIndex() throws {
        let doc = JSONObject(["transactions": [valid(), valid(["amount": 0.125]), valid(["id": 2]),
                                               valid(removing: ["amount"]), valid(["date": "2021-13-01"])]])
        let batch = try TransactionBatch(document: Fields(doc))
        XCTAssertEqual(batch.records.count, 2)
        XCTAssertEqual(batch.rejected.map(\.index), [1, 3, 4])
        XCTAssertEqual(batch.rejected.map(\.field), ["amount", "amount", "date"])
        XCTAssertEqual(batch.summary.imported, 2)
        for bad in [JSONObject(), JSONObject(["transactions": "x"]), JSONObject(["transactions": .obj([:])])] {
            XCTAssertThrowsError(try TransactionBatch(document: Fields(bad))) { error in
                XCTAssertEqual((error as? CarFitError)?.field, "transactions")
                XCTAssertEqual((error as? CarFitError)?.status, .invalid)
            }
        }
    }
}
