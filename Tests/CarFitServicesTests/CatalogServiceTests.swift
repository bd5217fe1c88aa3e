import CarFitCore
import CarFitIO
import CarFitServices
import CarFitStore
import XCTest

final class CatalogServiceTests: XCTestCase {
    func loggedIn() throws -> ServiceFixture {
        let f = try ServiceFixture()
        _ = try f.catalog.importCatalog(try ServiceFixture.data("catalog.json").withUnsafeBytes { bytes throws(CarFitError) in
            try JanssonParser.object(bytes)
        })
        _ = try f.employees.create(pin: "4821", firstName: "Ada", lastName: "Lovelace", email: nil, hiredOn: nil).get()
        _ = try f.employees.login(pin: .success("4821")).get()
        return f
    }

    /// The cart as `productId: quantity`, in line order.
    func lines(_ document: JSON) -> [String] {
        guard case .array(let lines)? = document.objectValue?["cart"]?.objectValue?["lines"] else { return ["not a cart"] }
        return lines.map { line in
            let object = line.objectValue
            return "\(object?["productId"]?.encoded() ?? "?"): \(object?["quantity"]?.encoded() ?? "?")"
        }
    }

    func testCartChangesAreStoredPerEmployee() throws {
        let f = try loggedIn()
        XCTAssertEqual(lines(try f.catalog.add(try ServiceFixture.fields(#"{"productId": 101, "quantity": 2}"#))), ["101: 2"])
        XCTAssertEqual(lines(try f.catalog.add(try ServiceFixture.fields(#"{"productId": "102"}"#))), ["101: 2", "102: 1"])
        XCTAssertEqual(lines(try f.catalog.add(try ServiceFixture.fields(#"{"productId": 101, "quantity": 3}"#))), ["101: 5", "102: 1"])
        XCTAssertEqual(lines(try f.catalog.update(try ServiceFixture.fields(#"{"productId": 102, "quantity": 7}"#))), ["101: 5", "102: 7"])
        XCTAssertEqual(lines(try f.catalog.remove(try ServiceFixture.fields(#"{"productId": 101}"#))), ["102: 7"])
        // What the store holds, read without the cache.
        let employee = try XCTUnwrap(f.session.employeeId)
        XCTAssertEqual(try ShopStore(f.db).cartLines(employeeId: employee).map { "\($0.line.productId.key): \($0.line.quantity)" },
                       ["102: 7"])
        XCTAssertEqual(lines(try f.catalog.cart()), ["102: 7"])
    }

    func testARefusedChangeLeavesTheCartAsItWas() throws {
        let f = try loggedIn()
        _ = try f.catalog.add(try ServiceFixture.fields(#"{"productId": 101, "quantity": 998}"#))
        let unknown = refusal { () throws(CarFitError) in _ = try f.catalog.add(try ServiceFixture.fields(#"{"productId": 999}"#)) }
        XCTAssertEqual(unknown?.status, .notFound)
        XCTAssertEqual(unknown?.field, "productId")
        // An invalid quantity is reported before an unknown product.
        let both = refusal { () throws(CarFitError) in _ = try f.catalog.add(try ServiceFixture.fields(#"{"productId": 999, "quantity": 0}"#)) }
        XCTAssertEqual(both?.status, .invalid)
        XCTAssertEqual(both?.field, "quantity")
        let over = refusal { () throws(CarFitError) in _ = try f.catalog.add(try ServiceFixture.fields(#"{"productId": 101, "quantity": 2}"#)) }
        XCTAssertEqual(over?.field, "quantity")
        let missing = refusal { () throws(CarFitError) in _ = try f.catalog.update(try ServiceFixture.fields(#"{"productId": 102, "quantity": 1}"#)) }
        XCTAssertEqual(missing?.status, .notFound)
        XCTAssertEqual(lines(try f.catalog.cart()), ["101: 998"])
    }

    func testCartNeedsALogin() throws {
        let f = try loggedIn()
        _ = f.employees.logout()
        XCTAssertEqual(refusal { () throws(CarFitError) in _ = try f.catalog.cart() }?.status, .unauthorized)
        XCTAssertEqual(refusal { () throws(CarFitError) in _ = try f.catalog.add(try ServiceFixture.fields(#"{"productId": 101}"#)) }?.status,
                       .unauthorized)
    }

    func testCheckoutStoresTheOrderAndEmptiesTheCart() throws {
        let f = try loggedIn()
        XCTAssertEqual(refusal { () throws(CarFitError) in _ = try f.catalog.checkout() }?.status, .invalid)
        _ = try f.catalog.add(try ServiceFixture.fields(#"{"productId": 101, "quantity": 2}"#))
        let done = try f.catalog.checkout()
        XCTAssertEqual(lines(done), [])
        guard case .array(let orders)? = try f.catalog.orders().objectValue?["orders"] else { return XCTFail("no orders") }
        XCTAssertEqual(orders.count, 1)
        XCTAssertEqual(orders.first, done.objectValue?["order"])
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
        _ = try catalog.importCatalog(try ServiceFixture.fields(#"{"products": [{"id": 1, "name": "One", "price": 5}]}"#))
        _ = try EmployeesService(db: db, clock: clock, session: session)
            .create(pin: "4821", firstName: "Ada", lastName: "Lovelace", email: nil, hiredOn: nil).get()
        session.employeeId = 1
        XCTAssertEqual(lines(try catalog.cart()), [])
        var cart = Cart()
        try cart.add("1", quantity: 4)
        try ShopStore(other).save(cart, employeeId: 1)
        XCTAssertEqual(lines(try catalog.cart()), ["1: 4"])
    }
}
