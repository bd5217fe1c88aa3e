import CarFitSystem
import CarFitAPI
import CarFitCore
import CarFitIO
import CarFitServices
import CarFitStore
import Foundation
import XCTest

/// The catalog and cart requests read from their documents, their documents written, and the
/// cart document's cache.
final class CatalogAPITests: XCTestCase {
    func testCartRequestsReadTheirQuantity() throws {
        refused("quantity") { () throws(CarFitError) in _ = try CartChange(self.fields(["productId": 1, "quantity": 1.5]), quantity: 1) }
        refused("quantity") { () throws(CarFitError) in _ = try CartChange(self.fields(["productId": 1]), quantity: nil) }
        refused("productId") { () throws(CarFitError) in _ = try CartChange(self.fields(["quantity": 1]), quantity: nil) }
        XCTAssertEqual(try CartChange(fields(["productId": 1]), quantity: 1).quantity, 1)
        XCTAssertEqual(try CartChange(fields(["productId": 1, "quantity": .int(Int64.max)]), quantity: 1).quantity, Int.max)
        XCTAssertEqual(try CartChange(fields(["productId": "7", "quantity": 3.0]), quantity: nil).productId,
                       ProductID(key: "7", isInteger: false))
        refused("productId") { () throws(CarFitError) in _ = try CartRemoval(self.fields(["productId": "  "])) }
    }

    func testCatalogListRequests() throws {
        refused("sort") { () throws(CarFitError) in _ = try CatalogListRequest(self.fields(["sort": "Name"])) }
        refused("category") { () throws(CarFitError) in _ = try CatalogListRequest(self.fields(["category": 3])) }
        XCTAssertEqual(try CatalogListRequest(fields([:])).sort, .name)
        XCTAssertEqual(try CatalogListRequest(fields(["sort": "-name", "category": .null])).sort, .nameDescending)
        XCTAssertNil(try CatalogListRequest(fields(["category": .null])).category)
        refused("id") { () throws(CarFitError) in _ = try ProductRequest(self.fields(["id": .array([1])])) }
    }

