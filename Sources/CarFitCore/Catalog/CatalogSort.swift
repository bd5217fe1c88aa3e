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
            let keyed = products.enumerated().map {
                (index: $0.offset, key: SortKey.key($0.element.name), name: SortKey.scalars($0.element.name),
                 collation: collator?.key($0.element.name), product: $0.element)
            }
            let descending = self == .nameDescending
            return keyed.sorted { a, b in
                var order = 0
                if let x = a.collation, let y = b.collation { order = NameCollator.compare(x, y) }
                if order == 0 { order = SortKey.compare(a.key, b.key) }
                if order == 0 { order = SortKey.compare(a.name, b.name) }
                if order == 0 { order = CatalogSort.compare(a.product.id, b.product.id) }
                if order == 0 { order = a.index < b.index ? -1 : (a.index > b.index ? 1 : 0) }
                return descending ? order > 0 : order < 0
            }.map(\.product)
        }
    }

    static func compare(_ a: ProductID, _ b: ProductID) -> Int {
        if a.isInteger != b.isInteger { return a.isInteger ? -1 : 1 }
        if a.isInteger, let x = Int64(a.key), let y = Int64(b.key) { return x < y ? -1 : (x > y ? 1 : 0) }
        return SortKey.compare(SortKey.scalars(a.key), SortKey.scalars(b.key))
    }
}
