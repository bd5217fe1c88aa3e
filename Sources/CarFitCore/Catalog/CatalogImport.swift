/// The products of a catalog document, in document order, and the records that failed (read
/// by the catalog document's decoder).
public typealias CatalogImport = RecordImport<Product>

extension RecordImport where Record == Product {
    public var products: [Product] { accepted }
}
