import Foundation
import XCTest

@testable import CarFitCore

/// The wine club's rules on the domain values: employee validation, the login guard, money,
/// product ids, and the cart against a reference model.
final class ShopTests: XCTestCase {
    private func assertRefused(_ status: Status, field: String?, file: StaticString = #filePath, line: UInt = #line,
                               _ body: () throws(CarFitError) -> Void) {
        do throws(CarFitError) {
            try body()
            XCTFail("expected \(status.name) on \(field ?? "no field")", file: file, line: line)
        } catch {
            XCTAssertEqual(error.status, status, error.message, file: file, line: line)
            XCTAssertEqual(error.field, field, error.message, file: file, line: line)
            XCTAssertFalse(error.message.isEmpty, file: file, line: line)
        }
    }

    // MARK: - Employees

    private let today = CivilDate(year: 2024, month: 5, day: 1)

    func testLastNamesAreUniqueIgnoringCase() throws {
        let e = NewEmployee(pin: "4821", firstName: "Ada", lastName: "LoveLace", email: nil, hiredOn: try XCTUnwrap(today))
        XCTAssertEqual(e.lastNameKey, "lovelace")
    }

    func testPINs() {
        for pin in ["0000", "4821", "123456789012"] { XCTAssertTrue(PIN.isValid(pin), pin) }
        for pin in ["", "123", "1234567890123", "12 34", "12a4", "１２３４", "١٢٣٤", "-123"] {
            XCTAssertFalse(PIN.isValid(pin), pin)
        }
    }

    func testEmailShapes() {
        XCTAssertEqual(EmailAddress.normalized("Ada.Lovelace+club@Example.co.UK"), "ada.lovelace+club@example.co.uk")
        XCTAssertEqual(EmailAddress.normalized(" a@b.io "), "a@b.io")
        for bad in ["", "ada", "ada@", "@example.com", "ada@example", "ada@example.c", "a b@example.com",
                    "a@@example.com", "a@b@example.com", ".ada@example.com", "ada.@example.com", "a..b@example.com",
                    "ada@-example.com", "ada@example-.com", "ada@exa_mple.com", "ada@example.c0m", "ada@.com",
                    "ådä@example.com", "ada@example..com"] {
            XCTAssertNil(EmailAddress.normalized(bad), bad)
        }
    }

    func testEmployeesSortByLastThenFirstNameIgnoringCaseAndAccents() throws {
        let day = try XCTUnwrap(today)
        func e(_ id: Int64, _ first: String, _ last: String) -> Employee {
            Employee(id: id, pin: "000\(id)", firstName: first, lastName: last, email: nil, hiredOn: day)
        }
        let sorted = [e(1, "Zed", "Young"), e(2, "Bea", "Étienne"), e(3, "al", "Eve"), e(4, "Al", "eve"),
                      e(5, "Ann", "adams")].sorted(by: Employee.listOrder)
        XCTAssertEqual(sorted.map(\.id), [5, 2, 3, 4, 1])
    }

    // MARK: - Login guard

    func testLoginGuardLocksAfterFiveFailuresForThirtySeconds() {
        var guardState = LoginGuard()
        let t0 = Instant(milliseconds: 1_714_557_600_000)
        for _ in 1...4 { XCTAssertFalse(guardState.recordFailure(at: t0)) }
        XCTAssertFalse(guardState.isLocked(at: t0))
        XCTAssertTrue(guardState.recordFailure(at: t0))
        XCTAssertEqual(guardState.lockedUntil, Instant(milliseconds: t0.milliseconds + 30_000))
        XCTAssertEqual(guardState.failures, 0)
        XCTAssertTrue(guardState.isLocked(at: t0))
        XCTAssertTrue(guardState.isLocked(at: Instant(milliseconds: t0.milliseconds + 29_999)))
        XCTAssertFalse(guardState.isLocked(at: Instant(milliseconds: t0.milliseconds + 30_000)))
        // The count starts again after a lock; a success clears everything.
        for _ in 1...4 { XCTAssertFalse(guardState.recordFailure(at: t0)) }
        guardState.recordSuccess()
        XCTAssertEqual(guardState, LoginGuard())
    }

    func testLockedEndsRoundUpToTheSecond() {
        let until = Instant(milliseconds: 1_714_557_630_250)
        XCTAssertEqual(LoginGuard.displayed(until).iso, "2024-05-01T10:00:31Z")
        XCTAssertEqual(LoginGuard.displayed(Instant(milliseconds: 1_714_557_630_000)).iso, "2024-05-01T10:00:30Z")
        XCTAssertEqual(LoginGuard.displayed(Instant(milliseconds: Int64.max)).milliseconds, Int64.max)
    }


    func testSalidoExample() throws {
        var cart = Cart()
        try cart.add("A", quantity: 1)
        try cart.add("B", quantity: 2)
        try cart.add("A", quantity: 4)
        XCTAssertEqual(cart.lines, [Cart.Line(productKey: "A", quantity: 5), Cart.Line(productKey: "B", quantity: 2)])
        XCTAssertEqual(cart.totalQuantity, 7)
    }

