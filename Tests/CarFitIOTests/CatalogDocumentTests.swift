import Foundation
import XCTest

@testable import CarFitCore
@testable import CarFitIO

/// The catalog documents (wine.com and the plain shape) read into products: prices, ids,
/// rejections, and the sample's order.
final class CatalogDocumentTests: XCTestCase {
    private func fields(_ pairs: KeyValuePairs<String, JSON>) -> Fields { Fields(JSONObject(pairs)) }

    private func assertRefused(_ status: Status, field: String?, file: StaticString = #filePath, line: UInt = #line,
                               _ body: () throws(CarFitError) -> Void) {
        do throws(CarFitError) {
            try body()
            XCTFail("expected \(status.name) on \(field ?? "no field")", file: file, line: line)
        } catch {
            XCTAssertEqual(error.status, status, error.message, file: file, line: line)
            XCTAssertEqual(error.field, field, error.message, file: file, line: line)
            XCTAssertFalse(error.message.isEmpty, file: file, line: line)
        }
    }

    // MARK: - Employees

    func testPricesAreExactCents() throws {
        let accepted: [(JSON, Int64)] = [(34.99, 3499), (16.4, 1640), (22.1, 2210), (0.29, 29), (0.1, 10), (18, 1800),
                                         (0, 0), (1_000_000, 100_000_000), (999_999.99, 99_999_999),
                                         ("34.99", 3499), ("7.5", 750), ("12.340", 1234), ("0007", 700)]
        for (value, cents) in accepted {
            XCTAssertEqual(try Price.read(Fields(JSONObject(["price": value])), "price"), cents, "\(value)")
        }
        let refusedValues: [JSON] = [34.999, 0.001, -1, -0.5, 1_000_000.01, 1e300, "1.234", "abc", "1e3", "", ".5",
                                     "5.", "-1", "1.2.3", true, .array([]), "12345678.00"]
        for value in refusedValues {
            assertRefused(.invalid, field: "price") { () throws(CarFitError) in
                _ = try Price.read(Fields(JSONObject(["price": value])), "price")
            }
        }
    }

    func testProductIDs() throws {
        XCTAssertEqual(try ProductID.read(fields(["id": 101]), "id"), ProductID(key: "101", isInteger: true))
        XCTAssertEqual(try ProductID.read(fields(["id": 101.0]), "id"), ProductID(key: "101", isInteger: true))
        XCTAssertEqual(try ProductID.read(fields(["id": "abc"]), "id"), ProductID(key: "abc", isInteger: false))
        for bad: JSON in [.null, 1.5, "  ", true, .array([])] {
            assertRefused(.invalid, field: "id") { () throws(CarFitError) in _ = try ProductID.read(self.fields(["id": bad]), "id") }
        }
    }

    // MARK: - Catalog

    private func sampleCatalog() throws -> Fields {
        let url = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("examples/data/catalog.json")
        let object = try JSONSerialization.jsonObject(with: Data(contentsOf: url))
        return Fields(try XCTUnwrap(CatalogDocumentTests.convert(object).objectValue, "the catalog fixture is not an object"))
    }

    /// Foundation's JSON → the core's `JSON` (integers stay integers).
    static func convert(_ value: Any) -> JSON {
        switch value {
        case let d as [String: Any]:
            var o = JSONObject()
            for key in d.keys.sorted() { o[key] = convert(d[key] ?? NSNull()) }
            return .object(o)
        case let a as [Any]: return .array(a.map(convert))
        case let s as String: return .string(s)
        case let n as NSNumber:
            if String(cString: n.objCType) == "c" { return .bool(n.boolValue) }
            if let i = Int64(exactly: n.doubleValue), !"\(n)".contains(".") { return .int(i) }
            return .double(n.doubleValue)
        default: return .null
        }
    }

    func testWineComCatalogDecodes() throws {
        let batch = try CatalogImport(document: sampleCatalog())
        XCTAssertEqual(batch.products.count, 10)
        XCTAssertEqual(batch.rejected, [])
        let first = try XCTUnwrap(batch.products.first)
        XCTAssertEqual(first, Product(id: ProductID(key: "101", isInteger: true), name: "Cascade Ridge Cabernet Sauvignon 2019",
                                      category: "Red Wines", description: "Dark fruit, cedar and a long, firm finish.",
                                      imageUrl: "http://cache.wine.com/labels/101m.jpg", priceCents: 3499))
        let alborg = try XCTUnwrap(batch.products.first { $0.id.key == "104" })
        XCTAssertNil(alborg.imageUrl)
        let brut = try XCTUnwrap(batch.products.first { $0.id.key == "105" })
        XCTAssertEqual(brut.description ?? "", "")
    }

    func testRejectedRecordsCarryIndexAndField() throws {
        let document: JSON = .obj(["products": [
            .obj(["id": 1, "name": "Ok", "price": 1.5]),
            .obj(["id": 2, "name": "Bad", "price": 1.555]),
            .obj(["id": 3, "price": 1]),
            .obj(["id": 4, "name": "N", "price": 1, "imageUrl": 5]),
            "text",
        ]])
        let batch = try CatalogImport(document: Fields(try XCTUnwrap(document.objectValue)))
        XCTAssertEqual(batch.products.map(\.id.key), ["1"])
        XCTAssertEqual(batch.rejected.map(\.index), [1, 2, 3, 4])
        XCTAssertEqual(batch.rejected.map(\.field), ["price", "name", "imageUrl", nil])
        for bad in [JSONObject(), JSONObject(["products": 1]), JSONObject(["Products": .obj(["List": 1])])] {
            XCTAssertThrowsError(try CatalogImport(document: Fields(bad)))
        }
    }

    func testNameOrderIgnoresCaseAndAccents() throws {
        let products = try CatalogImport(document: sampleCatalog()).products
        let byName = CatalogSort.name.apply(products).map(\.name)
        XCTAssertEqual(byName, ["Ålborg Riesling Trocken 2020", "alpine Grüner Veltliner 2022", "Bay Terrace Chardonnay 2022",
                                "Casa Blanca Brut", "Cascade Ridge Cabernet Sauvignon 2019", "Étienne Merlot 2020",
                                "Old Mill Pinot Noir 2021", "Rosa del Sol Rosé 2023", "Sauternes Late Harvest 2015",
                                "Zinfandel Old Vines 2018"])
        XCTAssertEqual(CatalogSort.nameDescending.apply(products).map(\.name), byName.reversed())
        XCTAssertEqual(CatalogSort.none.apply(products), products)
        let page = CatalogPage(all: products, category: "White Wines", sort: .name)
        XCTAssertEqual(page.categories, ["Champagne & Sparkling", "Dessert, Sherry & Port", "Red Wines", "Rosé Wine", "White Wines"])
        XCTAssertEqual(page.products.map(\.id.key), ["104", "107", "103"])
    }

    // MARK: - Cart

}
