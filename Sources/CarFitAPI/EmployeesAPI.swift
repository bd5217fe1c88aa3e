import CarFitCore
import CarFitIO
import CarFitServices

/// The employees and session operations: their requests read from the request document, their
/// responses written as documents, the refusals of `EmployeesService` turned into statuses.
public enum EmployeesAPI {
    public static func create(_ service: EmployeesService, _ request: Fields) throws(CarFitError) -> JSON {
        let r = try CreateEmployee(request)
        let created: Result<Employee, EmployeeConflict>
        created = try service.create(pin: r.pin, firstName: r.firstName, lastName: r.lastName, email: r.email,
                                     hiredOn: r.hiredOn)
        switch created {
        case .success(let employee): return EmployeeAnswer(employee: employee).json
        case .failure(let conflict): throw CarFitError(conflict)
        }
    }

    public static func list(_ service: EmployeesService) throws(CarFitError) -> JSON {
        EmployeeList(rows: try service.list()).json
    }

    public static func recoverPIN(_ service: EmployeesService, _ request: Fields) throws(CarFitError) -> JSON {
        let r = try RecoverPIN(request)
        guard let employee = try service.employee(email: r.email) else {
            throw CarFitError(.notFound, "No employee has that email.", field: "email")
        }
        return RecoveredPIN(employee: employee).json
    }

    public static func login(_ service: EmployeesService, _ request: Fields) throws(CarFitError) -> JSON {
        let r = Login(request)
        switch try service.login(pin: r.pin) {
        case .success(let employee): return EmployeeAnswer(employee: employee).json
        case .failure(let refusal): throw CarFitError(refusal)
        }
    }

    public static func logout(_ service: EmployeesService) -> JSON {
        service.logout()
        return EmployeeAnswer(employee: nil).json
    }

    public static func current(_ service: EmployeesService) throws(CarFitError) -> JSON {
        EmployeeAnswer(employee: try service.current()).json
    }
}

// MARK: - Requests

/// `employees.create`: `{"pin", "firstName", "lastName", "email"?, "hiredOn"?}`.
public struct CreateEmployee: APIRequest {
    public var pin: String
    public var firstName: String
    public var lastName: String
    public var email: String?
    /// Nil: the core's today.
    public var hiredOn: CivilDate?

    public init(_ f: Fields) throws(CarFitError) {
        pin = try EmployeeFields.pin(f, "pin")
        firstName = try EmployeeFields.name(f, "firstName")
        lastName = try EmployeeFields.name(f, "lastName")
        email = try EmployeeFields.optionalEmail(f, "email")
        if let text = try f.string("hiredOn") {
            guard let date = CivilDate(iso: text) else {
                throw .invalid(f.path("hiredOn"), "hiredOn \"\(text.prefix(40))\" is not a valid date (YYYY-MM-DD, years 1 to 9999).")
            }
            hiredOn = date
        } else {
            hiredOn = nil
        }
    }
}

/// `employees.recover_pin`: `{"email"}`.
public struct RecoverPIN: APIRequest {
    public var email: String
    public init(_ f: Fields) throws(CarFitError) { email = try EmployeeFields.requiredEmail(f, "email") }
}

/// `session.login`: `{"pin"}`. A malformed PIN is kept as its error: the login guard's lock is
/// checked first and refuses the call whatever the PIN.
public struct Login {
    public var pin: Result<String, CarFitError>
    public init(_ f: Fields) {
        do throws(CarFitError) { pin = .success(try EmployeeFields.pin(f, "pin")) } catch { pin = .failure(error) }
    }
}

/// The readers of the employees' request members.
enum EmployeeFields {
    /// The member `key` as a PIN; missing, not a string, or not 4–12 digits is `invalid`.
    static func pin(_ f: Fields, _ key: String) throws(CarFitError) -> String {
        let path = f.path(key)
        guard let value = f.value(key) else { throw .invalid(path, "\(path) is required: 4 to 12 digits.") }
        guard case .string(let text) = value else {
            throw .invalid(path, "\(path) must be a string of 4 to 12 digits (write it in quotes).")
        }
        guard PIN.isValid(text) else { throw .invalid(path, "\(path) must be 4 to 12 digits (0-9).") }
        return text
    }

    /// A first or last name: required, trimmed, non-blank (`PersonName`).
    static func name(_ f: Fields, _ key: String) throws(CarFitError) -> String {
        let path = f.path(key)
        guard let raw = try f.string(key) else { throw .invalid(path, "\(path) is required.") }
        return try PersonName.normalized(raw, path: path)
    }

    /// An optional address: absent, null or blank means none; otherwise it must have the shape.
    static func optionalEmail(_ f: Fields, _ key: String) throws(CarFitError) -> String? {
        guard let text = try f.string(key), !text.trimmed.isEmpty else { return nil }
        return try EmailAddress.validate(text, path: f.path(key))
    }

