import CarFitCore
import CarFitNet
import CarFitStore

/// The catalog and cart use-cases: importing and reading products, the logged-in employee's
/// cart (each change read, made and written in one transaction), checkout and orders.
public struct CatalogService {
    public let db: Database
    public let shop: ShopStore
    public let clock: Clock
    public let session: Session
    public let documents: DocumentCache

    public init(db: Database, clock: Clock, session: Session, documents: DocumentCache) {
        self.db = db
        shop = ShopStore(db)
        self.clock = clock
        self.session = session
        self.documents = documents
    }

    // MARK: - Catalog

    public func importCatalog(_ request: Fields) throws(CarFitError) -> JSON {
        let batch = try CatalogImport(document: request)
        let shop = shop
        try db.transaction { () throws(CarFitError) in try shop.upsert(batch.products) }
        return batch.response
    }

    /// Fetches the catalog source (either catalog shape) and imports it as `importCatalog`
    /// does; any failure leaves the stored products as they were. `lock` is taken only once
    /// the body has arrived.
    /// `progress` hears the download's bytes (its `finish` is the caller's, once all succeeded).
    public func refresh(url: String, http: HTTPClient, validators: SourceValidators = SourceValidators(),
                        lock: some Serializer, progress: ProgressReporter? = nil) throws(CarFitError) -> RefreshOutcome {
        guard case .body(let body) = try SourceFetch.fetch(url, http: http, validators: validators, what: "catalog",
                                                     progress: progress) else {
            return .notModified
        }
        let document = try SourceFetch.document(body, what: "catalog")
        let batch: CatalogImport
        do throws(CarFitError) {
            batch = try CatalogImport(document: document)
        } catch {
            throw SourceFetch.notDocument(url, what: "catalog", error)
        }
        let shop = shop
        let db = db
        try lock.locked { () throws(CarFitError) in
            try db.transaction { () throws(CarFitError) in try shop.upsert(batch.products) }
        }
        return .stored(batch.response, etag: body.response.etag, lastModified: body.response.lastModified)
    }

    public func list(_ request: Fields) throws(CarFitError) -> JSON {
        let category = try request.string("category")
        let sort = try CatalogSort.read(request, "sort")
        return CatalogPage(all: try shop.products(), category: category, sort: sort).json
    }

    public func product(_ request: Fields) throws(CarFitError) -> JSON {
        let id = try ProductID.read(request, "id")
        guard let product = try shop.product(key: id.key) else {
            throw CarFitError(.notFound, "There is no product with id \(id.key.prefix(100)).", field: "id")
        }
        return .obj(["product": product.detailJSON])
    }

    // MARK: - Cart

    /// The logged-in employee's id; nobody logged in is `unauthorized`.
    public func loggedInEmployee() throws(CarFitError) -> Int64 {
        guard let id = session.employeeId else {
            throw CarFitError(.unauthorized, "Nobody is logged in; log in with your PIN first.")
        }
        return id
    }

    /// The logged-in employee's cart.
    public func cart() throws(CarFitError) -> JSON {
        try cartDocument(try loggedInEmployee())
    }

    /// The employee's cart (kept until the database changes: see `DocumentCache`).
    func cartDocument(_ employeeId: Int64) throws(CarFitError) -> JSON {
        let shop = shop
        return try documents.document(.cart(employee: employeeId), at: try db.changeStamp()) { () throws(CarFitError) in
            .obj(["cart": CartLineView.cartJSON(try shop.cartLines(employeeId: employeeId).map(\.line))])
        }
    }

    /// Reads, changes and writes the cart in one BEGIN IMMEDIATE transaction, so concurrent
    /// writers (other cores, other processes) never lose an update.
    func changeCart(_ employeeId: Int64, _ change: (inout Cart) throws(CarFitError) -> Void) throws(CarFitError) {
        let shop = shop
        try db.transaction { () throws(CarFitError) in
            var cart = try shop.cart(employeeId: employeeId)
            try change(&cart)
            try shop.save(cart, employeeId: employeeId)
        }
    }

    /// `{"productId", "quantity"?}`: adds to the cart (1 by default).
    public func add(_ request: Fields) throws(CarFitError) -> JSON {
        let employee = try loggedInEmployee()
        let id = try ProductID.read(request, "productId")
        let quantity = try Cart.readQuantity(request, default: 1)
        let shop = shop
        try changeCart(employee) { (cart: inout Cart) throws(CarFitError) in
            // The quantity is checked first (by `Cart.add`), then the product: an unknown
            // product throws before the changed cart is written.
            try cart.add(id.key, quantity: quantity)
            guard try shop.product(key: id.key) != nil else {
                throw CarFitError(.notFound, "There is no product with id \(id.key.prefix(100)).", field: "productId")
            }
        }
        return try cartDocument(employee)
    }

    /// `{"productId", "quantity"}`: sets a line's quantity (0 removes it).
    public func update(_ request: Fields) throws(CarFitError) -> JSON {
        let employee = try loggedInEmployee()
        let id = try ProductID.read(request, "productId")
        let quantity = try Cart.readQuantity(request, default: nil)
        try changeCart(employee) { (cart: inout Cart) throws(CarFitError) in try cart.update(id.key, quantity: quantity) }
        return try cartDocument(employee)
    }

    /// `{"productId"}`: removes a line.
    public func remove(_ request: Fields) throws(CarFitError) -> JSON {
        let employee = try loggedInEmployee()
        let id = try ProductID.read(request, "productId")
        try changeCart(employee) { (cart: inout Cart) throws(CarFitError) in try cart.remove(id.key) }
        return try cartDocument(employee)
    }

    /// Turns the cart into a stored order and empties it, in one transaction.
    public func checkout() throws(CarFitError) -> JSON {
        let employee = try loggedInEmployee()
        let now = clock.now
        let shop = shop
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

    public func orders() throws(CarFitError) -> JSON {
        let employee = try loggedInEmployee()
        return .obj(["orders": .array(try shop.orders(employeeId: employee).map(\.json))])
    }
}
