import CarFitCore
import CarFitIO
import CarFitServices

/// The catalog and cart operations: their requests read from the request document, their
/// responses written as documents. The cart operations need a login before anything else.
public enum CatalogAPI {
    /// Stores the document's products; the catalog source's validators no longer describe what
    /// is stored, so its next refresh asks unconditionally (`SourcesService.imported`).
    public static func importCatalog(_ service: CatalogService, sources: SourcesService? = nil,
                                     _ request: Fields) throws(CarFitError) -> JSON {
        let batch = try CatalogImport(document: request)
        try service.importCatalog(batch)
        try sources?.imported("catalog")
        return batch.json
    }

    /// `catalog.import` of the request's bytes: the document read straight from them
    /// (`CatalogDocument.picked`, jansson's parse of the whole text where it cannot be), its
    /// members' types checked by `check` (the boundary's request check) before it is imported.
    public static func importCatalog(_ service: CatalogService, sources: SourcesService? = nil,
                                     _ bytes: UnsafeRawBufferPointer,
                                     check: (Fields) throws(CarFitError) -> Void) throws(CarFitError) -> JSON {
        let request = try CatalogDocument.picked.fields(bytes)
        try check(request)
        return try importCatalog(service, sources: sources, request)
    }

    public static func list(_ service: CatalogService, _ request: Fields) throws(CarFitError) -> JSON {
        let r = try CatalogListRequest(request)
        return ProductPage(page: try service.list(category: r.category, sort: r.sort), display: service.clock.display).json
    }

    public static func product(_ service: CatalogService, _ request: Fields) throws(CarFitError) -> JSON {
        let r = try ProductRequest(request)
        return ProductDetail(product: try service.product(r.id), display: service.clock.display).json
    }

    public static func add(_ service: CatalogService, _ request: Fields) throws(CarFitError) -> JSON {
        let employee = try service.loggedInEmployee()
        let r = try CartChange(request, quantity: 1)
        try service.add(r.productId, quantity: r.quantity, employee: employee)
        return try cart(service, employee)
    }

    public static func update(_ service: CatalogService, _ request: Fields) throws(CarFitError) -> JSON {
        let employee = try service.loggedInEmployee()
        let r = try CartChange(request, quantity: nil)
        try service.update(r.productId, quantity: r.quantity, employee: employee)
        return try cart(service, employee)
    }

    public static func remove(_ service: CatalogService, _ request: Fields) throws(CarFitError) -> JSON {
        let employee = try service.loggedInEmployee()
        let r = try CartRemoval(request)
        try service.remove(r.productId, employee: employee)
        return try cart(service, employee)
    }

    public static func cart(_ service: CatalogService) throws(CarFitError) -> JSON {
        try cart(service, try service.loggedInEmployee())
    }

    public static func checkout(_ service: CatalogService) throws(CarFitError) -> JSON {
        CheckoutAnswer(order: try service.checkout(employee: try service.loggedInEmployee())).json
    }

    public static func orders(_ service: CatalogService) throws(CarFitError) -> JSON {
        OrderList(orders: try service.orders(employee: try service.loggedInEmployee())).json
    }

    /// The employee's cart document, kept in the core's document cache until the database
    /// changes (`DocumentCache`).
    static func cart(_ service: CatalogService, _ employee: Int64) throws(CarFitError) -> JSON {
        try service.documents.document(.cart(employee: employee), at: try service.db.changeStamp()) { () throws(CarFitError) in
            CartAnswer(lines: try service.cartLines(employee), display: service.clock.display).json
        }
    }
}

// MARK: - Requests

/// `catalog.list`: `{"category"?, "sort"?}`; the sort is `name` unless given.
public struct CatalogListRequest: APIRequest {
    public var category: String?
    public var sort: CatalogSort

