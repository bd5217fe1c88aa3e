/// The catalog list screen: the category names (sorted, ignoring case and accents) and the
/// products of the chosen category (all when none is chosen) in the chosen order.
public struct CatalogPage: Sendable {
    public var categories: [String]
    public var products: [Product]

    /// With a locale's `collator`, names are ordered by it first (the categories too).
    public init(all products: [Product], category: String?, sort: CatalogSort, collator: NameCollator? = nil) {
        let names = Array(Set(products.compactMap(\.category)))
        if let collator {
            let keys = names.map(collator.key)
            categories = NameCollator.sortedPositions(names.count) { i, j in
                let order = NameCollator.compare(keys[i], keys[j])
                return order != 0 ? order < 0 : SortKey.less(names[i], names[j])
            }.map { names[$0] }
        } else {
            categories = names.sorted(by: SortKey.less)
        }
        let chosen = category.map { c in products.filter { $0.category == c } } ?? products
        self.products = sort.apply(chosen, collator: collator)
    }
}
