/// Exact money in integer cents. Amounts carry at most two decimal places.
public enum Price {
    /// Prices lie in 0 … 1,000,000.00, so every sum of a cart fits easily in 64 bits.
    public static let maxCents: Int64 = 100_000_000

    /// Reads a price: a JSON number, or a decimal string such as `"34.99"`.
    public static func read(_ f: Fields, _ key: String) throws(CarFitError) -> Int64 {
        let path = f.path(key)
        guard let value = f.value(key) else { throw .invalid(path, "\(path) is required.") }
        let cents: Int64?
        switch value {
        case .int(let n):
            guard n >= 0, n <= maxCents / 100 else { throw outOfRange(path) }
            cents = n * 100
        case .double(let d):
            guard d.isFinite, d >= 0, d <= Double(maxCents / 100) else { throw outOfRange(path) }
            let c = (d * 100).rounded()
            cents = Double(c) / 100 == d ? Int64(c) : nil
        case .string(let s):
            cents = try parseDecimal(s.trimmed, path: path)
        default:
            throw .invalid(path, "\(path) must be a number such as 34.99.")
        }
        guard let cents else { throw .invalid(path, "\(path) must have at most two decimal places.") }
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