    public init(_ f: Fields) throws(CarFitError) {
        category = try f.string("category")
        if let text = try f.string("sort") {
            guard let sort = CatalogSort(rawValue: text) else {
                throw .invalid(f.path("sort"), "\(f.path("sort")) must be \"name\", \"-name\" or \"none\".")
            }
            self.sort = sort
        } else {
            sort = .name
        }
    }
}

/// `catalog.product`: `{"id"}`.
public struct ProductRequest: APIRequest {
    public var id: ProductID
    public init(_ f: Fields) throws(CarFitError) { id = try ProductID.read(f, "id") }
}

/// `cart.add` and `cart.update`: `{"productId", "quantity"}`. The quantity is any whole number
/// (its range is the cart's rule), `quantity` when absent, required when that is nil.
public struct CartChange {
    public var productId: ProductID
    public var quantity: Int

    public init(_ f: Fields, quantity absent: Int?) throws(CarFitError) {
        productId = try ProductID.read(f, "productId")
        if let n = try f.int("quantity", in: Int64.min...Int64.max) {
            quantity = Int(clamping: n)
        } else {
            guard let absent else { throw .invalid(f.path("quantity"), "quantity is required (1 to 999).") }
            quantity = absent
        }
    }
}

/// `cart.remove`: `{"productId"}`.
public struct CartRemoval: APIRequest {
    public var productId: ProductID
    public init(_ f: Fields) throws(CarFitError) { productId = try ProductID.read(f, "productId") }
}

// MARK: - Responses

extension ProductID: APIResponse {
    /// The id in the form it was imported with: an integer or a string.
    public var json: JSON {
        if isInteger, let n = Int64(key) { return .int(n) }
        return .string(key)
    }
}

/// Exact cents as the double nearest to the decimal `cents / 100`.
func price(cents: Int64) -> JSON { .double(Double(cents) / 100) }

/// `{"categories": [name], "products": [{"id", "name", "category", "imageUrl", "price"}]}`.
public struct ProductPage: APIResponse {
    public var page: CatalogPage
    /// How prices are written (`priceText` with a locale).
    public var display: DisplayLocale
    public init(page: CatalogPage, display: DisplayLocale = DisplayLocale(hour24: true)) {
        self.page = page
        self.display = display
    }
    public var json: JSON {
        .obj(["categories": .array(page.categories.map(JSON.string)), "products": .array(page.products.map { product in
            .money(.obj([
                "id": product.id.json,
                "name": .string(product.name),
                "category": .str(product.category),
                "imageUrl": .str(product.imageUrl),
                "price": price(cents: product.priceCents),
            ]), "priceText", cents: Int128(product.priceCents), display)
        })])
    }
}

/// `{"product": the list row plus "description" (a placeholder when there is none) and
/// "hasDescription"}`.
public struct ProductDetail: APIResponse {
    public var product: Product
    /// How the price is written (`priceText` with a locale).
    public var display: DisplayLocale
    public init(product: Product, display: DisplayLocale = DisplayLocale(hour24: true)) {
        self.product = product
        self.display = display
    }
    public var json: JSON {
        let text = product.description?.trimmed ?? ""
        return .obj(["product": .money(.obj([
            "id": product.id.json,
            "name": .string(product.name),
            "category": .str(product.category),
            "imageUrl": .str(product.imageUrl),
            "price": price(cents: product.priceCents),
            "description": .string(text.isEmpty ? Product.noDescription : text),
            "hasDescription": .bool(!text.isEmpty),
        ]), "priceText", cents: Int128(product.priceCents), display)])
    }
}

extension CartLineView: APIResponse {
    /// `{"productId", "name", "imageUrl", "quantity"}`
    public var json: JSON {
        .obj(["productId": productId.json, "name": .string(name), "imageUrl": .str(imageUrl),
              "quantity": .int(Int64(quantity))])
    }

    /// As `json`, with the unit price's `priceText` when `display` has a locale.
    public func json(_ display: DisplayLocale) -> JSON {
        guard let priceCents else { return json }
        return .money(json, "priceText", cents: Int128(priceCents), display)
    }

