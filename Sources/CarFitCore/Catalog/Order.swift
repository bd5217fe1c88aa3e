/// A placed order.
public struct Order: Sendable, Equatable {
    public var id: Int64
    public var placedAt: Instant
    public var lines: [CartLineView]

    public init(id: Int64, placedAt: Instant, lines: [CartLineView]) {
        self.id = id
        self.placedAt = placedAt
        self.lines = lines
    }

    public var totalQuantity: Int { lines.reduce(0) { $0 + $1.quantity } }

    public static let thanks = "Thank you for your order!"
}
