import CarFitSystem
import CarFitAPI
import CarFitCore
import CarFitIO
import CarFitServices
import CarFitStore
import XCTest

/// The employees' requests read from their documents and their refusals as error documents.
final class EmployeesAPITests: XCTestCase {
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
            (JSONObject(["pin": "1234567890123", "firstName": "A", "lastName": "B"]), "pin"),
            (JSONObject(["pin": "12a4", "firstName": "A", "lastName": "B"]), "pin"),
            (JSONObject(["pin": " 1234", "firstName": "A", "lastName": "B"]), "pin"),
            (JSONObject(["pin": "١٢٣٤", "firstName": "A", "lastName": "B"]), "pin"),
            (JSONObject(["pin": "4821", "lastName": "B"]), "firstName"),
            (JSONObject(["pin": "4821", "firstName": 7, "lastName": "B"]), "firstName"),
            (JSONObject(["pin": "4821", "firstName": "A"]), "lastName"),
            (JSONObject(["pin": "4821", "firstName": "A", "lastName": ""]), "lastName"),
            (JSONObject(["pin": "4821", "firstName": "A", "lastName": "B", "email": "ada"]), "email"),
            (JSONObject(["pin": "4821", "firstName": "A", "lastName": "B", "email": "ada@example"]), "email"),
            (JSONObject(["pin": "4821", "firstName": "A", "lastName": "B", "email": "a b@example.com"]), "email"),
            (JSONObject(["pin": "4821", "firstName": "A", "lastName": "B", "email": "a@@example.com"]), "email"),
            (JSONObject(["pin": "4821", "firstName": "A", "lastName": "B", "email": "@example.com"]), "email"),
            (JSONObject(["pin": "4821", "firstName": "A", "lastName": "B", "email": "a@example.c"]), "email"),
            (JSONObject(["pin": "4821", "firstName": "A", "lastName": "B", "email": 5]), "email"),
            (JSONObject(["pin": "4821", "firstName": "A", "lastName": "B", "hiredOn": "2024-02-30"]), "hiredOn"),
            (JSONObject(["pin": "4821", "firstName": "A", "lastName": "B", "hiredOn": "01/03/2024"]), "hiredOn"),
        ]
        for (object, field) in cases {
            assertRefused(.invalid, field: field) { () throws(CarFitError) in
                _ = try CreateEmployee(Fields(object))
            }
        }
    }

    /// The employees' service on an empty in-memory database, its clock at 2024-05-01T10:00:00Z.
    private func service() throws -> EmployeesService {
        let clock = try Clock(zoneName: "Europe/Copenhagen", fixedNow: Instant(milliseconds: 1_714_557_600_000))
        return EmployeesService(db: try Database(path: ":memory:"), clock: clock, session: Session())
    }

    func testACreatedEmployeeIsAnsweredTrimmedAndAConflictNamesItsField() throws {
        let s = try service()
        let ada = try EmployeesAPI.create(s, fields(["pin": "4821", "firstName": "  Ada ", "lastName": " Lovelace\t",
                                                     "email": "  Ada@Example.COM ", "hiredOn": "2024-03-01"]))
        XCTAssertEqual(ada.encoded(),
                       #"{"employee":{"id":1,"pin":"4821","firstName":"Ada","lastName":"Lovelace","email":"ada@example.com","hiredOn":"2024-03-01"}}"#)
        let cases: [(String, String, JSON, String)] = [
            ("4821", "Babbage", .null, "pin"),
            ("9999", "LOVELACE", .null, "lastName"),
            ("9999", "lovelace", "other@example.com", "lastName"),
            ("9999", "Babbage", "ADA@example.com", "email"),
        ]
        for (pin, last, email, field) in cases {
            assertRefused(.conflict, field: field) { () throws(CarFitError) in
                _ = try EmployeesAPI.create(s, self.fields(["pin": .string(pin), "firstName": "Charles", "lastName": .string(last),
                                                            "email": email]))
            }
        }
        XCTAssertEqual(try s.list().count, 1)
        // An empty email is none.
        let bob = try EmployeesAPI.create(s, fields(["pin": "4822", "firstName": "Bob", "lastName": "Babbage", "email": ""]))
        XCTAssertEqual(bob.objectValue?["employee"]?.objectValue?["email"], .null)
        XCTAssertEqual(bob.objectValue?["employee"]?.objectValue?["hiredOn"], "2024-05-01")
    }

    func testAMalformedPINIsInvalidAndIsNotCounted() throws {
        let s = try service()
        _ = try EmployeesAPI.create(s, fields(["pin": "4821", "firstName": "Ada", "lastName": "Lovelace"]))
        let malformed: [JSONObject] = [JSONObject(["pin": "123"]), JSONObject(["pin": "12345678901234"]), JSONObject(["pin": "abcd"]),
                                       JSONObject(["pin": 4821]), JSONObject()]
        for _ in 0..<2 {
            for request in malformed {
                assertRefused(.invalid, field: "pin") { () throws(CarFitError) in _ = try EmployeesAPI.login(s, Fields(request)) }
            }
        }
        // Ten malformed attempts did not count: four wrong PINs still leave one attempt.
        for _ in 0..<4 {
            assertRefused(.unauthorized, field: "pin") { () throws(CarFitError) in _ = try EmployeesAPI.login(s, self.fields(["pin": "9999"])) }
        }
        XCTAssertEqual(try EmployeesAPI.login(s, fields(["pin": "4821"])).objectValue?["employee"]?.objectValue?["pin"], "4821")
        XCTAssertEqual(try EmployeesAPI.current(s).objectValue?["employee"]?.objectValue?["lastName"], "Lovelace")
        XCTAssertEqual(EmployeesAPI.logout(s).encoded(), #"{"employee":null}"#)
        XCTAssertEqual(try EmployeesAPI.current(s).encoded(), #"{"employee":null}"#)
    }

    func testThePINIsRecoveredByEmailIgnoringCaseAndSpaces() throws {
        let s = try service()
        _ = try EmployeesAPI.create(s, fields(["pin": "1234", "firstName": "Grace", "lastName": "Hopper", "email": "grace@example.com"]))
        XCTAssertEqual(try EmployeesAPI.recoverPIN(s, fields(["email": "  GRACE@example.com "])).encoded(),
                       #"{"pin":"1234","firstName":"Grace","lastName":"Hopper"}"#)
        do throws(CarFitError) {
            _ = try EmployeesAPI.recoverPIN(s, fields(["email": "nobody@example.com"]))
            XCTFail("an unknown email was answered")
        } catch {
            XCTAssertEqual(error.status, .notFound)
            XCTAssertEqual(error.field, "email")
            XCTAssertEqual(error.message, "No employee has that email.")
        }
        assertRefused(.invalid, field: "email") { () throws(CarFitError) in _ = try EmployeesAPI.recoverPIN(s, self.fields([:])) }
        assertRefused(.invalid, field: "email") { () throws(CarFitError) in
            _ = try EmployeesAPI.recoverPIN(s, self.fields(["email": "not-an-address"]))
        }
    }

    func testALockedLoginNamesItsEndRoundedUp() {
        let until = Instant(milliseconds: 1_714_557_630_250)
        XCTAssertEqual(LoginGuard.displayed(until).iso, "2024-05-01T10:00:31Z")
        XCTAssertEqual(LoginGuard.displayed(Instant(milliseconds: 1_714_557_630_000)).iso, "2024-05-01T10:00:30Z")
        let error = CarFitError(LoginRefusal.locked(until: until))
        XCTAssertEqual(error.status, .unauthorized)
        XCTAssertTrue(error.message.contains("locked until 2024-05-01T10:00:31Z"), error.message)
        XCTAssertEqual(error.details.lockedUntil?.iso, "2024-05-01T10:00:31Z")
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
