import CarFitSystem
import CarFitCore
import CarFitIO
import CarFitServices
import CarFitStore
import XCTest

/// The employees and session rules on the typed service: uniqueness, the list's order and cart
/// quantities, hiring day by the core's clock and zone, the login guard and its lock.
final class EmployeesServiceTests: XCTestCase {
    @discardableResult
    private func create(_ f: ServiceFixture, _ pin: String, _ first: String, _ last: String, email: String? = nil,
                        hiredOn: CivilDate? = nil) throws -> Result<Employee, EmployeeConflict> {
        try f.employees.create(pin: pin, firstName: first, lastName: last, email: email, hiredOn: hiredOn)
    }

    private func refusedLogin(_ f: ServiceFixture, _ pin: String) throws -> LoginRefusal? {
        guard case .failure(let refusal) = try f.employees.login(pin: .success(pin)) else {
            XCTFail("expected a refused login")
            return nil
        }
        return refusal
    }

    func testLoginCountsWrongPINsThenLocksAndUnlocksWithTheClock() throws {
        let f = try ServiceFixture()
        try create(f, "4821", "Ada", "Lovelace")
        for left in stride(from: LoginGuard.maxFailures - 1, through: 1, by: -1) {
            XCTAssertEqual(try refusedLogin(f, "0000"), .wrongPIN(left: left))
        }
        let until = try XCTUnwrap(Instant(iso: "2020-09-10T07:00:30Z"))
        XCTAssertEqual(try refusedLogin(f, "0000"), .lockedNow(until: until))
        // During the lock even the right PIN is refused, a malformed one too, and nobody is logged in.
        XCTAssertEqual(try refusedLogin(f, "4821"), .locked(until: until))
        let malformed = CarFitError.invalid("pin", "pin must be 4 to 12 digits (0-9).")
        XCTAssertEqual(try f.employees.login(pin: .failure(malformed)).failure, .locked(until: until))
        XCTAssertNil(f.session.employeeId)
        // Refusals during the lock neither count nor extend it.
        f.clock = try Clock(zoneName: "Europe/Copenhagen", fixedNow: try XCTUnwrap(Instant(iso: "2020-09-10T07:00:29Z")))
        XCTAssertEqual(try refusedLogin(f, "0000"), .locked(until: until))
        // Once the clock has passed the lock, the right PIN logs in and the counter starts over.
        f.clock = try Clock(zoneName: "Europe/Copenhagen", fixedNow: try XCTUnwrap(Instant(iso: "2020-09-10T07:00:30Z")))
        let employee = try f.employees.login(pin: .success("4821")).get()
        XCTAssertEqual(employee.lastName, "Lovelace")
        XCTAssertEqual(f.session.employeeId, employee.id)
        XCTAssertEqual(try ShopStore(f.db).loginGuard(), LoginGuard())
        XCTAssertEqual(try f.employees.current(), employee)
    }

    func testAMalformedPINOutsideALockChangesNothing() throws {
        let f = try ServiceFixture()
        try create(f, "4821", "Ada", "Lovelace")
        let malformed = CarFitError.invalid("pin", "pin must be 4 to 12 digits (0-9).")
        for _ in 0..<LoginGuard.maxFailures {
            XCTAssertEqual(try f.employees.login(pin: .failure(malformed)).failure, .malformed(malformed))
        }
        XCTAssertEqual(try ShopStore(f.db).loginGuard(), LoginGuard())
    }

    func testASuccessResetsTheCountAndAfterALockTheCountStartsAgain() throws {
        let f = try ServiceFixture()
        try create(f, "4821", "Ada", "Lovelace")
        for _ in 1...4 { _ = try refusedLogin(f, "0000") }
        _ = try f.employees.login(pin: .success("4821")).get()
        XCTAssertEqual(try refusedLogin(f, "0000"), .wrongPIN(left: 4))
        for _ in 1...4 { _ = try refusedLogin(f, "0000") }
        f.clock = try Clock(zoneName: "Europe/Copenhagen", fixedNow: try XCTUnwrap(Instant(iso: "2020-09-10T07:01:00Z")))
        let refusals = try (1...5).map { _ in try refusedLogin(f, "0000") }
        XCTAssertEqual(refusals.last, .lockedNow(until: try XCTUnwrap(Instant(iso: "2020-09-10T07:01:30Z"))))
        XCTAssertEqual(refusals.dropLast(), [.wrongPIN(left: 4), .wrongPIN(left: 3), .wrongPIN(left: 2), .wrongPIN(left: 1)])
    }

    func testCreateRefusesTakenPINThenLastNameThenEmail() throws {
        let f = try ServiceFixture()
        try create(f, "4821", "Ada", "Lovelace", email: "ada@example.com")
        let cases: [(String, String, String, EmployeeConflict)] = [
            ("4821", "LOVELACE", "ada@example.com", .pin),
            ("1111", "LOVELACE", "ada@example.com", .lastName("LOVELACE")),
            ("1111", "lovelace", "other@example.com", .lastName("lovelace")),
            ("1111", "Byron", "ada@example.com", .email("ada@example.com")),
        ]
        for (pin, last, email, conflict) in cases {
            XCTAssertEqual(try create(f, pin, "B", last, email: email).failure, conflict, "\(pin) \(last) \(email)")
        }
        // First names may repeat.
        XCTAssertNotNil(try create(f, "2222", "Ada", "Byron").success)
        let list = try f.employees.list()
        XCTAssertEqual(list.map(\.employee.lastName), ["Byron", "Lovelace"])
        XCTAssertEqual(list.map(\.cartQuantity), [0, 0])
        XCTAssertEqual(list[1].employee, Employee(id: 1, pin: "4821", firstName: "Ada", lastName: "Lovelace",
                                                   email: "ada@example.com", hiredOn: try XCTUnwrap(CivilDate(iso: "2020-09-10"))))
    }

