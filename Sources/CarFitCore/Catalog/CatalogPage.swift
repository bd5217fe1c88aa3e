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
}
