import CarFitCore

/// The catalog document read into a `CatalogImport`: either the wine.com shape
/// `{"Products": {"List": [...]}}` or `{"products": [...]}`, each record validated on its own.
extension RecordImport where Record == Product {
    /// A document with neither list is `invalid` (and nothing may be stored from it).
    public init(document f: Fields) throws(CarFitError) {
        let records: [JSON]
        let decode: (Fields) throws(CarFitError) -> Product
        if f.has("Products") {
            guard let wrapper = try f.object("Products"), let list = try wrapper.array("List") else {
                throw .invalid("Products.List", "The wine.com document has no Products.List array.")
            }
            records = list
            decode = CatalogDocument.wineProduct
        } else {
            guard let list = try f.array("products") else {
                throw .invalid("products", "The document has no products array (or wine.com Products.List).")
            }
            records = list
            decode = CatalogDocument.plainProduct
        }
        self.init(records, decode: decode)
    }
}

public enum CatalogDocument {
    /// The members of a wine.com record that `wineProduct` reads.
    public static let wineMemberNames = ["Id", "Name", "Description", "Labels", "Varietal", "PriceRetail"]
    /// The members of a plain record that `plainProduct` reads.
    public static let plainMemberNames = ["id", "name", "category", "description", "imageUrl", "price"]

    /// The document's members that `RecordImport(document:)` reads, its records with only the
    /// members their shape reads: what the import reads straight from the bytes.
    /// Made on each use (a few small tables): kept in a global, its indirect cases would sit
    /// behind tagged pointers that a leak checker cannot follow.
    public static var picked: PickedDocument {
        PickedDocument(.object([
            ("Products", .object([("List", .records(.record(wineMemberNames)))])),
            ("products", .records(.record(plainMemberNames))),
        ]))
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

extension ProductID {
    /// The member `key` as a product id: an integer, or a non-blank string of at most 200
    /// characters. Missing is `invalid`.
    public static func read(_ f: Fields, _ key: String) throws(CarFitError) -> ProductID {
        let path = f.path(key)
        guard let value = f.value(key) else { throw .invalid(path, "\(path) is required.") }
        switch value {
        case .int(let n): return ProductID(key: String(n), isInteger: true)
        case .double(let d): if let id = ProductID(number: d) { return id }
        case .string(let s): return try ProductID(text: s, path: path)
        default: break
        }
        throw ProductID.notAnID(path)
    }
}

extension Price {
    /// Reads a price: a JSON number, or a decimal string such as `"34.99"`.
    public static func read(_ f: Fields, _ key: String) throws(CarFitError) -> Int64 {
        let path = f.path(key)
        guard let value = f.value(key) else { throw .invalid(path, "\(path) is required.") }
        switch value {
        case .int(let n): return try Price.cents(whole: n, path: path)
        case .double(let d): return try Price.cents(number: d, path: path)
        case .string(let s): return try Price.cents(text: s, path: path)
        default: throw Price.notAPrice(path)
        }
    }
}
