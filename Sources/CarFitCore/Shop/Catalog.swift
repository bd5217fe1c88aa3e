/// A product id as the source gave it: an integer (wine.com's `Id`) or a string. Both forms
/// name the same product when their text is equal (`101` and `"101"`); responses write the id
/// in the form it was last imported with.
public struct ProductID: Sendable, Hashable {
    /// The decimal text of an integer id, or the string id as given.
    public var key: String
    public var isInteger: Bool

    public static let maxLength = 200

    public init(key: String, isInteger: Bool) {
        self.key = key
        self.isInteger = isInteger
    }

    public var json: JSON {
        if isInteger, let n = Int64(key) { return .int(n) }
        return .string(key)
    }

    /// The member `key` as a product id: an integer, or a non-blank string of at most 200
    /// characters. Missing is `invalid`.
    public static func read(_ f: Fields, _ key: String) throws(CarFitError) -> ProductID {
        let path = f.path(key)
        guard let value = f.value(key) else { throw .invalid(path, "\(path) is required.") }
        switch value {
        case .int(let n):
            return ProductID(key: String(n), isInteger: true)
        case .double(let d) where d.rounded() == d && abs(d) < 9.0e15:
            return ProductID(key: String(Int64(d)), isInteger: true)
        case .string(let s):
            guard !s.trimmed.isEmpty else { throw .invalid(path, "\(path) must not be blank.") }
            guard s.count <= maxLength else { throw .invalid(path, "\(path) must be at most \(maxLength) characters.") }
            return ProductID(key: s, isInteger: false)
        default:
            throw .invalid(path, "\(path) must be a string or a whole number.")
        }
    }
}

/// Exact money in integer cents. Amounts carry at most two decimal places.
public enum Price {
    /// Prices lie in 0 … 1,000,000.00, so every sum of a cart fits easily in 64 bits.
    public static let maxCents: Int64 = 100_000_000

    /// The double nearest to the exact decimal `cents / 100`.
    public static func json(cents: Int64) -> JSON { .double(Double(cents) / 100) }

    /// Reads a price: a JSON number, or a decimal string such as `"34.99"`.
    public static func read(_ f: Fields, _ key: String) throws(CarFitError) -> Int64 {
        let path = f.path(key)
        guard let value = f.value(key) else { throw .invalid(path, "\(path) is required.") }
        let cents: Int64?
        switch value {
        case .int(let n):
            guard n >= 0, n <= maxCents / 100 else { throw outOfRange(path) }
            cents = n * 100
        case .double(let d):
            guard d.isFinite, d >= 0, d <= Double(maxCents / 100) else { throw outOfRange(path) }
            let c = (d * 100).rounded()
            cents = Double(c) / 100 == d ? Int64(c) : nil
        case .string(let s):
            cents = try parseDecimal(s.trimmed, path: path)
        default:
            throw .invalid(path, "\(path) must be a number such as 34.99.")
        }
        guard let cents else { throw .invalid(path, "\(path) must have at most two decimal places.") }
        guard cents <= maxCents else { throw outOfRange(path) }
        return cents
    }

    static func outOfRange(_ path: String) -> CarFitError {
        .invalid(path, "\(path) must be between 0 and 1000000.")
    }

    /// `"34.99"`, `"18"`, `"16.4"`, `"2.500"` → cents; nil when a digit past the second
    /// decimal is not zero. Anything but digits and one dot is `invalid`.
    static func parseDecimal(_ s: String, path: String) throws(CarFitError) -> Int64? {
        let u = Array(s.utf8)
        let parts = u.split(separator: UInt8(ascii: "."), omittingEmptySubsequences: false)
        guard !u.isEmpty, u.count <= 40, parts.count <= 2, let whole = parts.first, !whole.isEmpty,
              u.allSatisfy({ ($0 >= 48 && $0 <= 57) || $0 == UInt8(ascii: ".") }) else {
            throw .invalid(path, "\(path) must be a number such as 34.99.")
        }
        let fraction = parts.count == 2 ? Array(parts[1]) : []
        guard parts.count == 1 || !fraction.isEmpty else { throw .invalid(path, "\(path) must be a number such as 34.99.") }
        // Leading zeros do not count towards the size.
        let significant = whole.drop(while: { $0 == 48 })
        guard significant.count <= 7 else { throw outOfRange(path) }
        var cents: Int64 = 0
        for c in significant { cents = cents * 10 + Int64(c - 48) }
        cents *= 100
        for (i, c) in fraction.enumerated() {
            let digit = Int64(c - 48)
            switch i {
            case 0: cents += digit * 10
            case 1: cents += digit
            default: if digit != 0 { return nil }
            }
        }
        return cents
    }
}

/// One product of the catalog.
public struct Product: Sendable, Equatable {
    public var id: ProductID
    public var name: String
    public var category: String?
    public var description: String?
    public var imageUrl: String?
    public var priceCents: Int64

    public init(id: ProductID, name: String, category: String?, description: String?, imageUrl: String?, priceCents: Int64) {
        self.id = id
        self.name = name
        self.category = category
        self.description = description
        self.imageUrl = imageUrl
        self.priceCents = priceCents
    }

    public static let noDescription = "No description available."

