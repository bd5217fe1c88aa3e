import CarFitCore
import CarFitStore

extension Core {
    var shop: ShopStore { ShopStore(db) }

    // MARK: - Employees

    func createEmployee(_ request: Fields) throws(CarFitError) -> JSON {
        guard let today = clock.today else {
            throw CarFitError(.internal, "The core's clock lies outside the years 1 to 9999.")
        }
        let draft = try NewEmployee(request: request, today: today)
        let employee = try db.transaction { () throws(CarFitError) in try shop.insert(draft) }
        return .obj(["employee": employee.json])
    }

    func listEmployees() throws(CarFitError) -> JSON {
        let rows = try shop.employeesWithCartQuantity().sorted { Employee.listOrder($0.employee, $1.employee) }
        return .obj(["employees": .array(rows.map { row in
            var object = row.employee.json.objectValue ?? JSONObject()
            object["cartQuantity"] = .int(Int64(row.cartQuantity))
            return .object(object)
        })])
    }

    func recoverPIN(_ request: Fields) throws(CarFitError) -> JSON {
        let email = try EmailAddress.readRequired(request, "email")
        guard let employee = try shop.employee(email: email) else {
            throw CarFitError(.notFound, "No employee has that email.", field: "email")
        }
        return .obj(["pin": .string(employee.pin), "firstName": .string(employee.firstName),
                     "lastName": .string(employee.lastName)])
    }

    // MARK: - Session

    private enum LoginOutcome {
        case success(Employee)
        case refused(CarFitError)
    }

    /// Checks the lock, then the PIN. A wrong PIN is counted (and may start the lock) in the
    /// database before the refusal is returned; a malformed PIN or a refusal during a lock
    /// changes nothing.
    func login(_ request: Fields) throws(CarFitError) -> JSON {
        let now = clock.now
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

    func logout() -> JSON {
        session.employeeId = nil
        return .obj(["employee": .null])
    }

    func sessionDocument() throws(CarFitError) -> JSON {
        guard let id = session.employeeId else { return .obj(["employee": .null]) }
        guard let employee = try shop.employee(id: id) else {
            session.employeeId = nil
            return .obj(["employee": .null])
        }
        return .obj(["employee": employee.json])
    }

    /// The logged-in employee's id; nobody logged in is `unauthorized`.
    func loggedInEmployee() throws(CarFitError) -> Int64 {
        guard let id = session.employeeId else {
            throw CarFitError(.unauthorized, "Nobody is logged in; log in with your PIN first.")
        }
        return id
    }

    // MARK: - Catalog

    func importCatalog(_ request: Fields) throws(CarFitError) -> JSON {
        let batch = try CatalogImport(document: request)
        try db.transaction { () throws(CarFitError) in try shop.upsert(batch.products) }
        return batch.response
    }

    func listCatalog(_ request: Fields) throws(CarFitError) -> JSON {
        let category = try request.string("category")
        let sort = try CatalogSort.read(request, "sort")
        return CatalogPage(all: try shop.products(), category: category, sort: sort).json
    }

    func productDocument(_ request: Fields) throws(CarFitError) -> JSON {
        let id = try ProductID.read(request, "id")
        guard let product = try shop.product(key: id.key) else {
            throw CarFitError(.notFound, "There is no product with id \(id.key.prefix(100)).", field: "id")
        }
        return .obj(["product": product.detailJSON])
    }

    // MARK: - Cart

    /// The employee's cart (kept until the database changes: see `DocumentCache`).
    func cartDocument(_ employeeId: Int64) throws(CarFitError) -> JSON {
        documents.validate(try db.changeStamp())
        return try documents.document(.cart(employee: employeeId)) { () throws(CarFitError) in
            .obj(["cart": CartLineView.cartJSON(try shop.cartLines(employeeId: employeeId).map(\.line))])
        }
    }

    /// Reads, changes and writes the cart in one BEGIN IMMEDIATE transaction, so concurrent
    /// writers (other cores, other processes) never lose an update.
    func changeCart(_ employeeId: Int64, _ change: (inout Cart) throws(CarFitError) -> Void) throws(CarFitError) {
        try db.transaction { () throws(CarFitError) in
            var cart = try shop.cart(employeeId: employeeId)
            try change(&cart)
            try shop.save(cart, employeeId: employeeId)
        }
    }

    func addToCart(_ request: Fields) throws(CarFitError) -> JSON {
        let employee = try loggedInEmployee()
        let id = try ProductID.read(request, "productId")
        let quantity = try Cart.readQuantity(request, default: 1)
        try Cart.check(quantity)
        try changeCart(employee) { (cart: inout Cart) throws(CarFitError) in
            guard try shop.product(key: id.key) != nil else {
                throw CarFitError(.notFound, "There is no product with id \(id.key.prefix(100)).", field: "productId")
            }
            try cart.add(id.key, quantity: quantity)
        }
        return try cartDocument(employee)
    }

    func updateCart(_ request: Fields) throws(CarFitError) -> JSON {
        let employee = try loggedInEmployee()
        let id = try ProductID.read(request, "productId")
        let quantity = try Cart.readQuantity(request, default: nil)
        try Cart.check(quantity)
        try changeCart(employee) { (cart: inout Cart) throws(CarFitError) in try cart.update(id.key, quantity: quantity) }
        return try cartDocument(employee)
    }

    func removeFromCart(_ request: Fields) throws(CarFitError) -> JSON {
        let employee = try loggedInEmployee()
        let id = try ProductID.read(request, "productId")
        try changeCart(employee) { (cart: inout Cart) throws(CarFitError) in try cart.remove(id.key) }
        return try cartDocument(employee)
    }

    /// Turns the cart into a stored order and empties it, in one transaction.
    func checkout() throws(CarFitError) -> JSON {
        let employee = try loggedInEmployee()
        let now = clock.now
        let order = try db.transaction { () throws(CarFitError) -> Order in
            let lines = try shop.cartLines(employeeId: employee)
            guard !lines.isEmpty else {
                throw CarFitError(.invalid, "The cart is empty; add a product before checking out.")
            }
            let id = try shop.insertOrder(employeeId: employee, placedAt: now, lines: lines)
            try shop.save(Cart(), employeeId: employee)
            return Order(id: id, placedAt: now, lines: lines.map(\.line))
        }
        return .obj(["order": order.json, "message": .string(Order.thanks), "cart": CartLineView.cartJSON([])])
    }

    func ordersDocument() throws(CarFitError) -> JSON {
        let employee = try loggedInEmployee()
        return .obj(["orders": .array(try shop.orders(employeeId: employee).map(\.json))])
    }
}
