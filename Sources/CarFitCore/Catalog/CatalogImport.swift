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
