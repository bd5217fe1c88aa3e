/// An exact running total of amounts, wide enough that no number of stored amounts overflows.
public struct MoneySum: Sendable, Equatable {
    public private(set) var cents: Int128 = 0

    public init() {}

    public mutating func add(_ money: Money) { cents += Int128(money.cents) }

    public var double: Double { Money.double(cents: cents) }

    /// `part / whole` rounded to four decimals (halves away from zero), computed exactly on the
    /// integers; 0 when `whole` is 0. Four decimals as the insights screen shows (0.1573).
    public static func share(_ part: MoneySum, of whole: MoneySum) -> Double {
        guard whole.cents != 0 else { return 0 }
        let numerator = part.cents * 10_000
        var q = numerator / whole.cents
        let r = numerator % whole.cents
        // Round half away from zero: compare twice the remainder with the divisor.
        if r != 0, r.magnitude * 2 >= whole.cents.magnitude {
            q += (numerator < 0) != (whole.cents < 0) ? -1 : 1
        }
        return Double(q) / 10_000
    }
}
