/// A transaction's id as the source gives it: an integer or a string. Which of the two it is
/// belongs to the id, so `1` and `"1"` are two different transactions; responses echo the id
/// with its kind. Integer ids sort numerically before string ids; strings sort by code point.
public enum TransactionID: Sendable, Hashable, Comparable, CustomStringConvertible {
    case int(Int64)
    case string(String)

    /// A string id: non-empty, at most 256 bytes, without NUL; anything else is `invalid`
    /// with `field`.
    public init(text s: String, field: String) throws(CarFitError) {
        guard !s.isEmpty, s.utf8.count <= 256, !s.utf8.contains(0) else {
            throw CarFitError.invalid(field, "\(field) must be a non-empty string of at most 256 bytes without NUL, or an integer.")
        }
        self = .string(s)
    }

    /// A number as an id: a real without fraction within ±2^53 counts as an integer; any other
    /// is `invalid` with `field`.
    public init(number d: Double, field: String) throws(CarFitError) {
        guard d.rounded() == d, abs(d) <= 9_007_199_254_740_992, let i = Int64(exactly: d) else {
            throw TransactionID.invalid(field)
        }
        self = .int(i)
    }

    /// The refusal of an id that is neither an integer nor a string.
    public static func invalid(_ field: String) -> CarFitError {
        .invalid(field, "\(field) must be an integer or a string.")
    }

    /// `1` or `"1"`, as a message quotes it.
    public var description: String {
        switch self {
        case .int(let i): String(i)
        case .string(let s): "\"" + String(s.prefix(60)) + "\""
        }
    }

    public static func < (a: TransactionID, b: TransactionID) -> Bool {
        switch (a, b) {
        case (.int(let x), .int(let y)): x < y
        case (.int, .string): true
        case (.string, .int): false
        case (.string(let x), .string(let y)): Array(x.unicodeScalars.map(\.value)).lexicographicallyPrecedes(y.unicodeScalars.map(\.value))
        }
    }
}
