import CarFitCore

/// Employees, the login guard, the catalog, carts and orders. Callers that read and then write
/// wrap the calls in `db.transaction` (BEGIN IMMEDIATE), so two cores on one file, also in two
/// processes, never lose each other's changes.
public struct ShopStore {
    public let db: Database
    public init(_ db: Database) { self.db = db }

    // MARK: - Employees

    static let employeeColumns = "id, pin, first_name, last_name, email, hired_on"

    func employee(_ s: Statement, offset: Int32 = 0) throws(CarFitError) -> Employee {
        guard let id = s.int(offset), let text = s.text(offset + 5), let hiredOn = CivilDate(iso: text) else {
            throw CarFitError(.storage, "The database holds an employee record that cannot be read.")
        }
        return Employee(id: id, pin: s.text(offset + 1) ?? "", firstName: s.text(offset + 2) ?? "",
                        lastName: s.text(offset + 3) ?? "", email: s.text(offset + 4), hiredOn: hiredOn)
    }

    func employee(where condition: String, _ value: SQLValue) throws(CarFitError) -> Employee? {
        let s = try db.statement("SELECT \(ShopStore.employeeColumns) FROM employees WHERE \(condition) = ?1")
        defer { s.reset() }
        try s.bind(1, value)
        guard try s.step() else { return nil }
        return try employee(s)
    }

    public func employee(id: Int64) throws(CarFitError) -> Employee? { try employee(where: "id", .int(id)) }
    public func employee(pin: String) throws(CarFitError) -> Employee? { try employee(where: "pin", .text(pin)) }
    public func employee(email: String) throws(CarFitError) -> Employee? { try employee(where: "email", .text(email)) }

    /// The first uniqueness rule `e` would break (pin, last name, email, in that order), or nil.
    public func conflict(with e: NewEmployee) throws(CarFitError) -> EmployeeConflict? {
        if try employee(pin: e.pin) != nil { return .pin }
        if try employee(where: "last_name_key", .text(e.lastNameKey)) != nil { return .lastName(e.lastName) }
        if let email = e.email, try employee(email: email) != nil { return .email(email) }
        return nil
    }

    /// Inserts a new employee; a broken uniqueness rule is that `conflict`. Call inside a
    /// transaction.
    public func insert(_ e: NewEmployee) throws(CarFitError) -> Result<Employee, EmployeeConflict> {
        if let conflict = try conflict(with: e) { return .failure(conflict) }
        try db.run("""
            INSERT INTO employees (pin, first_name, last_name, last_name_key, email, hired_on)
            VALUES (?1, ?2, ?3, ?4, ?5, ?6)
            """, [.text(e.pin), .text(e.firstName), .text(e.lastName), .text(e.lastNameKey),
                  e.email.map(SQLValue.text) ?? .null, .text(e.hiredOn.description)])
        return .success(Employee(id: db.lastInsertRowID, pin: e.pin, firstName: e.firstName, lastName: e.lastName,
                                 email: e.email, hiredOn: e.hiredOn))
    }

    /// Every employee with the total quantity in their cart (unordered).
    public func employeesWithCartQuantity() throws(CarFitError) -> [(employee: Employee, cartQuantity: Int)] {
        let s = try db.statement("""
            SELECT \(ShopStore.employeeColumns),
                   coalesce((SELECT sum(quantity) FROM cart_lines c WHERE c.employee_id = e.id), 0)
            FROM employees e
            """)
        defer { s.reset() }
        var out: [(Employee, Int)] = []
        while try s.step() {
            out.append((try employee(s), Int(s.int(6) ?? 0)))
        }
        return out
    }

    // MARK: - Login guard

    public func loginGuard() throws(CarFitError) -> LoginGuard {
        let s = try db.statement("SELECT failures, locked_until_ms FROM login_guard WHERE id = 1")
        defer { s.reset() }
        guard try s.step() else { return LoginGuard() }
        return LoginGuard(failures: Int(clamping: s.int(0) ?? 0), lockedUntil: s.int(1).map(Instant.init(milliseconds:)))
    }

    public func save(_ guardState: LoginGuard) throws(CarFitError) {
        try db.run("""
            INSERT INTO login_guard (id, failures, locked_until_ms) VALUES (1, ?1, ?2)
            ON CONFLICT (id) DO UPDATE SET failures = excluded.failures, locked_until_ms = excluded.locked_until_ms
            """, [.int(Int64(guardState.failures)), guardState.lockedUntil.map { .int($0.milliseconds) } ?? .null])
    }

    // MARK: - Catalog

    /// Inserts or updates each product by id, in order. A new product goes after every stored
    /// one (import order); an updated one keeps its place. Call inside a transaction.
    public func upsert(_ products: [Product]) throws(CarFitError) {
        for p in products {
            try db.run("""
                INSERT INTO products (id, id_is_int, seq, name, category, description, image_url, price_cents)
                VALUES (?1, ?2, (SELECT coalesce(max(seq), 0) + 1 FROM products), ?3, ?4, ?5, ?6, ?7)
                ON CONFLICT (id) DO UPDATE SET
                    id_is_int = excluded.id_is_int, name = excluded.name, category = excluded.category,
                    description = excluded.description, image_url = excluded.image_url,
                    price_cents = excluded.price_cents
                """, [.text(p.id.key), .int(p.id.isInteger ? 1 : 0), .text(p.name), text(p.category),
                      text(p.description), text(p.imageUrl), .int(p.priceCents)])
        }
    }

    static let productColumns = "id, id_is_int, name, category, description, image_url, price_cents"

