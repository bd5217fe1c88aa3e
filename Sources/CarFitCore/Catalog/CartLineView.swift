/// A cart or order line as the screen shows it.
public struct CartLineView: Sendable, Equatable {
    public var productId: ProductID
    public var name: String
    public var imageUrl: String?
    public var quantity: Int
    /// The product's unit price, for a cart's line (nil on an order's).
    public var priceCents: Int64?

    public init(productId: ProductID, name: String, imageUrl: String?, quantity: Int, priceCents: Int64? = nil) {
        self.priceCents = priceCents
        self.productId = productId
        self.name = name
        self.imageUrl = imageUrl
        self.quantity = quantity
    }
}