    /// `{"lines": [...], "totalQuantity": n}`
    static func cart(_ lines: [CartLineView], display: DisplayLocale = DisplayLocale(hour24: true)) -> JSON {
        .obj(["lines": .array(lines.map { $0.json(display) }),
              "totalQuantity": .int(Int64(lines.reduce(0) { $0 + $1.quantity }))])
    }
}

/// `{"cart": {"lines", "totalQuantity"}}`: the cart operations.
public struct CartAnswer: APIResponse {
    public var lines: [CartLineView]
    /// How unit prices are written (`priceText` with a locale).
    public var display: DisplayLocale
    public init(lines: [CartLineView], display: DisplayLocale = DisplayLocale(hour24: true)) {
        self.lines = lines
        self.display = display
    }
    public var json: JSON { .obj(["cart": CartLineView.cart(lines, display: display)]) }
}

extension Order: APIResponse {
    /// `{"id", "placedAt", "lines", "totalQuantity"}`
    public var json: JSON {
        .obj(["id": .int(id), "placedAt": .string(placedAt.iso), "lines": .array(lines.map(\.json)),
              "totalQuantity": .int(Int64(totalQuantity))])
    }
}

/// `{"order", "message", "cart"}`: `cart.checkout`, the cart then empty.
public struct CheckoutAnswer: APIResponse {
    public var order: Order
    public init(order: Order) { self.order = order }
    public var json: JSON { .obj(["order": order.json, "message": .string(Order.thanks), "cart": CartLineView.cart([])]) }
}

/// `{"orders": [order]}`: `cart.orders`.
public struct OrderList: APIResponse {
    public var orders: [Order]
    public init(orders: [Order]) { self.orders = orders }
    public var json: JSON { .obj(["orders": .array(orders.map(\.json))]) }
}

/// The entry points of the operation table (`Manifest.operations`), one per operation, named
/// after its verb: each picks from the core what the function above needs.
extension CatalogAPI {
    public static func `import`(_ context: some OperationContext, _ bytes: UnsafeRawBufferPointer, check: MemberCheck, progress: ProgressStart) throws(CarFitError) -> JSON {
        try importCatalog(context.catalog, sources: context.sources, bytes, check: check)
    }
    public static func refresh(_ context: some OperationContext, _ request: Fields) throws(CarFitError) -> JSON {
        try context.refresh(.catalog, request)
    }
    public static func list(_ context: some OperationContext, _ request: Fields) throws(CarFitError) -> JSON {
        try list(context.catalog, request)
    }
    public static func product(_ context: some OperationContext, _ request: Fields) throws(CarFitError) -> JSON {
        try product(context.catalog, request)
    }
}

/// The cart operations: `cart.add`, `cart.update`, `cart.remove`, `cart.get`, `cart.checkout`, `cart.orders` (their API is `CatalogAPI`'s).
public enum CartAPI {
    public static func add(_ context: some OperationContext, _ request: Fields) throws(CarFitError) -> JSON {
        try CatalogAPI.add(context.catalog, request)
    }
    public static func update(_ context: some OperationContext, _ request: Fields) throws(CarFitError) -> JSON {
        try CatalogAPI.update(context.catalog, request)
    }
    public static func remove(_ context: some OperationContext, _ request: Fields) throws(CarFitError) -> JSON {
        try CatalogAPI.remove(context.catalog, request)
    }
    public static func get(_ context: some OperationContext, _ request: Fields) throws(CarFitError) -> JSON {
        try CatalogAPI.cart(context.catalog)
    }
    public static func checkout(_ context: some OperationContext, _ request: Fields) throws(CarFitError) -> JSON {
        try CatalogAPI.checkout(context.catalog)
    }
    public static func orders(_ context: some OperationContext, _ request: Fields) throws(CarFitError) -> JSON {
        try CatalogAPI.orders(context.catalog)
    }
}
