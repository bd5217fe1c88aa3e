/// How `catalog.list` orders products.
public enum CatalogSort: String, Sendable, CaseIterable {
    case name
    case nameDescending = "-name"
    case none

    /// The name orders ignore case and accents (`SortKey`): by key, then by the name's code
    /// points, then by id (integer ids by value, before string ids by code points); `-name` is
    /// the exact reverse. With a locale's `collator`, names are first compared by it, and the
    /// names it ranks equal in that order.
    public func apply(_ products: [Product], collator: NameCollator? = nil) -> [Product] {
        switch self {
        case .none:
            return products
        case .name, .nameDescending:
            let keys = products.map { SortKey.key($0.name) }
            let names = products.map { SortKey.scalars($0.name) }
            let collation = collator.map { c in products.map { c.key($0.name) } }
            let descending = self == .nameDescending
            return NameCollator.sortedPositions(products.count) { i, j in
                var order = 0
                if let collation { order = NameCollator.compare(collation[i], collation[j]) }
                if order == 0 { order = SortKey.compare(keys[i], keys[j]) }
                if order == 0 { order = SortKey.compare(names[i], names[j]) }
                if order == 0 { order = CatalogSort.compare(products[i].id, products[j].id) }
                if order == 0 { order = i < j ? -1 : (i > j ? 1 : 0) }
                return descending ? order > 0 : order < 0
            }.map { products[$0] }
        }
    }

    static func compare(_ a: ProductID, _ b: ProductID) -> Int {
        if a.isInteger != b.isInteger { return a.isInteger ? -1 : 1 }
        if a.isInteger, let x = Int64(a.key), let y = Int64(b.key) { return x < y ? -1 : (x > y ? 1 : 0) }
        return SortKey.compare(SortKey.scalars(a.key), SortKey.scalars(b.key))
    }
}
