/// A cart or order line as the screen shows it.
public struct CartLineView: Sendable, Equatable {
    public var productId: ProductID
    public var name: String
    public var imageUrl: String?
    public var quantity: Int

    public init(productId: ProductID, name: String, imageUrl: String?, quantity: Int) {
        self.productId = productId
        self.name = name
        self.imageUrl = imageUrl
        self.quantity = quantity
    }

    public var json: JSON {
        .obj(["productId": productId.json, "name": .string(name), "imageUrl": .str(imageUrl),
              "quantity": .int(Int64(quantity))])
    }

    /// `{"lines": [...], "totalQuantity": n}`
    public static func cartJSON(_ lines: [CartLineView]) -> JSON {
        .obj(["lines": .array(lines.map(\.json)), "totalQuantity": .int(Int64(lines.reduce(0) { $0 + $1.quantity }))])
    }
}
