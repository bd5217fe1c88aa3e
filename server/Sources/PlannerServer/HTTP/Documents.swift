/// Reading a request's JSON members with the right type, or a 400 naming the member.
struct Members {
    let object: [String: JSON]
    /// How a member is named in messages (`mutations[3].state`).
    let path: String

    init(_ value: JSON, path: String = "") throws(APIError) {
        guard case .object(let object) = value else {
            throw .badRequest("\(path.isEmpty ? "The body" : path) must be a JSON object.", field: path.isEmpty ? nil : path)
        }
        self.object = object
        self.path = path
    }

    func name(_ key: String) -> String { path.isEmpty ? key : "\(path).\(key)" }

    func string(_ key: String, max: Int = 200) throws(APIError) -> String {
        guard case .string(let s)? = object[key], !s.isEmpty, s.count <= max else {
            throw .badRequest("\(name(key)) must be a text of 1 to \(max) characters.", field: name(key))
        }
        return s
    }

    func optionalString(_ key: String, max: Int = 10_000) throws(APIError) -> String? {
        switch object[key] {
        case nil, .null?: return nil
        case .string(let s)? where s.count <= max: return s
        default: throw .badRequest("\(name(key)) must be a text of at most \(max) characters, or null.", field: name(key))
        }
    }

    func instant(_ key: String) throws(APIError) -> Int64 {
        guard case .string(let s)? = object[key], let ms = Instant.parse(s) else {
            throw .badRequest("\(name(key)) must be an ISO 8601 date and time.", field: name(key))
        }
        return ms
    }

    func number(_ key: String, in range: ClosedRange<Double>) throws(APIError) -> Double {
        guard let d = object[key]?.numberValue, d.isFinite, range.contains(d) else {
            throw .badRequest("\(name(key)) must be a number from \(range.lowerBound) to \(range.upperBound).", field: name(key))
        }
        return d
    }

    func optionalInt(_ key: String, in range: ClosedRange<Int64>) throws(APIError) -> Int64? {
        switch object[key] {
        case nil, .null?: return nil
        case let value?:
            guard case .int(let i) = value, range.contains(i) else {
                throw .badRequest("\(name(key)) must be a whole number from \(range.lowerBound) to \(range.upperBound), or null.", field: name(key))
            }
            return i
        }
    }

    func array(_ key: String, max: Int) throws(APIError) -> [JSON] {
        guard case .array(let items)? = object[key] else {
            throw .badRequest("\(name(key)) must be an array.", field: name(key))
        }
        guard items.count <= max else {
            throw .badRequest("\(name(key)) holds \(items.count) items; at most \(max) are taken in one request.", field: name(key))
        }
        return items
    }
}
