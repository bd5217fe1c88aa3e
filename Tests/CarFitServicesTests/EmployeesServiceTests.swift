import CarFitCore
import CarFitIO
import CarFitServices
import CarFitStore
import XCTest

final class EmployeesServiceTests: XCTestCase {
    func testLoginCountsWrongPINsThenLocksAndUnlocksWithTheClock() throws {
        let f = try ServiceFixture()
        _ = try f.employees.create(try ServiceFixture.fields(#"{"pin": "4821", "firstName": "Ada", "lastName": "Lovelace"}"#))
        let wrong = try ServiceFixture.fields(#"{"pin": "0000"}"#)
        for left in stride(from: LoginGuard.maxFailures - 1, through: 1, by: -1) {
            let error = refusal { () throws(CarFitError) in _ = try f.employees.login(wrong) }
            XCTAssertEqual(error?.status, .unauthorized)
            XCTAssertEqual(error?.field, "pin")
            XCTAssertEqual(error?.message, "Wrong PIN; \(left) more failed attempt\(left == 1 ? "" : "s") will lock logins for 30 seconds.")
        }
        let locking = refusal { () throws(CarFitError) in _ = try f.employees.login(wrong) }
        XCTAssertEqual(locking, LoginGuard.lockedError(until: try XCTUnwrap(Instant(iso: "2020-09-10T07:00:30Z")), justLocked: true))
        // During the lock even the right PIN is refused, and nobody is logged in.
        let right = try ServiceFixture.fields(#"{"pin": "4821"}"#)
        XCTAssertEqual(refusal { () throws(CarFitError) in _ = try f.employees.login(right) }?.status, .unauthorized)
        XCTAssertNil(f.session.employeeId)
        // Once the clock has passed the lock, the right PIN logs in and the counter starts over.
        f.clock = try Clock(zoneName: "Europe/Copenhagen", fixedNow: try XCTUnwrap(Instant(iso: "2020-09-10T07:00:31Z")))
        let response = try f.employees.login(right)
        XCTAssertEqual(response.objectValue?["employee"]?.objectValue?["lastName"], "Lovelace")
        XCTAssertNotNil(f.session.employeeId)
        XCTAssertEqual(try ShopStore(f.db).loginGuard(), LoginGuard())
    }

    func testCreateRefusesTakenPINThenLastNameThenEmailNamingTheMember() throws {
        let f = try ServiceFixture()
        _ = try f.employees.create(try ServiceFixture.fields(
            #"{"pin": "4821", "firstName": "Ada", "lastName": "Lovelace", "email": "ada@example.com"}"#))
        let cases: [(String, String)] = [
            (#"{"pin": "4821", "firstName": "B", "lastName": "LOVELACE", "email": "ADA@example.com"}"#, "pin"),
            (#"{"pin": "1111", "firstName": "B", "lastName": "LOVELACE", "email": "ADA@example.com"}"#, "lastName"),
            (#"{"pin": "1111", "firstName": "B", "lastName": "Byron", "email": "ADA@example.com"}"#, "email"),
        ]
        for (request, field) in cases {
            let error = refusal { () throws(CarFitError) in _ = try f.employees.create(try ServiceFixture.fields(request)) }
            XCTAssertEqual(error?.status, .conflict, request)
            XCTAssertEqual(error?.field, field, request)
        }
        let list = try f.employees.list()
        XCTAssertEqual(list.objectValue?["employees"], .array([.obj([
            "id": 1, "pin": "4821", "firstName": "Ada", "lastName": "Lovelace", "email": "ada@example.com",
            "hiredOn": "2020-09-10", "cartQuantity": 0,
        ])]))
    }
}
