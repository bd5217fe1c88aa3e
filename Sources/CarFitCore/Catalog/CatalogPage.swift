/// The catalog list screen: the category names (sorted, ignoring case and accents) and the
/// products of the chosen category (all when none is chosen) in the chosen order.
public struct CatalogPage: Sendable {
    public var categories: [String]
    public var products: [Product]

    /// With a locale's `collator`, names are ordered by it first (the categories too).
    public init(all products: [Product], category: String?, sort: CatalogSort, collator: NameCollator? = nil) {
        let names = Array(Set(products.compactMap(\.category)))
        if let collator {
            let keyed = names.map { (name: $0, key: collator.key($0)) }
            categories = keyed.sorted { a, b in
                let order = NameCollator.compare(a.key, b.key)
                return order != 0 ? order < 0 : SortKey.less(a.name, b.name)
            }.map(\.name)
        } else {
            categories = names.sorted(by: SortKey.less)
        }
        let chosen = category.map { c in products.filter { $0.category == c } } ?? products
        self.products = sort.apply(chosen, collator: collator)
    }
}