    func testProductDocuments() throws {
        XCTAssertEqual(ProductID(key: "101", isInteger: true).json, 101)
        XCTAssertEqual(ProductID(key: "abc", isInteger: false).json, "abc")
        let brut = Product(id: ProductID(key: "105", isInteger: true), name: "Casa Blanca Brut", category: nil, description: "  ",
                           imageUrl: nil, priceCents: 47208)
        XCTAssertEqual(ProductDetail(product: brut).json.encoded(),
                       #"{"product":{"id":105,"name":"Casa Blanca Brut","category":null,"imageUrl":null,"price":472.08,"description":"No description available.","hasDescription":false}}"#)
        var cider = brut
        cider.description = "Dry."
        cider.priceCents = 1640 + 2210 + 29
        XCTAssertEqual(ProductDetail(product: cider).json.objectValue?["product"]?.objectValue?["price"], .double(38.79))
        XCTAssertEqual(ProductDetail(product: cider).json.objectValue?["product"]?.objectValue?["hasDescription"], true)
        let page = CatalogPage(all: [brut], category: nil, sort: .name)
        XCTAssertEqual(ProductPage(page: page).json.encoded(),
                       #"{"categories":[],"products":[{"id":105,"name":"Casa Blanca Brut","category":null,"imageUrl":null,"price":472.08}]}"#)
    }

    func testCartAndOrderDocuments() {
        let line = CartLineView(productId: ProductID(key: "101", isInteger: true), name: "Wine", imageUrl: nil, quantity: 5)
        XCTAssertEqual(CartAnswer(lines: [line]).json,
                       .obj(["cart": .obj(["lines": [.obj(["productId": 101, "name": "Wine", "imageUrl": .null, "quantity": 5])],
                                           "totalQuantity": 5])]))
        let order = Order(id: 3, placedAt: Instant(milliseconds: 1_714_557_600_000), lines: [line, line])
        XCTAssertEqual(order.json.objectValue?["placedAt"], "2024-05-01T10:00:00Z")
        XCTAssertEqual(order.json.objectValue?["totalQuantity"], 10)
        XCTAssertEqual(CheckoutAnswer(order: order).json.objectValue?["cart"], .obj(["lines": [], "totalQuantity": 0]))
        XCTAssertEqual(CheckoutAnswer(order: order).json.objectValue?["message"], "Thank you for your order!")
        XCTAssertEqual(OrderList(orders: [order]).json, .obj(["orders": [order.json]]))
    }

    /// The cart as `productId: quantity`, in line order.
    func lines(_ document: JSON) -> [String] {
        guard case .array(let lines)? = document.objectValue?["cart"]?.objectValue?["lines"] else { return ["not a cart"] }
        return lines.map { line in
            let object = line.objectValue
            return "\(object?["productId"]?.encoded() ?? "?"): \(object?["quantity"]?.encoded() ?? "?")"
        }
    }

    static func parsed(_ text: String) throws(CarFitError) -> Fields {
        let result = Array(text.utf8).withUnsafeBytes { bytes in
            Result { () throws(CarFitError) in try JanssonParser.object(bytes) }
        }
        return try result.get()
    }

    /// Every cart operation asks who is logged in before it reads its request; a refused one
    /// changes nothing, and the cart is there again at the next login.
    func testEveryCartOperationNeedsALogin() throws {
        let db = try Database(path: ":memory:")
        let clock = try Clock(zoneName: "UTC", fixedNow: Instant(milliseconds: 0))
        let session = Session()
        let catalog = CatalogService(db: db, clock: clock, session: session, documents: DocumentCache())
        let employees = EmployeesService(db: db, clock: clock, session: session)
        try ShopStore(db).upsert([Product(id: ProductID(key: "101", isInteger: true), name: "One", category: nil, description: nil,
                                          imageUrl: nil, priceCents: 500)])
        _ = try EmployeesAPI.create(employees, fields(["pin": "4821", "firstName": "Ada", "lastName": "Lovelace"]))
        _ = try EmployeesAPI.login(employees, fields(["pin": "4821"]))
        XCTAssertEqual(lines(try CatalogAPI.add(catalog, fields(["productId": 101, "quantity": 2]))), ["101: 2"])
        _ = EmployeesAPI.logout(employees)
        let calls: [(String, () throws(CarFitError) -> JSON)] = [
            ("add", { () throws(CarFitError) in try CatalogAPI.add(catalog, self.fields(["productId": 101])) }),
            ("update", { () throws(CarFitError) in try CatalogAPI.update(catalog, self.fields(["productId": 101, "quantity": 3])) }),
            ("remove", { () throws(CarFitError) in try CatalogAPI.remove(catalog, self.fields(["productId": 101])) }),
            ("get", { () throws(CarFitError) in try CatalogAPI.cart(catalog) }),
            ("checkout", { () throws(CarFitError) in try CatalogAPI.checkout(catalog) }),
            ("orders", { () throws(CarFitError) in try CatalogAPI.orders(catalog) }),
            // Who is logged in comes before the request is read.
            ("add without a product", { () throws(CarFitError) in try CatalogAPI.add(catalog, self.fields([:])) }),
        ]
        for (name, call) in calls {
            do throws(CarFitError) {
                _ = try call()
                XCTFail("\(name) was answered without a login")
            } catch {
                XCTAssertEqual(error.status, .unauthorized, name)
            }
        }
        _ = try EmployeesAPI.login(employees, fields(["pin": "4821"]))
        XCTAssertEqual(lines(try CatalogAPI.cart(catalog)), ["101: 2"])
        XCTAssertEqual(try CatalogAPI.orders(catalog), .obj(["orders": []]))
    }

    func testTheRequestsOfACartChangeAndAProduct() throws {
        refused("quantity") { () throws(CarFitError) in _ = try CartChange(self.fields(["productId": 102, "quantity": "2"]), quantity: 1) }
        refused("quantity") { () throws(CarFitError) in _ = try CartChange(self.fields(["productId": 102, "quantity": true]), quantity: 1) }
        refused("productId") { () throws(CarFitError) in _ = try CartChange(self.fields(["productId": .obj(["id": 1])]), quantity: 1) }
        refused("productId") { () throws(CarFitError) in _ = try CartChange(self.fields(["productId": " "]), quantity: 1) }
        refused("productId") { () throws(CarFitError) in _ = try CartRemoval(self.fields([:])) }
        refused("id") { () throws(CarFitError) in _ = try ProductRequest(self.fields([:])) }
        XCTAssertEqual(try ProductRequest(fields(["id": "110"])).id, ProductID(key: "110", isInteger: false))
    }

    /// A cart cached before another connection changed it is not served again.
    func testCachedCartFollowsWritesByOtherConnections() throws {
        let path = NSTemporaryDirectory() + "carfit-services-\(UInt32.random(in: 0...UInt32.max)).db"
        defer { try? FileManager.default.removeItem(atPath: path) }
        let db = try Database(path: path)
        let other = try Database(path: path)
        defer {
            other.close()
            db.close()
        }
        let clock = try Clock(zoneName: "UTC", fixedNow: Instant(milliseconds: 0))
        let session = Session()
        let catalog = CatalogService(db: db, clock: clock, session: session, documents: DocumentCache())
        _ = try CatalogAPI.importCatalog(catalog, try CatalogAPITests.parsed(#"{"products": [{"id": 1, "name": "One", "price": 5}]}"#))
        _ = try EmployeesService(db: db, clock: clock, session: session)
            .create(pin: "4821", firstName: "Ada", lastName: "Lovelace", email: nil, hiredOn: nil).get()
        session.employeeId = 1
        XCTAssertEqual(lines(try CatalogAPI.cart(catalog)), [])
        var cart = Cart()
        try cart.add("1", quantity: 4)
        try ShopStore(other).save(cart, employeeId: 1)
        XCTAssertEqual(lines(try CatalogAPI.cart(catalog)), ["1: 4"])
    }
}
