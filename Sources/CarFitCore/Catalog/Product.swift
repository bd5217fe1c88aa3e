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

    /// The list row: `{"id", "name", "category", "imageUrl", "price"}`.
    public var listJSON: JSON {
        .obj([
            "id": id.json,
            "name": .string(name),
            "category": .str(category),
            "imageUrl": .str(imageUrl),
            "price": Price.json(cents: priceCents),
        ])
    }

    /// The detail screen: the list row plus `description` (a placeholder when there is none)
    /// and `hasDescription`.
    public var detailJSON: JSON {
        let text = description?.trimmed ?? ""
        return .obj([
            "id": id.json,
            "name": .string(name),
            "category": .str(category),
            "imageUrl": .str(imageUrl),
            "price": Price.json(cents: priceCents),
            "description": .string(text.isEmpty ? Product.noDescription : text),
            "hasDescription": .bool(!text.isEmpty),
        ])
    }
}
