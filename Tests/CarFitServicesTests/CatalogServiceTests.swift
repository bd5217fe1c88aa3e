import CarFitCore
import CarFitIO
import CarFitServices
import CarFitStore
import XCTest

/// The catalog and cart rules on the typed service: the catalog's import, order, categories
/// and upsert; the cart's quantities and unknown products; checkout and orders per employee.
final class CatalogServiceTests: XCTestCase {
    static let nameOrder = [
        "Ålborg Riesling Trocken 2020", "alpine Grüner Veltliner 2022", "Bay Terrace Chardonnay 2022",
        "Casa Blanca Brut", "Cascade Ridge Cabernet Sauvignon 2019", "Étienne Merlot 2020",
        "Old Mill Pinot Noir 2021", "Rosa del Sol Rosé 2023", "Sauternes Late Harvest 2015", "Zinfandel Old Vines 2018",
    ]

    func withCatalog() throws -> ServiceFixture {
        let f = try ServiceFixture()
        let batch = try CatalogImport(document: try ServiceFixture.data("catalog.json").withUnsafeBytes { bytes throws(CarFitError) in
            try JanssonParser.object(bytes)
        })
        try f.catalog.importCatalog(batch)
        XCTAssertEqual(batch.products.count, 10)
        XCTAssertEqual(batch.rejected, [])
        return f
    }

    /// The sample catalog and Ada (4821) logged in; her id.
    func loggedIn() throws -> (ServiceFixture, Int64) {
        let f = try withCatalog()
        _ = try f.employees.create(pin: "4821", firstName: "Ada", lastName: "Lovelace", email: nil, hiredOn: nil).get()
        let ada = try f.employees.login(pin: .success("4821")).get()
        XCTAssertEqual(try f.catalog.loggedInEmployee(), ada.id)
        return (f, ada.id)
    }

    static func id(_ n: Int64) -> ProductID { ProductID(key: String(n), isInteger: true) }

    /// The cart as `productId: quantity`, in line order, read from the store.
    func lines(_ f: ServiceFixture, _ employee: Int64) throws -> [String] {
        try f.catalog.cartLines(employee).map { "\($0.productId.key): \($0.quantity)" }
    }

    // MARK: - Catalog

    func testTheListSortsByNameIgnoringCaseAndAccentsOrDescendingOrInImportOrder() throws {
        let f = try withCatalog()
        let page = try f.catalog.list(category: nil, sort: .name)
        XCTAssertEqual(page.products.map(\.name), CatalogServiceTests.nameOrder)
        XCTAssertEqual(page.categories, ["Champagne & Sparkling", "Dessert, Sherry & Port", "Red Wines", "Rosé Wine", "White Wines"])
        XCTAssertEqual(try f.catalog.list(category: nil, sort: .nameDescending).products.map(\.name),
                       CatalogServiceTests.nameOrder.reversed())
        XCTAssertEqual(try f.catalog.list(category: nil, sort: .none).products.map(\.id.key), (101...110).map(String.init))
        let first = try XCTUnwrap(page.products.first)
        XCTAssertEqual(first, Product(id: CatalogServiceTests.id(104), name: "Ålborg Riesling Trocken 2020", category: "White Wines",
                                      description: first.description, imageUrl: nil, priceCents: 2175))
        let prices = Dictionary(uniqueKeysWithValues: page.products.map { ($0.id.key, $0.priceCents) })
        XCTAssertEqual(["101", "102", "103", "107", "108", "110"].map { prices[$0] }, [3499, 2750, 1800, 1640, 2210, 1995])
    }

    func testTheListFiltersByCategoryAndKeepsEveryCategory() throws {
        let f = try withCatalog()
        let reds = try f.catalog.list(category: "Red Wines", sort: .name)
        XCTAssertEqual(reds.products.map(\.name), ["Cascade Ridge Cabernet Sauvignon 2019", "Étienne Merlot 2020",
                                                   "Old Mill Pinot Noir 2021", "Zinfandel Old Vines 2018"])
        XCTAssertEqual(reds.categories.count, 5)
        XCTAssertEqual(try f.catalog.list(category: "Beer", sort: .name).products, [])
    }