    func testHiredOnDefaultsToTodayInTheCoresZone() throws {
        // 23:30 UTC on 1 May is already 2 May in Copenhagen.
        let f = try ServiceFixture(now: "2024-05-01T23:30:00Z")
        XCTAssertEqual(try create(f, "4821", "Ada", "Lovelace").get().hiredOn.description, "2024-05-02")
        let given = try XCTUnwrap(CivilDate(iso: "2020-02-29"))
        XCTAssertEqual(try create(f, "4822", "Bob", "Babbage", hiredOn: given).get().hiredOn, given)
    }

    func testTheListSortsByLastThenFirstNameAndCarriesCartQuantities() throws {
        let f = try ServiceFixture()
        for (pin, first, last) in [("1001", "Zoe", "Young"), ("1002", "Ben", "étienne"), ("1003", "Al", "Adams"),
                                   ("1004", "Cy", "Eve"), ("1005", "Bo", "Ewing")] {
            try create(f, pin, first, last)
        }
        XCTAssertEqual(try f.employees.list().map(\.employee.lastName), ["Adams", "étienne", "Eve", "Ewing", "Young"])
        let shop = ShopStore(f.db)
        try shop.upsert([Product(id: ProductID(key: "101", isInteger: true), name: "Merlot", category: nil, description: nil,
                                 imageUrl: nil, priceCents: 1000)])
        var cart = Cart()
        try cart.add("101", quantity: 3)
        try shop.save(cart, employeeId: 3)
        XCTAssertEqual(try f.employees.list().map(\.cartQuantity), [3, 0, 0, 0, 0])
    }

    func testRecoveryFindsTheEmployeeByEmailAndCurrentForgetsADeletedOne() throws {
        let f = try ServiceFixture()
        let ada = try create(f, "4821", "Ada", "Lovelace", email: "ada@example.com").get()
        XCTAssertEqual(try f.employees.employee(email: "ada@example.com"), ada)
        XCTAssertNil(try f.employees.employee(email: "bob@example.com"))
        XCTAssertNil(try f.employees.current())
        f.session.employeeId = 99
        XCTAssertNil(try f.employees.current())
        XCTAssertNil(f.session.employeeId)
        _ = try f.employees.login(pin: .success("4821")).get()
        f.employees.logout()
        XCTAssertNil(f.session.employeeId)
    }

    func testAWrongPINKeepsWhoeverIsLoggedIn() throws {
        let f = try ServiceFixture()
        let ada = try create(f, "4821", "Ada", "Lovelace").get()
        _ = try f.employees.login(pin: .success("4821")).get()
        XCTAssertEqual(try refusedLogin(f, "0000"), .wrongPIN(left: 4))
        XCTAssertEqual(f.session.employeeId, ada.id)
        XCTAssertEqual(try f.employees.current(), ada)
    }

    func testPINsOfFourAndTwelveDigitsAreAccepted() throws {
        let f = try ServiceFixture()
        try create(f, "0000", "A", "Aa")
        try create(f, "012345678901", "B", "Bb")
        XCTAssertEqual(try f.employees.list().map(\.employee.pin), ["0000", "012345678901"])
        XCTAssertEqual(try f.employees.login(pin: .success("012345678901")).get().lastName, "Bb")
    }

    func testAConflictStoresNothing() throws {
        let f = try ServiceFixture()
        try create(f, "4821", "Ada", "Lovelace", email: "ada@example.com")
        XCTAssertEqual(try create(f, "9999", "Charles", "Babbage", email: "ada@example.com").failure, .email("ada@example.com"))
        XCTAssertEqual(try create(f, "4821", "Charles", "Babbage").failure, .pin)
        XCTAssertEqual(try f.employees.list().map(\.employee.lastName), ["Lovelace"])
    }

    func testTheListCarriesEachEmployeesCartQuantity() throws {
        let f = try ServiceFixture()
        try f.importCatalog(json: try ServiceFixture.text("catalog.json"))
        let ada = try create(f, "4821", "Ada", "Lovelace", email: "ada@example.com").get()
        let grace = try create(f, "1234", "Grace", "Hopper", email: "grace@example.com").get()
        try f.catalog.add(CatalogServiceTests.id(101), quantity: 3, employee: ada.id)
        try f.catalog.add(CatalogServiceTests.id(102), quantity: 2, employee: ada.id)
        try f.catalog.add(CatalogServiceTests.id(101), quantity: 1, employee: grace.id)
        let list = try f.employees.list()
        XCTAssertEqual(list.map { "\($0.employee.lastName) \($0.cartQuantity)" }, ["Hopper 1", "Lovelace 5"])
        XCTAssertEqual(list.map(\.employee.firstName), ["Grace", "Ada"])
    }
}

extension Result {
    var failure: Failure? { if case .failure(let e) = self { e } else { nil } }
    var success: Success? { if case .success(let s) = self { s } else { nil } }
}
