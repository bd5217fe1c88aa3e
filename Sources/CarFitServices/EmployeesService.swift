import CarFitCore
import CarFitStore

/// The employees and session use-cases: adding and listing employees, PIN recovery, and the
/// login with its lock-out.
public struct EmployeesService {
    public let db: Database
    public let shop: ShopStore
    public let clock: Clock
    public let session: Session

    public init(db: Database, clock: Clock, session: Session) {
        self.db = db
        shop = ShopStore(db)
        self.clock = clock
        self.session = session
    }

    /// Adds an employee; a taken PIN, last name or email is `conflict` naming that member.
    public func create(_ request: Fields) throws(CarFitError) -> JSON {
        guard let today = clock.today else {
            throw CarFitError(.internal, "The core's clock lies outside the years 1 to 9999.")
        }
        let draft = try NewEmployee(request: request, today: today)
        let shop = shop
        let inserted = try db.transaction { () throws(CarFitError) in try shop.insert(draft) }
        switch inserted {
        case .success(let employee): return .obj(["employee": employee.json])
        case .failure(let conflict): throw EmployeesService.error(conflict)
        }
    }

    /// The error a refused new employee answers, naming the request member.
    static func error(_ conflict: EmployeeConflict) -> CarFitError {
        switch conflict {
        case .pin:
            CarFitError(.conflict, "Another employee already has that PIN; choose another.", field: "pin")
        case .lastName(let name):
            CarFitError(.conflict, "An employee with the last name \"\(name.prefix(100))\" already exists.", field: "lastName")
        case .email(let email):
            CarFitError(.conflict, "Another employee already has the e-mail \(email).", field: "email")
        }
    }

    public func list() throws(CarFitError) -> JSON {
        let rows = try shop.employeesWithCartQuantity().sorted { Employee.listOrder($0.employee, $1.employee) }
        return .obj(["employees": .array(rows.map { row in
            var object = row.employee.json.objectValue ?? JSONObject()
            object["cartQuantity"] = .int(Int64(row.cartQuantity))
            return .object(object)
        })])
    }

    public func recoverPIN(_ request: Fields) throws(CarFitError) -> JSON {
        let email = try EmailAddress.readRequired(request, "email")
        guard let employee = try shop.employee(email: email) else {
            throw CarFitError(.notFound, "No employee has that email.", field: "email")
        }
        return .obj(["pin": .string(employee.pin), "firstName": .string(employee.firstName),
                     "lastName": .string(employee.lastName)])
    }

    private enum LoginOutcome {
        case success(Employee)
        case refused(CarFitError)
    }

    /// Checks the lock, then the PIN. A wrong PIN is counted (and may start the lock) in the
    /// database before the refusal is returned; a malformed PIN or a refusal during a lock
    /// changes nothing.
    public func login(_ request: Fields) throws(CarFitError) -> JSON {
        let now = clock.now
        let shop = shop
        let outcome = try db.transaction { () throws(CarFitError) -> LoginOutcome in
            var state = try shop.loginGuard()
            if state.isLocked(at: now), let until = state.lockedUntil {
                return .refused(LoginGuard.lockedError(until: until, justLocked: false))
            }
            let pin = try PIN.read(request, "pin")
            if let employee = try shop.employee(pin: pin) {
                if state != LoginGuard() {
                    state.recordSuccess()
                    try shop.save(state)
                }
                return .success(employee)
            }
            let locked = state.recordFailure(at: now)
            try shop.save(state)
            if locked, let until = state.lockedUntil {
                return .refused(LoginGuard.lockedError(until: until, justLocked: true))
            }
            let left = LoginGuard.maxFailures - state.failures
            return .refused(CarFitError(.unauthorized,
                "Wrong PIN; \(left) more failed attempt\(left == 1 ? "" : "s") will lock logins for \(LoginGuard.lockMilliseconds / 1000) seconds.",
                field: "pin"))
        }
        switch outcome {
        case .success(let employee):
            session.employeeId = employee.id
            return .obj(["employee": employee.json])
        case .refused(let error):
            throw error
        }
    }

    public func logout() -> JSON {
        session.employeeId = nil
        return .obj(["employee": .null])
    }

    /// The logged-in employee, or null (also when that employee is no longer stored).
    public func current() throws(CarFitError) -> JSON {
        guard let id = session.employeeId else { return .obj(["employee": .null]) }
        guard let employee = try shop.employee(id: id) else {
            session.employeeId = nil
            return .obj(["employee": .null])
        }
        return .obj(["employee": employee.json])
    }
}
