import CarFitAPI
import CarFitCore
import CarFitIO
import XCTest

/// The employees' requests read from their documents and their refusals as error documents.
final class EmployeesAPITests: XCTestCase {
    private func fields(_ pairs: KeyValuePairs<String, JSON>) -> Fields { Fields(JSONObject(pairs)) }

    private func request(_ pairs: KeyValuePairs<String, JSON>) throws(CarFitError) -> CreateEmployee {
        try CreateEmployee(fields(pairs))
    }

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

    private let today = CivilDate(year: 2024, month: 5, day: 1)

    func testNewEmployeeTrimsAndNormalises() throws {
        let e = try request(["pin": "4821", "firstName": " Ada ", "lastName": "\tLovelace ", "email": " Ada@Example.COM "])
        XCTAssertEqual(e.firstName, "Ada")
        XCTAssertEqual(e.lastName, "Lovelace")
        XCTAssertEqual(e.email, "ada@example.com")
        XCTAssertNil(e.hiredOn, "the service's today")
        let hired = try request(["pin": "0000", "firstName": "A", "lastName": "B", "hiredOn": "2020-02-29", "email": "  "])
        XCTAssertEqual(hired.hiredOn?.description, "2020-02-29")
        XCTAssertNil(hired.email)
    }

    func testNewEmployeeRefusalsNameTheField() throws {
        let cases: [(JSONObject, String)] = [
            (JSONObject(["firstName": "A", "lastName": "B"]), "pin"),
            (JSONObject(["pin": 4821, "firstName": "A", "lastName": "B"]), "pin"),
            (JSONObject(["pin": "482", "firstName": "A", "lastName": "B"]), "pin"),
            (JSONObject(["pin": "4821x", "firstName": "A", "lastName": "B"]), "pin"),
            (JSONObject(["pin": "4821", "firstName": " ", "lastName": "B"]), "firstName"),
            (JSONObject(["pin": "4821", "firstName": "A\u{7}", "lastName": "B"]), "firstName"),
            (JSONObject(["pin": "4821", "firstName": "A", "lastName": .null]), "lastName"),
            (JSONObject(["pin": "4821", "firstName": "A", "lastName": .string(String(repeating: "x", count: 101))]), "lastName"),
            (JSONObject(["pin": "4821", "firstName": "A", "lastName": "B", "email": "a@b"]), "email"),
            (JSONObject(["pin": "4821", "firstName": "A", "lastName": "B", "hiredOn": "2023-02-29"]), "hiredOn"),
        ]
        for (object, field) in cases {
            assertRefused(.invalid, field: field) { () throws(CarFitError) in
                _ = try CreateEmployee(Fields(object))
            }
        }
    }

    func testALockedLoginNamesItsEndRoundedUp() {
        let until = Instant(milliseconds: 1_714_557_630_250)
        XCTAssertEqual(LoginGuard.displayed(until).iso, "2024-05-01T10:00:31Z")
        XCTAssertEqual(LoginGuard.displayed(Instant(milliseconds: 1_714_557_630_000)).iso, "2024-05-01T10:00:30Z")
        let error = CarFitError(LoginRefusal.locked(until: until))
        XCTAssertEqual(error.status, .unauthorized)
        XCTAssertTrue(error.message.contains("locked until 2024-05-01T10:00:31Z"), error.message)
        XCTAssertEqual(error.extra["lockedUntil"], "2024-05-01T10:00:31Z")
        XCTAssertEqual(LoginGuard.displayed(Instant(milliseconds: Int64.max)).milliseconds, Int64.max)
    }

    func testAWrongPINSaysHowManyAttemptsAreLeft() {
        XCTAssertEqual(CarFitError(LoginRefusal.wrongPIN(left: 1)).message, "Wrong PIN; 1 more failed attempt will lock logins for 30 seconds.")
        XCTAssertEqual(CarFitError(LoginRefusal.wrongPIN(left: 3)).field, "pin")
        let now = CarFitError(LoginRefusal.lockedNow(until: Instant(milliseconds: 1_714_557_630_000)))
        XCTAssertEqual(now.field, "pin")
        XCTAssertEqual(now.message, "Wrong PIN; after 5 failed attempts logins are locked until 2024-05-01T10:00:30Z.")
    }

    func testEmployeeDocuments() throws {
        let day = try XCTUnwrap(today)
        let ada = Employee(id: 7, pin: "4821", firstName: "Ada", lastName: "Lovelace", email: nil, hiredOn: day)
        XCTAssertEqual(EmployeeAnswer(employee: ada).json.encoded(),
                       #"{"employee":{"id":7,"pin":"4821","firstName":"Ada","lastName":"Lovelace","email":null,"hiredOn":"2024-05-01"}}"#)
        XCTAssertEqual(EmployeeAnswer(employee: nil).json.encoded(), #"{"employee":null}"#)
        XCTAssertEqual(EmployeeList(rows: [(ada, 3)]).json.encoded(),
                       #"{"employees":[{"id":7,"pin":"4821","firstName":"Ada","lastName":"Lovelace","email":null,"hiredOn":"2024-05-01","cartQuantity":3}]}"#)
        XCTAssertEqual(RecoveredPIN(employee: ada).json.encoded(), #"{"pin":"4821","firstName":"Ada","lastName":"Lovelace"}"#)
    }
}
