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