    func testAProductByIdInEitherFormAndAnUnknownOneIsNotFound() throws {
        let f = try withCatalog()
        let merlot = try f.catalog.product(CatalogServiceTests.id(110))
        XCTAssertEqual(merlot.name, "Étienne Merlot 2020")
        XCTAssertEqual(merlot.description, "Plum and cocoa, soft tannins.")
        XCTAssertEqual(try f.catalog.product(ProductID(key: "110", isInteger: false)).id, merlot.id)
        let unknown = refusal { () throws(CarFitError) in _ = try f.catalog.product(CatalogServiceTests.id(999)) }
        XCTAssertEqual(unknown?.status, .notFound)
        XCTAssertEqual(unknown?.field, "id")
    }

    func testAnImportUpdatesProductsByIdInPlaceAndAddsNewOnes() throws {
        let f = try withCatalog()
        let batch = try CatalogImport(document: try ServiceFixture.fields(#"""
            {"products": [{"id": 110, "name": "Étienne Merlot 2021", "category": "Red Wines", "description": "  ",
                           "imageUrl": null, "price": 21},
                          {"id": "cider-1", "name": "Orchard Cider", "category": "Cider", "price": "7.50"}]}
            """#))
        try f.catalog.importCatalog(batch)
        XCTAssertEqual(batch.products.count, 2)
        let merlot = try f.catalog.product(CatalogServiceTests.id(110))
        XCTAssertEqual(merlot.name, "Étienne Merlot 2021")
        XCTAssertEqual(merlot.priceCents, 2100)
        XCTAssertNil(merlot.imageUrl)
        // The update kept its place.
        XCTAssertEqual(try f.catalog.list(category: nil, sort: .none).products.map(\.id.key), (101...110).map(String.init) + ["cider-1"])
        XCTAssertTrue(try f.catalog.list(category: nil, sort: .name).categories.contains("Cider"))
        XCTAssertEqual(try f.catalog.product(ProductID(key: "cider-1", isInteger: false)).priceCents, 750)
    }

    func testADocumentWithoutAProductListChangesNothing() throws {
        let f = try withCatalog()
        for bad in [#"{}"#, #"{"products": 1}"#, #"{"Products": {"List": 1}}"#] {
            let error = refusal { () throws(CarFitError) in try f.catalog.importCatalog(try CatalogImport(document: try ServiceFixture.fields(bad))) }
            XCTAssertEqual(error?.status, .invalid, bad)
        }
        XCTAssertEqual(try f.catalog.list(category: nil, sort: .none).products.count, 10)
    }

    // MARK: - Cart

    func testCartChangesAreStoredAndRepeatedAddsGroupIntoTheFirstLine() throws {
        let (f, ada) = try loggedIn()
        try f.catalog.add(CatalogServiceTests.id(101), quantity: 2, employee: ada)
        try f.catalog.add(ProductID(key: "102", isInteger: false), quantity: 1, employee: ada)
        try f.catalog.add(CatalogServiceTests.id(101), quantity: 3, employee: ada)
        XCTAssertEqual(try lines(f, ada), ["101: 5", "102: 1"])
        try f.catalog.update(CatalogServiceTests.id(102), quantity: 7, employee: ada)
        XCTAssertEqual(try lines(f, ada), ["101: 5", "102: 7"])
        try f.catalog.remove(CatalogServiceTests.id(101), employee: ada)
        XCTAssertEqual(try lines(f, ada), ["102: 7"])
        XCTAssertEqual(try ShopStore(f.db).cart(employeeId: ada).totalQuantity, 7)
    }

    func testARefusedChangeLeavesTheCartAsItWas() throws {
        let (f, ada) = try loggedIn()
        try f.catalog.add(CatalogServiceTests.id(101), quantity: 998, employee: ada)
        let unknown = refusal { () throws(CarFitError) in try f.catalog.add(CatalogServiceTests.id(999), quantity: 1, employee: ada) }
        XCTAssertEqual(unknown?.status, .notFound)
        XCTAssertEqual(unknown?.field, "productId")
        // An invalid quantity is reported before an unknown product.
        let both = refusal { () throws(CarFitError) in try f.catalog.add(CatalogServiceTests.id(999), quantity: 0, employee: ada) }
        XCTAssertEqual(both?.status, .invalid)
        XCTAssertEqual(both?.field, "quantity")
        // A line never passes 999.
        let over = refusal { () throws(CarFitError) in try f.catalog.add(CatalogServiceTests.id(101), quantity: 2, employee: ada) }
        XCTAssertEqual(over?.field, "quantity")
        for quantity in [0, -1, 1000, Int.max] {
            let bad = refusal { () throws(CarFitError) in try f.catalog.update(CatalogServiceTests.id(101), quantity: quantity, employee: ada) }
            XCTAssertEqual(bad?.status, .invalid, "\(quantity)")
        }
        let missing = refusal { () throws(CarFitError) in try f.catalog.update(CatalogServiceTests.id(102), quantity: 1, employee: ada) }
        XCTAssertEqual(missing?.status, .notFound)
        let gone = refusal { () throws(CarFitError) in try f.catalog.remove(CatalogServiceTests.id(102), employee: ada) }
        XCTAssertEqual(gone?.status, .notFound)
        XCTAssertEqual(gone?.field, "productId")
        XCTAssertEqual(try lines(f, ada), ["101: 998"])
        try f.catalog.add(CatalogServiceTests.id(101), quantity: 1, employee: ada)
        XCTAssertEqual(try lines(f, ada), ["101: 999"])
    }

    func testTheCartNeedsALogin() throws {
        let (f, _) = try loggedIn()
        f.employees.logout()
        XCTAssertEqual(refusal { () throws(CarFitError) in _ = try f.catalog.loggedInEmployee() }?.status, .unauthorized)
    }

    func testCheckoutStoresTheOrderAndEmptiesTheCart() throws {
        let (f, ada) = try loggedIn()
        XCTAssertEqual(refusal { () throws(CarFitError) in _ = try f.catalog.checkout(employee: ada) }?.status, .invalid)
        XCTAssertEqual(try f.catalog.orders(employee: ada), [])
        try f.catalog.add(CatalogServiceTests.id(101), quantity: 1, employee: ada)
        try f.catalog.add(CatalogServiceTests.id(102), quantity: 2, employee: ada)
        try f.catalog.add(CatalogServiceTests.id(101), quantity: 4, employee: ada)
        let order = try f.catalog.checkout(employee: ada)
        XCTAssertEqual(order.placedAt, f.clock.now)
        XCTAssertEqual(order.lines.map { "\($0.productId.key): \($0.quantity)" }, ["101: 5", "102: 2"])
        XCTAssertEqual(order.totalQuantity, 7)
        XCTAssertEqual(try lines(f, ada), [])
        XCTAssertEqual(try f.catalog.orders(employee: ada), [order])
        try f.catalog.add(CatalogServiceTests.id(103), quantity: 1, employee: ada)
        let second = try f.catalog.checkout(employee: ada)
        XCTAssertNotEqual(second.id, order.id)
        XCTAssertEqual(try f.catalog.orders(employee: ada).map(\.id), [second.id, order.id])
    }

    func testCartsAndOrdersArePerEmployee() throws {
        let (f, ada) = try loggedIn()
        let bob = try f.employees.create(pin: "1234", firstName: "Bob", lastName: "Babbage", email: nil, hiredOn: nil).get()
        try f.catalog.add(CatalogServiceTests.id(101), quantity: 2, employee: ada)
        XCTAssertEqual(try lines(f, bob.id), [])
        try f.catalog.add(CatalogServiceTests.id(102), quantity: 3, employee: bob.id)
        _ = try f.catalog.checkout(employee: bob.id)
        XCTAssertEqual(try lines(f, ada), ["101: 2"])
        XCTAssertEqual(try f.catalog.orders(employee: ada), [])
        XCTAssertEqual(try f.catalog.orders(employee: bob.id).count, 1)
    }
}
