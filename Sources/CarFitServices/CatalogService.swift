import CarFitCore
import CarFitIO
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

    /// Stores the products of a catalog document (its records that failed are the batch's
    /// `rejected`): new ids are added, known ones updated in place.
    public func importCatalog(_ batch: CatalogImport) throws(CarFitError) {
        let shop = shop
        try db.transaction { () throws(CarFitError) in try shop.upsert(batch.products) }
    }

    /// Fetches the catalog source (either catalog shape) and imports it as `importCatalog`
    /// does; any failure leaves the stored products as they were. `lock` is taken only once
    /// the body has arrived; `commit` runs in the import's transaction.
    /// `progress` hears the download's bytes (its `finish` is the caller's, once all succeeded).
    public func refresh(url: String, http: HTTPClient, validators: SourceValidators = SourceValidators(),
                        lock: some Serializer, progress: ProgressReporter? = nil,
                        commit: RefreshCommit = { _, _ in }) throws(CarFitError) -> RefreshOutcome<CatalogImport> {
        guard case .body(let body) = try SourceFetch.fetch(url, http: http, validators: validators, what: "catalog",
                                                     progress: progress) else {
            return .notModified
        }
        let batch = try SourceFetch.document(body, what: "catalog", picked: CatalogDocument.picked, CatalogImport.init(document:))
        let shop = shop
        let db = db
        try lock.locked { () throws(CarFitError) in
            try db.transaction { () throws(CarFitError) in
                try shop.upsert(batch.products)
                try commit(body.response.etag, body.response.lastModified)
            }
        }
        return .stored(batch)
    }

    /// The categories and the products of `category` (all when nil) in the `sort` order.
    public func list(category: String?, sort: CatalogSort) throws(CarFitError) -> CatalogPage {
        CatalogPage(all: try shop.products(), category: category, sort: sort, collator: clock.display.collator)
    }

    /// The product `id`; an unknown one is `not_found`.
    public func product(_ id: ProductID) throws(CarFitError) -> Product {
        guard let product = try shop.product(key: id.key) else {
            throw CarFitError(.notFound, "There is no product with id \(id.key.prefix(100)).", field: "id")
        }
        return product
    }

    // MARK: - Cart

    /// The logged-in employee's id; nobody logged in is `unauthorized`.
    public func loggedInEmployee() throws(CarFitError) -> Int64 {
        guard let id = session.employeeId else {
            throw CarFitError(.unauthorized, "Nobody is logged in; log in with your PIN first.")
        }
        return id
    }

    /// The employee's cart lines, read from the store.
    public func cartLines(_ employeeId: Int64) throws(CarFitError) -> [CartLineView] {
        try shop.cartLines(employeeId: employeeId).map { row in
            var line = row.line
            line.priceCents = row.priceCents
            return line
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

    /// Adds `quantity` of product `id` to the employee's cart.
    public func add(_ id: ProductID, quantity: Int, employee: Int64) throws(CarFitError) {
        let shop = shop
        try changeCart(employee) { (cart: inout Cart) throws(CarFitError) in
            // The quantity is checked first (by `Cart.add`), then the product: an unknown
            // product throws before the changed cart is written.
            try cart.add(id.key, quantity: quantity)
            guard try shop.product(key: id.key) != nil else {
                throw CarFitError(.notFound, "There is no product with id \(id.key.prefix(100)).", field: "productId")
            }
        }
    }

    /// Sets the quantity of product `id`'s line in the employee's cart.
    public func update(_ id: ProductID, quantity: Int, employee: Int64) throws(CarFitError) {
        try changeCart(employee) { (cart: inout Cart) throws(CarFitError) in try cart.update(id.key, quantity: quantity) }
    }

    /// Removes product `id`'s line from the employee's cart.
    public func remove(_ id: ProductID, employee: Int64) throws(CarFitError) {
        try changeCart(employee) { (cart: inout Cart) throws(CarFitError) in try cart.remove(id.key) }
    }

    /// Turns the employee's cart into a stored order and empties it, in one transaction; an
    /// empty cart is `invalid`.
    public func checkout(employee: Int64) throws(CarFitError) -> Order {
        let now = clock.now
        let shop = shop
        return try db.transaction { () throws(CarFitError) -> Order in
            let lines = try shop.cartLines(employeeId: employee)
            guard !lines.isEmpty else {
                throw CarFitError(.invalid, "The cart is empty; add a product before checking out.")
            }
            let id = try shop.insertOrder(employeeId: employee, placedAt: now, lines: lines)
            try shop.save(Cart(), employeeId: employee)
            return Order(id: id, placedAt: now, lines: lines.map(\.line))
        }
    }

    /// The employee's orders.
    public func orders(employee: Int64) throws(CarFitError) -> [Order] {
        try shop.orders(employeeId: employee)
    }
}
