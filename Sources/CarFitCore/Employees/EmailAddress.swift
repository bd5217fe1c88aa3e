/// E-mail addresses of the shape `local@domain.tld`, ASCII, stored lower-case.
public enum EmailAddress {
    public static let maxLength = 254
    private static let localCharacters = Set("!#$%&'*+/=?^_`{|}~-.abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789".utf8)
    private static let domainCharacters = Set("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-".utf8)

    /// The trimmed, lower-cased address, or nil when `text` does not have the shape.
    public static func normalized(_ text: String) -> String? {
        let s = text.trimmed
        let u = Array(s.utf8)
        guard !u.isEmpty, u.count <= maxLength else { return nil }
        let parts = u.split(separator: UInt8(ascii: "@"), omittingEmptySubsequences: false)
        guard parts.count == 2, let local = parts.first, let domain = parts.last else { return nil }
        // Local part: 1–64 allowed characters, no leading, trailing or doubled dot.
        guard !local.isEmpty, local.count <= 64, local.allSatisfy({ localCharacters.contains($0) }),
              local.first != UInt8(ascii: "."), local.last != UInt8(ascii: "."),
              !hasDoubleDot(Array(local)) else { return nil }
        // Domain: two or more labels of letters, digits and inner hyphens; the last is letters.
        let labels = domain.split(separator: UInt8(ascii: "."), omittingEmptySubsequences: false)
        guard labels.count >= 2 else { return nil }
        for label in labels {
            guard !label.isEmpty, label.count <= 63, label.allSatisfy({ domainCharacters.contains($0) }),
                  label.first != UInt8(ascii: "-"), label.last != UInt8(ascii: "-") else { return nil }
        }
        guard let tld = labels.last, tld.count >= 2,
              tld.allSatisfy({ ($0 >= 65 && $0 <= 90) || ($0 >= 97 && $0 <= 122) }) else { return nil }
        return s.lowercased()
    }

    private static func hasDoubleDot(_ u: [UInt8]) -> Bool {
        zip(u, u.dropFirst()).contains { $0 == UInt8(ascii: ".") && $1 == UInt8(ascii: ".") }
    }

    /// The address `text` names, normalized; not of the shape is `invalid`, naming `path`.
    public static func validate(_ text: String, path: String) throws(CarFitError) -> String {
        guard let address = normalized(text) else {
            throw .invalid(path, "\(path) must be an e-mail address such as name@example.com.")
        }
        return address
    }
}
