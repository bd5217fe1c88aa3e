/// Exact money in integer cents. Amounts carry at most two decimal places.
public enum Price {
    /// Prices lie in 0 … 1,000,000.00, so every sum of a cart fits easily in 64 bits.
    public static let maxCents: Int64 = 100_000_000

    /// A whole price in units; outside 0 … 1,000,000 is `invalid` with `path`.
    public static func cents(whole n: Int64, path: String) throws(CarFitError) -> Int64 {
        guard n >= 0, n <= maxCents / 100 else { throw outOfRange(path) }
        return n * 100
    }

    /// A price given as a number: at most two decimal places, within 0 … 1,000,000; anything
    /// else is `invalid` with `path`.
    public static func cents(number d: Double, path: String) throws(CarFitError) -> Int64 {
        guard d.isFinite, d >= 0, d <= Double(maxCents / 100) else { throw outOfRange(path) }
        let c = (d * 100).rounded()
        guard Double(c) / 100 == d else { throw tooPrecise(path) }
        return try checked(Int64(c), path: path)
    }

    /// A price given as a decimal text such as `"34.99"` (surrounding blanks ignored).
    public static func cents(text s: String, path: String) throws(CarFitError) -> Int64 {
        guard let cents = try parseDecimal(s.trimmed, path: path) else { throw tooPrecise(path) }
        return try checked(cents, path: path)
    }

    /// The refusal of a price that is neither a number nor a decimal text.
    public static func notAPrice(_ path: String) -> CarFitError {
        .invalid(path, "\(path) must be a number such as 34.99.")
    }

    static func tooPrecise(_ path: String) -> CarFitError {
        .invalid(path, "\(path) must have at most two decimal places.")
    }

    static func checked(_ cents: Int64, path: String) throws(CarFitError) -> Int64 {
        guard cents <= maxCents else { throw outOfRange(path) }
        return cents
    }

    static func outOfRange(_ path: String) -> CarFitError {
        .invalid(path, "\(path) must be between 0 and 1000000.")
    }

    /// `"34.99"`, `"18"`, `"16.4"`, `"2.500"` → cents; nil when a digit past the second
    /// decimal is not zero. Anything but digits and one dot is `invalid`.
    static func parseDecimal(_ s: String, path: String) throws(CarFitError) -> Int64? {
        let u = Array(s.utf8)
        let parts = u.split(separator: UInt8(ascii: "."), omittingEmptySubsequences: false)
        guard !u.isEmpty, u.count <= 40, parts.count <= 2, let whole = parts.first, !whole.isEmpty,
              u.allSatisfy({ ($0 >= 48 && $0 <= 57) || $0 == UInt8(ascii: ".") }) else {
            throw .invalid(path, "\(path) must be a number such as 34.99.")
        }
        let fraction = parts.count == 2 ? Array(parts[1]) : []
        guard parts.count == 1 || !fraction.isEmpty else { throw .invalid(path, "\(path) must be a number such as 34.99.") }
        // Leading zeros do not count towards the size.
        let significant = whole.drop(while: { $0 == 48 })
        guard significant.count <= 7 else { throw outOfRange(path) }
        var cents: Int64 = 0
        for c in significant { cents = cents * 10 + Int64(c - 48) }
        cents *= 100
        for (i, c) in fraction.enumerated() {
            let digit = Int64(c - 48)
            switch i {
            case 0: cents += digit * 10
            case 1: cents += digit
            default: if digit != 0 { return nil }
            }
        }
        return cents
    }
}
