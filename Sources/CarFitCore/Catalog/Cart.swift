/// An employee's cart: lines in the order their products were first added, each holding
/// 1 to 999 of one product. Every operation validates first and changes nothing when it throws.
public struct Cart: Sendable, Equatable {
    public struct Line: Sendable, Equatable {
        public var productKey: String
        public var quantity: Int

        public init(productKey: String, quantity: Int) {
            self.productKey = productKey
            self.quantity = quantity
        }
    }

    public static let quantities = 1...999

    public private(set) var lines: [Line]

    public init(lines: [Line] = []) { self.lines = lines }

    public var isEmpty: Bool { lines.isEmpty }
    public var totalQuantity: Int { lines.reduce(0) { $0 + $1.quantity } }

    public func quantity(of key: String) -> Int? { lines.first { $0.productKey == key }?.quantity }

    /// Adds `quantity` (1–999) of a product: to its line when it has one (which keeps its
    /// place), else as a new last line. A line would pass 999: `invalid`, nothing changes.
    public mutating func add(_ key: String, quantity: Int) throws(CarFitError) {
        try Cart.check(quantity)
        if let i = lines.firstIndex(where: { $0.productKey == key }) {
            let current = lines[i].quantity
            guard quantity <= Cart.quantities.upperBound - current else {
                throw .invalid("quantity", "The cart already holds \(current) of this product; a line holds at most \(Cart.quantities.upperBound), so at most \(Cart.quantities.upperBound - current) more can be added.")
            }
            lines[i].quantity = current + quantity
        } else {
            lines.append(Line(productKey: key, quantity: quantity))
        }
    }

    /// Sets a line's quantity (1–999); a product not in the cart is `not_found`.
    public mutating func update(_ key: String, quantity: Int) throws(CarFitError) {
        try Cart.check(quantity)
        guard let i = lines.firstIndex(where: { $0.productKey == key }) else { throw Cart.notInCart() }
        lines[i].quantity = quantity
    }

    /// Removes a line; a product not in the cart is `not_found`.
    public mutating func remove(_ key: String) throws(CarFitError) {
        guard let i = lines.firstIndex(where: { $0.productKey == key }) else { throw Cart.notInCart() }
        lines.remove(at: i)
    }

    public static func check(_ quantity: Int) throws(CarFitError) {
        if quantity == 0 {
            throw .invalid("quantity", "quantity must be between 1 and 999; use remove to take a product out of the cart.")
        }
        guard Cart.quantities.contains(quantity) else {
            throw .invalid("quantity", "quantity must be between 1 and 999.")
        }
    }

    static func notInCart() -> CarFitError {
        CarFitError(.notFound, "That product is not in the cart.", field: "productId")
    }
}
