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
}
