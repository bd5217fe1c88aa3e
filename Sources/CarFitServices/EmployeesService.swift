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

    /// Adds an employee (hired today by the core's clock unless `hiredOn` says otherwise), or
    /// the first uniqueness rule it breaks: the PIN, the last name, the email.
    public func create(pin: String, firstName: String, lastName: String, email: String?,
                       hiredOn: CivilDate?) throws(CarFitError) -> Result<Employee, EmployeeConflict> {
        guard let day = hiredOn ?? clock.today else {
            throw CarFitError(.internal, "The core's clock lies outside the years 1 to 9999.")
        }
        let draft = NewEmployee(pin: pin, firstName: firstName, lastName: lastName, email: email, hiredOn: day)
        let shop = shop
        return try db.transaction { () throws(CarFitError) in try shop.insert(draft) }
    }

    /// Every employee with the number of bottles in their cart, in the list's order
    /// (`Employee.listOrder`, by the locale's collator first when there is one).
    public func list() throws(CarFitError) -> [(employee: Employee, cartQuantity: Int)] {
        let rows = try shop.employeesWithCartQuantity()
        return Employee.sorted(rows.map(\.employee), collator: clock.display.collator).map { rows[$0] }
    }

    /// The employee with the (normalized) `email`, nil when none has it.
    public func employee(email: String) throws(CarFitError) -> Employee? {
        try shop.employee(email: email)
    }

    /// Checks the lock, then the PIN. A wrong PIN is counted (and may start the lock) in the
    /// database before the refusal is returned; a malformed PIN or a refusal during a lock
    /// changes nothing. A success logs the employee in.
    public func login(pin entered: Result<String, CarFitError>) throws(CarFitError) -> Result<Employee, LoginRefusal> {
        let now = clock.now
        let shop = shop
        let outcome = try db.transaction { () throws(CarFitError) -> Result<Employee, LoginRefusal> in
            var state = try shop.loginGuard()
            if state.isLocked(at: now), let until = state.lockedUntil {
                return .failure(.locked(until: until))
            }
            let pin: String
            switch entered {
            case .success(let text): pin = text
            case .failure(let error): return .failure(.malformed(error))
            }
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
                return .failure(.lockedNow(until: until))
            }
            return .failure(.wrongPIN(left: LoginGuard.maxFailures - state.failures))
        }
        if case .success(let employee) = outcome { session.employeeId = employee.id }
        return outcome
    }

    public func logout() {
        session.employeeId = nil
    }

    /// The logged-in employee, or nil (also when that employee is no longer stored, who is then
    /// logged out).
    public func current() throws(CarFitError) -> Employee? {
        guard let id = session.employeeId else { return nil }
        guard let employee = try shop.employee(id: id) else {
            session.employeeId = nil
            return nil
        }
        return employee
    }
}