    /// The list row: `{"id", "name", "category", "imageUrl", "price"}`.
    public var listJSON: JSON {
        .obj([
            "id": id.json,
            "name": .string(name),
            "category": .str(category),
            "imageUrl": .str(imageUrl),
            "price": Price.json(cents: priceCents),
        ])
    }

    /// The detail screen: the list row plus `description` (a placeholder when there is none)
    /// and `hasDescription`.
    public var detailJSON: JSON {
        let text = description?.trimmed ?? ""
        return .obj([
            "id": id.json,
            "name": .string(name),
            "category": .str(category),
            "imageUrl": .str(imageUrl),
            "price": Price.json(cents: priceCents),
            "description": .string(text.isEmpty ? Product.noDescription : text),
            "hasDescription": .bool(!text.isEmpty),
        ])
    }
}

/// The products of a catalog document, in document order, and the records that failed.
public typealias CatalogImport = RecordImport<Product>

extension RecordImport where Record == Product {
    public var products: [Product] { accepted }

    /// Either the wine.com shape `{"Products": {"List": [...]}}` or `{"products": [...]}`.
    /// A document with neither list is `invalid` (and nothing may be stored from it).
    public init(document f: Fields) throws(CarFitError) {
        let records: [JSON]
        let decode: (Fields) throws(CarFitError) -> Product
        if f.has("Products") {
            guard let wrapper = try f.object("Products"), let list = try wrapper.array("List") else {
                throw .invalid("Products.List", "The wine.com document has no Products.List array.")
            }
            records = list
            decode = CatalogImport.wineProduct
        } else {
            guard let list = try f.array("products") else {
                throw .invalid("products", "The document has no products array (or wine.com Products.List).")
            }
            records = list
            decode = CatalogImport.plainProduct
        }
        self.init(records, decode: decode)
    }

    /// wine.com: Id, Name, Description, Labels[0].Url, Varietal.WineType.Name, PriceRetail.
    static func wineProduct(_ f: Fields) throws(CarFitError) -> Product {
        let id = try ProductID.read(f, "Id")
        let name = try requiredText(f, "Name")
        let description = try optionalText(f, "Description")
        var image: String?
        if let labels = try f.array("Labels"), let first = labels.first {
            guard case .object(let label) = first else { throw .invalid("Labels[0]", "Labels[0] must be an object.") }
            image = try optionalText(Fields(label, path: "Labels[0]"), "Url")
        }
        var category: String?
        if let varietal = try f.object("Varietal"), let type = try varietal.object("WineType") {
            category = try optionalText(type, "Name")
        }
        let price = try Price.read(f, "PriceRetail")
        return Product(id: id, name: name, category: category, description: description, imageUrl: image, priceCents: price)
    }

    /// The plain shape: id, name, category, description, imageUrl, price.
    static func plainProduct(_ f: Fields) throws(CarFitError) -> Product {
        Product(id: try ProductID.read(f, "id"),
                name: try requiredText(f, "name"),
                category: try optionalText(f, "category"),
                description: try optionalText(f, "description"),
                imageUrl: try optionalText(f, "imageUrl"),
                priceCents: try Price.read(f, "price"))
    }

    static func requiredText(_ f: Fields, _ key: String) throws(CarFitError) -> String {
        guard let text = try optionalText(f, key) else { throw .invalid(f.path(key), "\(f.path(key)) is required.") }
        return text
    }

    /// A trimmed string; blank reads as absent.
    static func optionalText(_ f: Fields, _ key: String) throws(CarFitError) -> String? {
        guard let text = try f.string(key)?.trimmed, !text.isEmpty else { return nil }
        return text
    }
}

/// How `catalog.list` orders products.
public enum CatalogSort: String, Sendable, CaseIterable {
    case name
    case nameDescending = "-name"
    case none

    public static func read(_ f: Fields, _ key: String) throws(CarFitError) -> CatalogSort {
        guard let text = try f.string(key) else { return .name }
        guard let sort = CatalogSort(rawValue: text) else {
            throw .invalid(f.path(key), "\(f.path(key)) must be \"name\", \"-name\" or \"none\".")
        }
        return sort
    }

    /// `products` must be in import order; the name orders ignore case and accents, and
    /// products with equal names keep import order in both directions.
    public func apply(_ products: [Product]) -> [Product] {
        switch self {
        case .none:
            return products
        case .name, .nameDescending:
            let keyed = products.enumerated().map { (index: $0.offset, key: SortKey.fold($0.element.name), product: $0.element) }
            let descending = self == .nameDescending
            return keyed.sorted { a, b in
                if a.key != b.key { return descending ? a.key > b.key : a.key < b.key }
                if a.product.name != b.product.name {
                    return descending ? a.product.name > b.product.name : a.product.name < b.product.name
                }
                return a.index < b.index
            }.map(\.product)
        }
    }
}

/// The catalog list screen: the category names (sorted, ignoring case and accents) and the
/// products of the chosen category (all when none is chosen) in the chosen order.
public struct CatalogPage: Sendable {
    public var categories: [String]
    public var products: [Product]

    public init(all products: [Product], category: String?, sort: CatalogSort) {
        categories = Array(Set(products.compactMap(\.category))).sorted(by: SortKey.less)
        let chosen = category.map { c in products.filter { $0.category == c } } ?? products
        self.products = sort.apply(chosen)
    }

    public var json: JSON {
        .obj(["categories": .array(categories.map(JSON.string)), "products": .array(products.map(\.listJSON))])
    }
}
