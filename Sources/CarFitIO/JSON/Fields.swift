import CarFitCore

/// Typed, validating access to the members of a request object.
///
/// Every accessor names the offending member in the error it throws, as a dotted path from the
/// request's root (`data[3].houseOwnerLatitude`). Missing members and `null` read as absent.
public struct Fields: Sendable {
    public let object: JSONObject
    /// The path of this object from the request root ("" for the root itself).
    public let path: String

    public init(_ object: JSONObject, path: String = "") {
        self.object = object
        self.path = path
    }

    /// The path of a member of this object.
    public func path(_ key: String) -> String { path.isEmpty ? key : path + "." + key }

    public func value(_ key: String) -> JSON? {
        guard let v = object[key], !v.isNull else { return nil }
        return v
    }

    public func has(_ key: String) -> Bool { value(key) != nil }

    public func string(_ key: String) throws(CarFitError) -> String? {
        guard let v = value(key) else { return nil }
        guard case .string(let s) = v else { throw .invalid(path(key), "\(path(key)) must be a string.") }
        return s
    }

    public func requiredString(_ key: String) throws(CarFitError) -> String {
        guard let s = try string(key) else { throw .invalid(path(key), "\(path(key)) is required.") }
        return s
    }

    public func bool(_ key: String) throws(CarFitError) -> Bool? {
        guard let v = value(key) else { return nil }
        guard case .bool(let b) = v else { throw .invalid(path(key), "\(path(key)) must be true or false.") }
        return b
    }

    /// A whole number within `range` (a real with no fraction is accepted).
    public func int(_ key: String, in range: ClosedRange<Int64>) throws(CarFitError) -> Int64? {
        guard let v = value(key) else { return nil }
        let n: Int64
        switch v {
        case .int(let i): n = i
        case .double(let d) where d.rounded() == d:
            // Any whole real a 64-bit integer holds (1e16 is 10000000000000000).
            guard let i = Int64(exactly: d) else { throw .invalid(path(key), "\(path(key)) must be between \(range.lowerBound) and \(range.upperBound).") }
            n = i
        default: throw .invalid(path(key), "\(path(key)) must be a whole number.")
        }
        guard range.contains(n) else {
            throw .invalid(path(key), "\(path(key)) must be between \(range.lowerBound) and \(range.upperBound).")
        }
        return n
    }

    public func requiredInt(_ key: String, in range: ClosedRange<Int64>) throws(CarFitError) -> Int64 {
        guard let n = try int(key, in: range) else { throw .invalid(path(key), "\(path(key)) is required.") }
        return n
    }

    /// A finite number (integer or real) within `range`.
    public func number(_ key: String, in range: ClosedRange<Double>) throws(CarFitError) -> Double? {
        guard let v = value(key) else { return nil }
        let d: Double
        switch v {
        case .int(let i): d = Double(i)
        case .double(let x): d = x
        default: throw .invalid(path(key), "\(path(key)) must be a number.")
        }
        guard d.isFinite, range.contains(d) else {
            throw .invalid(path(key), "\(path(key)) must be between \(range.lowerBound) and \(range.upperBound).")
        }
        return d
    }

    public func object(_ key: String) throws(CarFitError) -> Fields? {
        guard let v = value(key) else { return nil }
        guard case .object(let o) = v else { throw .invalid(path(key), "\(path(key)) must be an object.") }
        return Fields(o, path: path(key))
    }

    public func array(_ key: String) throws(CarFitError) -> [JSON]? {
        guard let v = value(key) else { return nil }
        guard case .array(let a) = v else { throw .invalid(path(key), "\(path(key)) must be an array.") }
        return a
    }

    /// An array of strings; each element's path is `key[i]`.
    public func strings(_ key: String) throws(CarFitError) -> [String]? {
        guard let items = try array(key) else { return nil }
        var out: [String] = []
        out.reserveCapacity(items.count)
        for (i, item) in items.enumerated() {
            guard case .string(let s) = item else {
                throw .invalid("\(path(key))[\(i)]", "\(path(key))[\(i)] must be a string.")
            }
            out.append(s)
        }
        return out
    }
}