    /// A required address (blank is `invalid`).
    static func requiredEmail(_ f: Fields, _ key: String) throws(CarFitError) -> String {
        let path = f.path(key)
        guard let text = try f.string(key), !text.trimmed.isEmpty else { throw .invalid(path, "\(path) is required.") }
        return try EmailAddress.validate(text, path: path)
    }
}

// MARK: - Responses

extension Employee: APIResponse {
    /// `{"id", "pin", "firstName", "lastName", "email", "hiredOn"}`
    public var json: JSON { .object(members) }

    var members: JSONObject {
        JSONObject([
            "id": .int(id),
            "pin": .string(pin),
            "firstName": .string(firstName),
            "lastName": .string(lastName),
            "email": .str(email),
            "hiredOn": .string(hiredOn.description),
        ])
    }
}

/// `{"employee": employee or null}`: `employees.create`, `session.login`, `.logout`, `.get`.
public struct EmployeeAnswer: APIResponse {
    public var employee: Employee?
    public init(employee: Employee?) { self.employee = employee }
    public var json: JSON { .obj(["employee": employee?.json ?? .null]) }
}

/// `{"employees": [employee + "cartQuantity"]}`, in the list's order.
public struct EmployeeList: APIResponse {
    public var rows: [(employee: Employee, cartQuantity: Int)]
    public init(rows: [(employee: Employee, cartQuantity: Int)]) { self.rows = rows }
    public var json: JSON {
        .obj(["employees": .array(rows.map { row in
            var object = row.employee.members
            object["cartQuantity"] = .int(Int64(row.cartQuantity))
            return .object(object)
        })])
    }
}

/// `{"pin", "firstName", "lastName"}`: `employees.recover_pin`.
public struct RecoveredPIN: APIResponse {
    public var employee: Employee
    public init(employee: Employee) { self.employee = employee }
    public var json: JSON {
        .obj(["pin": .string(employee.pin), "firstName": .string(employee.firstName), "lastName": .string(employee.lastName)])
    }
}

// MARK: - Errors

extension CarFitError {
    /// A refused new employee: `conflict`, naming the request member.
    public init(_ conflict: EmployeeConflict) {
        switch conflict {
        case .pin:
            self = CarFitError(.conflict, "Another employee already has that PIN; choose another.", field: "pin")
        case .lastName(let name):
            self = CarFitError(.conflict, "An employee with the last name \"\(name.prefix(100))\" already exists.", field: "lastName")
        case .email(let email):
            self = CarFitError(.conflict, "Another employee already has the e-mail \(email).", field: "email")
        }
    }

    /// A refused login: `unauthorized` (a lock's end rounded up to the second, in the message and
    /// as `lockedUntil`), or the malformed PIN's `invalid`.
    public init(_ refusal: LoginRefusal) {
        switch refusal {
        case .malformed(let error):
            self = error
        case .locked(let until), .lockedNow(let until):
            let justLocked = refusal != .locked(until: until)
            let shown = LoginGuard.displayed(until)
            let message = justLocked
                ? "Wrong PIN; after \(LoginGuard.maxFailures) failed attempts logins are locked until \(shown.iso)."
                : "Too many failed attempts: logins are locked until \(shown.iso)."
            self = CarFitError(.unauthorized, message, field: justLocked ? "pin" : nil,
                               details: .init(lockedUntil: shown))
        case .wrongPIN(let left):
            self = CarFitError(.unauthorized,
                "Wrong PIN; \(left) more failed attempt\(left == 1 ? "" : "s") will lock logins for \(LoginGuard.lockMilliseconds / 1000) seconds.",
                field: "pin")
        }
    }
}

/// The entry points of the operation table (`Manifest.operations`), one per operation, named
/// after its verb: each picks from the core what the function above needs.
extension EmployeesAPI {
    public static func create(_ context: some OperationContext, _ request: Fields) throws(CarFitError) -> JSON {
        try create(context.employees, request)
    }
    public static func list(_ context: some OperationContext, _ request: Fields) throws(CarFitError) -> JSON {
        try list(context.employees)
    }
    public static func recoverPin(_ context: some OperationContext, _ request: Fields) throws(CarFitError) -> JSON {
        try recoverPIN(context.employees, request)
    }
}

/// The session operations: `session.login`, `session.logout`, `session.get` (their API is `EmployeesAPI`'s).
public enum SessionAPI {
    public static func login(_ context: some OperationContext, _ request: Fields) throws(CarFitError) -> JSON {
        try EmployeesAPI.login(context.employees, request)
    }
    public static func logout(_ context: some OperationContext, _ request: Fields) throws(CarFitError) -> JSON {
        EmployeesAPI.logout(context.employees)
    }
    public static func get(_ context: some OperationContext, _ request: Fields) throws(CarFitError) -> JSON {
        try EmployeesAPI.current(context.employees)
    }
}
