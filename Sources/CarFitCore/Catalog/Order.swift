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

    /// `{"id", "placedAt", "lines", "totalQuantity"}`
    public var json: JSON {
        .obj(["id": .int(id), "placedAt": .string(placedAt.iso), "lines": .array(lines.map(\.json)),
              "totalQuantity": .int(Int64(totalQuantity))])
    }

    public static let thanks = "Thank you for your order!"
}
