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
        XCTAssertEqual(try f.importCatalog(json: try ServiceFixture.text("catalog.json")), .init(imported: 10, rejected: []))
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
        let cabernet = try XCTUnwrap(page.products.first { $0.id.key == "101" })
        XCTAssertEqual(cabernet.imageUrl, "http://cache.wine.com/labels/101m.jpg")
        XCTAssertEqual(cabernet.category, "Red Wines")
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
        XCTAssertEqual(merlot.imageUrl, "http://cache.wine.com/labels/110m.jpg")
        XCTAssertEqual(merlot.priceCents, 1995)
        XCTAssertEqual(try f.catalog.product(ProductID(key: "110", isInteger: false)).id, merlot.id)
        let unknown = refusal { () throws(CarFitError) in _ = try f.catalog.product(CatalogServiceTests.id(999)) }
        XCTAssertEqual(unknown?.status, .notFound)
        XCTAssertEqual(unknown?.field, "id")
    }

    func testAnImportUpdatesProductsByIdInPlaceAndAddsNewOnes() throws {
        let f = try withCatalog()
        let imported = try f.importCatalog(json: #"""
            {"products": [{"id": 110, "name": "Étienne Merlot 2021", "category": "Red Wines", "description": "  ",
                           "imageUrl": null, "price": 21},
                          {"id": "cider-1", "name": "Orchard Cider", "category": "Cider", "price": "7.50"}]}
            """#)
        XCTAssertEqual(imported, .init(imported: 2, rejected: []))
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
        let before = try f.catalog.list(category: nil, sort: .none)
        for (bad, field) in [(#"{}"#, "products"), (#"{"products": {}}"#, "products"), (#"{"products": 1}"#, "products"),
                             (#"{"Products": {"Total": 3}}"#, "Products.List"), (#"{"Products": []}"#, "Products"),
                             (#"{"Products": {"List": 1}}"#, "Products.List")] {
            let error = refusal { () throws(CarFitError) in try f.importCatalog(json: bad) }
            XCTAssertEqual(error?.status, .invalid, bad)
            XCTAssertEqual(error?.field, field, bad)
        }
        let after = try f.catalog.list(category: nil, sort: .none)
        XCTAssertEqual(after.products, before.products)
        XCTAssertEqual(after.categories, before.categories)
    }

    func testBlankOrMissingDescriptionsStayBlank() throws {
        let f = try withCatalog()
        XCTAssertEqual(try f.catalog.product(CatalogServiceTests.id(103)).description?.trimmingCharacters(in: .whitespaces) ?? "", "")
        XCTAssertEqual(try f.catalog.product(CatalogServiceTests.id(105)).description?.trimmingCharacters(in: .whitespaces) ?? "", "")
        XCTAssertEqual(try f.catalog.product(CatalogServiceTests.id(110)).description, "Plum and cocoa, soft tannins.")
    }

    func testRejectedRecordsAreReportedByIndexAndFieldAndTheRestStored() throws {
        let f = try ServiceFixture()
        func wine(_ id: String, name: String = "\"Fine\"", price: String = "9.5", labels: String = #"[{"Url": "http://img.test/1.jpg"}]"#,
                  varietal: String = #"{"WineType": {"Name": "Red Wines"}}"#) -> String {
            #"{"Id": \#(id), "Name": \#(name), "PriceRetail": \#(price), "Varietal": \#(varietal), "Labels": \#(labels)}"#
        }
        let records = [
            wine("201", price: "12.345"), wine("202", name: "\"  \""), wine("203", labels: #"["not an object"]"#),
            wine("204", price: "-1"), wine("205", varietal: #"{"WineType": {"Name": 5}}"#), #""not a record""#,
            wine("null"), wine("208", price: "null"), wine("209", labels: #"[{"Url": 7}]"#), wine("210"),
        ]
        let result = try f.importCatalog(json: #"{"Products": {"List": [\#(records.joined(separator: ","))]}}"#)
        XCTAssertEqual(result.imported, 1)
        XCTAssertEqual(result.rejected, ["0 PriceRetail", "1 Name", "2 Labels[0]", "3 PriceRetail", "4 Varietal.WineType.Name",
                                         "5 -", "6 Id", "7 PriceRetail", "8 Labels[0].Url"])
        XCTAssertEqual(try f.catalog.list(category: nil, sort: .none).products.map(\.id.key), ["210"])
        let plain = try f.importCatalog(json: #"{"products": [{"id": "x", "name": "X", "price": "1.999"}, {"name": "Y", "price": 1}]}"#)
        XCTAssertEqual(plain, .init(imported: 0, rejected: ["0 price", "1 id"]))
    }

    func testPricesAreExact() throws {
        let f = try ServiceFixture()
        let prices = ["0.1", "0.29", "16.4", "999999.99", "0", #""0.10""#, "1000000"]
        let products = prices.enumerated().map { #"{"id": \#($0.offset), "name": "P\#($0.offset)", "price": \#($0.element)}"# }
        XCTAssertEqual(try f.importCatalog(json: #"{"products": [\#(products.joined(separator: ","))]}"#).imported, 7)
        XCTAssertEqual(try f.catalog.list(category: nil, sort: .none).products.map(\.priceCents), [10, 29, 1640, 99_999_999, 0, 10, 100_000_000])
        let refused = try f.importCatalog(json: #"""
            {"products": [{"id": "a", "name": "A", "price": 0.001}, {"id": "b", "name": "B", "price": 1000000.01},
                          {"id": "c", "name": "C", "price": "1e3"}, {"id": "d", "name": "D", "price": true}]}
            """#)
        XCTAssertEqual(refused, .init(imported: 0, rejected: ["0 price", "1 price", "2 price", "3 price"]))
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

    func testAddRefusesBadQuantitiesAndUnknownProductsAndChangesNothing() throws {
        let (f, ada) = try loggedIn()
        try f.catalog.add(CatalogServiceTests.id(101), quantity: 2, employee: ada)
        for quantity in [0, -1, 1000, 1 << 40] {
            let bad = refusal { () throws(CarFitError) in try f.catalog.add(CatalogServiceTests.id(102), quantity: quantity, employee: ada) }
            XCTAssertEqual(bad?.status, .invalid, "\(quantity)")
            XCTAssertEqual(bad?.field, "quantity", "\(quantity)")
        }
        for unknown in [CatalogServiceTests.id(999), ProductID(key: "nope", isInteger: false)] {
            let missing = refusal { () throws(CarFitError) in try f.catalog.add(unknown, quantity: 1, employee: ada) }
            XCTAssertEqual(missing?.status, .notFound, unknown.key)
            XCTAssertEqual(missing?.field, "productId", unknown.key)
        }
        XCTAssertEqual(try lines(f, ada), ["101: 2"])
    }

    func testALineNeverPasses999AndTheRefusalSaysHowManyMoreFit() throws {
        let (f, ada) = try loggedIn()
        try f.catalog.add(CatalogServiceTests.id(101), quantity: 999, employee: ada)
        XCTAssertEqual(refusal { () throws(CarFitError) in try f.catalog.add(CatalogServiceTests.id(101), quantity: 1, employee: ada) }?.field,
                       "quantity")
        try f.catalog.update(CatalogServiceTests.id(101), quantity: 990, employee: ada)
        try f.catalog.add(CatalogServiceTests.id(102), quantity: 5, employee: ada)
        let over = refusal { () throws(CarFitError) in try f.catalog.add(CatalogServiceTests.id(101), quantity: 10, employee: ada) }
        XCTAssertEqual(over?.status, .invalid)
        XCTAssertEqual(over?.field, "quantity")
        XCTAssertTrue(over?.message.contains("9 more") ?? false, over?.message ?? "")
        XCTAssertEqual(try lines(f, ada), ["101: 990", "102: 5"])
        try f.catalog.add(CatalogServiceTests.id(101), quantity: 9, employee: ada)
        XCTAssertEqual(try lines(f, ada), ["101: 999", "102: 5"])
    }

    func testUpdateSetsAQuantityAndItsRefusalsChangeNothing() throws {
        let (f, ada) = try loggedIn()
        try f.catalog.add(CatalogServiceTests.id(101), quantity: 2, employee: ada)
        try f.catalog.add(CatalogServiceTests.id(102), quantity: 1, employee: ada)
        let zero = refusal { () throws(CarFitError) in try f.catalog.update(CatalogServiceTests.id(101), quantity: 0, employee: ada) }
        XCTAssertEqual(zero?.field, "quantity")
        XCTAssertTrue(zero?.message.contains("remove") ?? false, zero?.message ?? "")
        for (id, quantity, status, field) in [(CatalogServiceTests.id(101), 1000, Status.invalid, "quantity"),
                                              (CatalogServiceTests.id(101), -3, .invalid, "quantity"),
                                              (CatalogServiceTests.id(103), 2, .notFound, "productId"),
                                              (CatalogServiceTests.id(999), 2, .notFound, "productId")] {
            let error = refusal { () throws(CarFitError) in try f.catalog.update(id, quantity: quantity, employee: ada) }
            XCTAssertEqual(error?.status, status, "\(id.key) \(quantity)")
            XCTAssertEqual(error?.field, field, "\(id.key) \(quantity)")
        }
        XCTAssertEqual(try lines(f, ada), ["101: 2", "102: 1"])
        try f.catalog.update(CatalogServiceTests.id(101), quantity: 7, employee: ada)
        try f.catalog.update(ProductID(key: "102", isInteger: false), quantity: 999, employee: ada)
        XCTAssertEqual(try lines(f, ada), ["101: 7", "102: 999"])
    }

    func testARemovedProductAddedAgainGoesToTheEnd() throws {
        let (f, ada) = try loggedIn()
        for (n, quantity) in [(Int64(101), 2), (102, 1), (103, 4)] { try f.catalog.add(CatalogServiceTests.id(n), quantity: quantity, employee: ada) }
        try f.catalog.remove(CatalogServiceTests.id(102), employee: ada)
        XCTAssertEqual(try lines(f, ada), ["101: 2", "103: 4"])
        for id in [CatalogServiceTests.id(102), CatalogServiceTests.id(999)] {
            let error = refusal { () throws(CarFitError) in try f.catalog.remove(id, employee: ada) }
            XCTAssertEqual(error?.status, .notFound)
            XCTAssertEqual(error?.field, "productId")
        }
        XCTAssertEqual(try lines(f, ada), ["101: 2", "103: 4"])
        try f.catalog.add(CatalogServiceTests.id(102), quantity: 1, employee: ada)
        XCTAssertEqual(try lines(f, ada), ["101: 2", "103: 4", "102: 1"])
    }

    /// Random sequences of cart operations (unknown products and bad quantities among them)
    /// against the rules written out plainly: the same status, the same lines after each step.
    func testRandomCartSequencesMatchAModel() throws {
        let products = ["101", "102", "103", "104", "105"]
        for seed in UInt64(0)..<6 {
            let (f, ada) = try loggedIn()
            var rng = SplitMix64(seed: seed)
            var model: [(key: String, quantity: Int)] = []
            for step in 0..<150 {
                let ops = rng.below(100) < 97 ? ["add", "add", "add", "update", "remove", "get", "checkout"] : ["checkout"]
                let op = ops[rng.below(ops.count)]
                let key = (products + ["999"])[rng.below(products.count + 1)]
                let quantities = [1, 2, 5, 1 + rng.below(999), 300 + rng.below(700), 0, 1000, -1]
                let quantity = quantities[rng.below(quantities.count)]
                let valid = (1...999).contains(quantity)
                let index = model.firstIndex { $0.key == key }
                var expected: Status?
                switch op {
                case "add":
                    if !valid { expected = .invalid }
                    else if !products.contains(key) { expected = .notFound }
                    else if let i = index {
                        if model[i].quantity + quantity > 999 { expected = .invalid } else { model[i].quantity += quantity }
                    } else { model.append((key, quantity)) }
                case "update":
                    if !valid { expected = .invalid } else if let i = index { model[i].quantity = quantity } else { expected = .notFound }
                case "remove":
                    if let i = index { model.remove(at: i) } else { expected = .notFound }
                case "checkout":
                    if model.isEmpty { expected = .invalid } else { model = [] }
                default:
                    break
                }
                let id = CatalogServiceTests.id(Int64(key) ?? 0)
                var status: Status?
                do throws(CarFitError) {
                    switch op {
                    case "add": try f.catalog.add(id, quantity: quantity, employee: ada)
                    case "update": try f.catalog.update(id, quantity: quantity, employee: ada)
                    case "remove": try f.catalog.remove(id, employee: ada)
                    case "checkout": _ = try f.catalog.checkout(employee: ada)
                    default: _ = try f.catalog.cartLines(ada)
                    }
                } catch {
                    status = error.status
                }
                let context = "seed \(seed) step \(step): \(op) \(key) \(quantity)"
                XCTAssertEqual(status, expected, context)
                XCTAssertEqual(try lines(f, ada), model.map { "\($0.key): \($0.quantity)" }, context)
                XCTAssertEqual(try ShopStore(f.db).cart(employeeId: ada).totalQuantity, model.reduce(0) { $0 + $1.quantity }, context)
            }
        }
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
