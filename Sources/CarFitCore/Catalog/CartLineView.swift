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
}
