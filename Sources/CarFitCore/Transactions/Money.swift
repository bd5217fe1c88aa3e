/// An exact amount of money in integer minor units (cents). Amounts arrive as numbers
/// (doubles) or decimal strings with at most two decimals; sums are exact integers; a response
/// carries the double nearest to the exact decimal.
public struct Money: Sendable, Hashable, Comparable {
    public var cents: Int64

    public init(cents: Int64) { self.cents = cents }

    /// The largest magnitude a single amount may have: 10,000,000,000,000.00 (so its cents,
    /// at most 1e15, are exact as a double and any realistic sum fits comfortably).
    public static let limit: Int64 = 10_000_000_000_000
    static let limitCents: Int64 = limit * 100

    public static func < (a: Money, b: Money) -> Bool { a.cents < b.cents }

    /// The double nearest to the exact decimal `cents / 100`.
    public var double: Double { Money.double(cents: Int128(cents)) }

    /// The double nearest to `cents / 100` for any sum. Below 2^53 both `cents` and 100 are exact
    /// doubles and IEEE division rounds the exact quotient once; larger sums go through the
    /// decimal text, which Swift's parser rounds correctly.
    public static func double(cents: Int128) -> Double {
        let exactLimit: Int128 = 1 << 53
        if cents > -exactLimit && cents < exactLimit {
            return Double(Int64(truncatingIfNeeded: cents)) / 100
        }
        return Double(decimalText(cents: cents)) ?? Double(cents) / 100
    }

    /// `"-12.05"`: the exact decimal text of `cents / 100`.
    public static func decimalText(cents: Int128) -> String {
        let negative = cents < 0
        let magnitude = cents.magnitude
        let whole = magnitude / 100
        let fraction = Int(magnitude % 100)
        return (negative ? "-" : "") + String(whole) + "." + (fraction < 10 ? "0" : "") + String(fraction)
    }

    /// The exact decimal text of this amount (`"54.60"`).
    public var text: String { Money.decimalText(cents: Int128(cents)) }

    /// A whole amount; beyond `limit` is `invalid` with `field`.
    public init(whole i: Int64, field: String) throws(CarFitError) {
        guard i >= -Money.limit, i <= Money.limit else { throw Money.tooLarge(field) }
        self.init(cents: i * 100)
    }

    /// A number with at most two decimals (`init(double:)`); anything else is `invalid` with
    /// `field`.
    public init(number x: Double, field: String) throws(CarFitError) {
        guard let money = Money(double: x) else {
            if x.isFinite, abs(x) <= Double(Money.limit) {
                throw CarFitError.invalid(field, "\(field) must have at most two decimal places.")
            }
            throw Money.tooLarge(field)
        }
        self = money
    }

    /// A decimal text (`"54.60"`, `"-3"`, `"0.5"`, see `init(text:)`); anything else is
    /// `invalid` with `field`.
    public init(text s: String, field: String) throws(CarFitError) {
        guard let money = Money(text: s) else {
            throw CarFitError.invalid(field, "\(field) \"\(s.prefix(40))\" is not an amount with at most two decimal places, like \"54.60\".")
        }
        self = money
    }

    /// The refusal of an amount that is neither a number nor a decimal text.
    public static func notAnAmount(_ field: String) -> CarFitError {
        CarFitError.invalid(field, "\(field) must be a number, like 54.60.")
    }

    /// The amount whose nearest double is `x`, if `x` has at most two decimals: cents is
    /// `(x * 100).rounded()` and is accepted only when `Double(cents) / 100 == x` (54.60 is,
    /// 0.125 is not). Nil for non-finite values and magnitudes above `limit`.
    public init?(double x: Double) {
        guard x.isFinite, abs(x) <= Double(Money.limit) else { return nil }
        guard let c = Int64(exactly: (x * 100).rounded()), Double(c) / 100 == x else { return nil }
        self.init(cents: c)
    }

    /// Parses `-?digits(.d{1,2})?` exactly (no exponent, no spaces, no leading "+").
    public init?(text: String) {
        let u = Array(text.utf8)
        var i = 0
        var negative = false
        if i < u.count, u[i] == UInt8(ascii: "-") {
            negative = true
            i += 1
        }
        var whole: Int64 = 0
        var digits = 0
        while i < u.count, u[i] >= 48, u[i] <= 57 {
            whole = whole * 10 + Int64(u[i] - 48)
            digits += 1
            i += 1
            guard whole <= Money.limit else { return nil }
        }
        guard digits > 0 else { return nil }
        var fraction: Int64 = 0
        if i < u.count {
            guard u[i] == UInt8(ascii: ".") else { return nil }
            i += 1
            var places = 0
            while i < u.count, u[i] >= 48, u[i] <= 57, places < 2 {
                fraction = fraction * 10 + Int64(u[i] - 48)
                places += 1
                i += 1
            }
            guard places > 0, i == u.count else { return nil }
            if places == 1 { fraction *= 10 }
        }
        let magnitude = whole * 100 + fraction
        guard magnitude <= Money.limitCents else { return nil }
        self.init(cents: negative ? -magnitude : magnitude)
    }

    static func tooLarge(_ field: String) -> CarFitError {
        .invalid(field, "\(field) must be a number between -10000000000000 and 10000000000000.")
    }
}