    func product(_ s: Statement) -> Product {
        Product(id: ProductID(key: s.text(0) ?? "", isInteger: s.int(1) == 1), name: s.text(2) ?? "",
                category: s.text(3), description: s.text(4), imageUrl: s.text(5), priceCents: s.int(6) ?? 0)
    }

    /// Every product in import order.
    public func products() throws(CarFitError) -> [Product] {
        let s = try db.statement("SELECT \(ShopStore.productColumns) FROM products ORDER BY seq")
        defer { s.reset() }
        var out: [Product] = []
        while try s.step() { out.append(product(s)) }
        return out
    }

    public func product(key: String) throws(CarFitError) -> Product? {
        let s = try db.statement("SELECT \(ShopStore.productColumns) FROM products WHERE id = ?1")
        defer { s.reset() }
        try s.bind(1, key)
        guard try s.step() else { return nil }
        return product(s)
    }

    // MARK: - Carts

    public func cart(employeeId: Int64) throws(CarFitError) -> Cart {
        let s = try db.statement("SELECT product_id, quantity FROM cart_lines WHERE employee_id = ?1 ORDER BY position")
        defer { s.reset() }
        try s.bind(1, employeeId)
        var lines: [Cart.Line] = []
        while try s.step() {
            lines.append(Cart.Line(productKey: s.text(0) ?? "", quantity: ShopStore.quantity(s.int(1))))
        }
        return Cart(lines: lines)
    }

    /// Replaces the stored lines of a cart with `cart`'s. Call inside a transaction.
    public func save(_ cart: Cart, employeeId: Int64) throws(CarFitError) {
        try db.run("DELETE FROM cart_lines WHERE employee_id = ?1", [.int(employeeId)])
        for (position, line) in cart.lines.enumerated() {
            try db.run("INSERT INTO cart_lines (employee_id, position, product_id, quantity) VALUES (?1, ?2, ?3, ?4)",
                       [.int(employeeId), .int(Int64(position)), .text(line.productKey), .int(Int64(line.quantity))])
        }
    }

    /// A cart's lines with their products' names, images and prices, in cart order.
    public func cartLines(employeeId: Int64) throws(CarFitError) -> [(line: CartLineView, priceCents: Int64)] {
        let s = try db.statement("""
            SELECT c.product_id, p.id_is_int, p.name, p.image_url, c.quantity, p.price_cents
            FROM cart_lines c JOIN products p ON p.id = c.product_id
            WHERE c.employee_id = ?1 ORDER BY c.position
            """)
        defer { s.reset() }
        try s.bind(1, employeeId)
        var out: [(CartLineView, Int64)] = []
        while try s.step() {
            out.append((CartLineView(productId: ProductID(key: s.text(0) ?? "", isInteger: s.int(1) == 1),
                                     name: s.text(2) ?? "", imageUrl: s.text(3),
                                     quantity: ShopStore.quantity(s.int(4))), s.int(5) ?? 0))
        }
        return out
    }

    // MARK: - Orders

    /// Stores an order with its lines (and each line's price at the time); returns its id.
    /// Call inside a transaction.
    public func insertOrder(employeeId: Int64, placedAt: Instant,
                            lines: [(line: CartLineView, priceCents: Int64)]) throws(CarFitError) -> Int64 {
        let total = lines.reduce(0) { $0 + $1.line.quantity }
        try db.run("INSERT INTO orders (employee_id, placed_at_ms, total_quantity) VALUES (?1, ?2, ?3)",
                   [.int(employeeId), .int(placedAt.milliseconds), .int(Int64(total))])
        let orderId = db.lastInsertRowID
        for (position, item) in lines.enumerated() {
            try db.run("""
                INSERT INTO order_lines (order_id, position, product_id, product_id_is_int, name, image_url,
                                         quantity, price_cents)
                VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8)
                """, [.int(orderId), .int(Int64(position)), .text(item.line.productId.key),
                      .int(item.line.productId.isInteger ? 1 : 0), .text(item.line.name), text(item.line.imageUrl),
                      .int(Int64(item.line.quantity)), .int(item.priceCents)])
        }
        return orderId
    }

    /// An employee's orders, newest first.
    public func orders(employeeId: Int64) throws(CarFitError) -> [Order] {
        let rows = try db.query("SELECT id, placed_at_ms FROM orders WHERE employee_id = ?1 ORDER BY id DESC",
                                [.int(employeeId)])
        var out: [Order] = []
        for row in rows {
            guard row.count == 2, case .int(let id) = row[0], case .int(let ms) = row[1] else { continue }
            out.append(Order(id: id, placedAt: Instant(milliseconds: ms), lines: try orderLines(orderId: id)))
        }
        return out
    }

    func orderLines(orderId: Int64) throws(CarFitError) -> [CartLineView] {
        let s = try db.statement("""
            SELECT product_id, product_id_is_int, name, image_url, quantity FROM order_lines
            WHERE order_id = ?1 ORDER BY position
            """)
        defer { s.reset() }
        try s.bind(1, orderId)
        var out: [CartLineView] = []
        while try s.step() {
            out.append(CartLineView(productId: ProductID(key: s.text(0) ?? "", isInteger: s.int(1) == 1),
                                    name: s.text(2) ?? "", imageUrl: s.text(3), quantity: ShopStore.quantity(s.int(4))))
        }
        return out
    }

    func text(_ s: String?) -> SQLValue { s.map(SQLValue.text) ?? .null }

    /// A stored line quantity, kept within 0...999 whatever the file holds, so sums cannot overflow.
    static func quantity(_ value: Int64?) -> Int { Int(min(max(value ?? 0, 0), Int64(Cart.quantities.upperBound))) }
}