    func testCartRefusalsChangeNothing() throws {
        var cart = Cart()
        try cart.add("A", quantity: 998)
        try cart.add("B", quantity: 1)
        let before = cart
        assertRefused(.invalid, field: "quantity") { () throws(CarFitError) in try cart.add("A", quantity: 2) }
        assertRefused(.invalid, field: "quantity") { () throws(CarFitError) in try cart.add("C", quantity: 0) }
        assertRefused(.invalid, field: "quantity") { () throws(CarFitError) in try cart.add("C", quantity: 1000) }
        assertRefused(.invalid, field: "quantity") { () throws(CarFitError) in try cart.update("A", quantity: 0) }
        assertRefused(.invalid, field: "quantity") { () throws(CarFitError) in try cart.update("A", quantity: -5) }
        assertRefused(.notFound, field: "productId") { () throws(CarFitError) in try cart.update("C", quantity: 3) }
        assertRefused(.notFound, field: "productId") { () throws(CarFitError) in try cart.remove("C") }
        XCTAssertEqual(cart, before)
        try cart.add("A", quantity: 1)
        XCTAssertEqual(cart.quantity(of: "A"), 999)
    }

    func testRandomSequencesMatchAReferenceModel() {
        for seed in UInt64(1)...40 {
            var rng = SplitMix64(seed: seed)
            var cart = Cart()
            // The model: an ordered list of (product, quantity) kept with plain array code.
            var model: [(String, Int)] = []
            for step in 0..<300 {
                let product = ["A", "B", "C", "D", "E"].randomElement(using: &rng) ?? "A"
                let quantity = [1, 2, 3, 0, 1000, -1, Int.random(in: 1...999, using: &rng),
                                Int.random(in: 400...999, using: &rng)].randomElement(using: &rng) ?? 1
                let op = Int.random(in: 0..<10, using: &rng)
                let index = model.firstIndex { $0.0 == product }
                var expected: Status = .ok
                do throws(CarFitError) {
                    switch op {
                    case 0..<5:
                        if !(1...999).contains(quantity) { expected = .invalid }
                        else if let i = index { if model[i].1 + quantity > 999 { expected = .invalid } else { model[i].1 += quantity } }
                        else { model.append((product, quantity)) }
                        try cart.add(product, quantity: quantity)
                    case 5..<8:
                        if !(1...999).contains(quantity) { expected = .invalid }
                        else if let i = index { model[i].1 = quantity } else { expected = .notFound }
                        try cart.update(product, quantity: quantity)
                    default:
                        if let i = index { model.remove(at: i) } else { expected = .notFound }
                        try cart.remove(product)
                    }
                    XCTAssertEqual(expected, .ok, "seed \(seed) step \(step)")
                } catch {
                    XCTAssertEqual(error.status, expected, "seed \(seed) step \(step): \(error.message)")
                }
                XCTAssertEqual(cart.lines.map(\.productKey), model.map(\.0), "seed \(seed) step \(step)")
                XCTAssertEqual(cart.lines.map(\.quantity), model.map(\.1), "seed \(seed) step \(step)")
                XCTAssertEqual(cart.totalQuantity, model.reduce(0) { $0 + $1.1 })
                XCTAssertTrue(cart.lines.allSatisfy { Cart.quantities.contains($0.quantity) })
            }
        }
    }

    // MARK: - Price and product ids

    func testPriceRules() throws {
        XCTAssertEqual(try Price.cents(whole: 18, path: "price"), 1800)
        XCTAssertEqual(try Price.cents(number: 34.99, path: "price"), 3499)
        XCTAssertEqual(try Price.cents(text: " 12.340 ", path: "price"), 1234)
        XCTAssertEqual(try Price.cents(text: "0007", path: "price"), 700)
        assertRefused(.invalid, field: "p") { () throws(CarFitError) in _ = try Price.cents(whole: 1_000_001, path: "p") }
        assertRefused(.invalid, field: "p") { () throws(CarFitError) in _ = try Price.cents(number: 0.001, path: "p") }
        assertRefused(.invalid, field: "p") { () throws(CarFitError) in _ = try Price.cents(text: "1.234", path: "p") }
        assertRefused(.invalid, field: "p") { () throws(CarFitError) in _ = try Price.cents(text: "12345678.00", path: "p") }
    }

    func testProductIDRules() throws {
        XCTAssertEqual(try ProductID(text: "abc", path: "id"), ProductID(key: "abc", isInteger: false))
        XCTAssertEqual(ProductID(number: 101), ProductID(key: "101", isInteger: true))
        XCTAssertNil(ProductID(number: 1.5))
        assertRefused(.invalid, field: "id") { () throws(CarFitError) in _ = try ProductID(text: "  ", path: "id") }
        assertRefused(.invalid, field: "id") { () throws(CarFitError) in
            _ = try ProductID(text: String(repeating: "x", count: ProductID.maxLength + 1), path: "id")
        }
    }
}
