import Foundation

/// A member of the wine club's staff, as stored.
public struct Employee: Sendable, Equatable {
    public var id: Int64
    public var pin: String
    public var firstName: String
    public var lastName: String
    /// Lower-case, or nil when the employee gave none.
    public var email: String?
    public var hiredOn: CivilDate

    public init(id: Int64, pin: String, firstName: String, lastName: String, email: String?, hiredOn: CivilDate) {
        self.id = id
        self.pin = pin
        self.firstName = firstName
        self.lastName = lastName
        self.email = email
        self.hiredOn = hiredOn
    }

    /// `{"id", "pin", "firstName", "lastName", "email", "hiredOn"}`
    public var json: JSON {
        .obj([
            "id": .int(id),
            "pin": .string(pin),
            "firstName": .string(firstName),
            "lastName": .string(lastName),
            "email": .str(email),
            "hiredOn": .string(hiredOn.description),
        ])
    }

    /// The list's order: last name, then first name, ignoring case and accents; then id.
    public static func listOrder(_ a: Employee, _ b: Employee) -> Bool {
        let (la, lb) = (SortKey.fold(a.lastName), SortKey.fold(b.lastName))
        if la != lb { return la < lb }
        let (fa, fb) = (SortKey.fold(a.firstName), SortKey.fold(b.firstName))
        if fa != fb { return fa < fb }
        return a.id < b.id
    }
}

/// A validated `employees.create` request: everything but the id the database assigns.
public struct NewEmployee: Sendable, Equatable {
    public var pin: String
    public var firstName: String
    public var lastName: String
    public var email: String?
    public var hiredOn: CivilDate

    /// Validates every member; the first offending one is named in the error.
    public init(request f: Fields, today: CivilDate) throws(CarFitError) {
        pin = try PIN.read(f, "pin")
        firstName = try PersonName.read(f, "firstName")
        lastName = try PersonName.read(f, "lastName")
        email = try EmailAddress.readOptional(f, "email")
        if let text = try f.string("hiredOn") {
            guard let date = CivilDate(iso: text) else {
                throw .invalid(f.path("hiredOn"), "hiredOn \"\(text.prefix(40))\" is not a valid date (YYYY-MM-DD, years 1 to 9999).")
            }
            hiredOn = date
        } else {
            hiredOn = today
        }
    }

    /// The key under which last names must be unique (case-insensitive).
    public var lastNameKey: String { PersonName.uniquenessKey(lastName) }
}

/// PINs: 4 to 12 ASCII digits, given as a string.
public enum PIN {
    public static let lengths = 4...12

    public static func isValid(_ text: String) -> Bool {
        let bytes = text.utf8
        return lengths.contains(bytes.count) && bytes.allSatisfy { $0 >= 48 && $0 <= 57 }
    }

    /// The member `key` as a PIN; missing, not a string, or not 4–12 digits is `invalid`.
    public static func read(_ f: Fields, _ key: String) throws(CarFitError) -> String {
        let path = f.path(key)
        guard let value = f.value(key) else { throw .invalid(path, "\(path) is required: 4 to 12 digits.") }
        guard case .string(let text) = value else {
            throw .invalid(path, "\(path) must be a string of 4 to 12 digits (write it in quotes).")
        }
        guard isValid(text) else { throw .invalid(path, "\(path) must be 4 to 12 digits (0-9).") }
        return text
    }
}

/// First and last names: required, trimmed, non-empty.
public enum PersonName {
    public static let maxLength = 100

    public static func read(_ f: Fields, _ key: String) throws(CarFitError) -> String {
        let path = f.path(key)
        guard let raw = try f.string(key) else { throw .invalid(path, "\(path) is required.") }
        let name = raw.trimmed
        guard !name.isEmpty else { throw .invalid(path, "\(path) must not be blank.") }
        guard name.count <= maxLength else { throw .invalid(path, "\(path) must be at most \(maxLength) characters.") }
        guard !name.unicodeScalars.contains(where: { $0.properties.generalCategory == .control }) else {
            throw .invalid(path, "\(path) must not contain control characters.")
        }
        return name
    }

    /// Lower-cased for the case-insensitive uniqueness of last names.
    public static func uniquenessKey(_ name: String) -> String { name.lowercased() }
}

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

    /// An optional address: absent, null or blank means none; otherwise it must have the shape.
    public static func readOptional(_ f: Fields, _ key: String) throws(CarFitError) -> String? {
        guard let text = try f.string(key), !text.trimmed.isEmpty else { return nil }
        return try validate(text, path: f.path(key))
    }

    /// A required address (blank is `invalid`).
    public static func readRequired(_ f: Fields, _ key: String) throws(CarFitError) -> String {
        let path = f.path(key)
        guard let text = try f.string(key), !text.trimmed.isEmpty else { throw .invalid(path, "\(path) is required.") }
        return try validate(text, path: path)
    }

    static func validate(_ text: String, path: String) throws(CarFitError) -> String {
        guard let address = normalized(text) else {
            throw .invalid(path, "\(path) must be an e-mail address such as name@example.com.")
        }
        return address
    }
}

/// Text compared the way people expect in a list: case and accents ignored ("Étienne" among
/// the E's, "Ålborg" among the A's).
public enum SortKey {
    public static func fold(_ text: String) -> String {
        text.folding(options: [.caseInsensitive, .diacriticInsensitive], locale: nil)
    }

    /// Folded order, then the exact text, so the order is total and stable across runs.
    public static func less(_ a: String, _ b: String) -> Bool {
        let (fa, fb) = (fold(a), fold(b))
        if fa != fb { return fa < fb }
        return a < b
    }
}

/// The lock-out rule of the login screen. After `maxFailures` wrong PINs in a row, every login
/// is refused for `lockMilliseconds` of the core's clock; refusals during a lock neither count
/// nor extend it; a successful login clears the count. Lives in the database.
public struct LoginGuard: Sendable, Equatable {
    public static let maxFailures = 5
    public static let lockMilliseconds: Int64 = 30_000

    /// Wrong PINs in a row since the last success or the last lock.
    public var failures: Int
    /// The end of the current (or last) lock, exclusive.
    public var lockedUntil: Instant?

    public init(failures: Int = 0, lockedUntil: Instant? = nil) {
        self.failures = failures
        self.lockedUntil = lockedUntil
    }

    public func isLocked(at now: Instant) -> Bool {
        guard let lockedUntil else { return false }
        return now < lockedUntil
    }

    /// Counts a wrong PIN; returns true when this failure starts a lock (the count then restarts).
    public mutating func recordFailure(at now: Instant) -> Bool {
        failures = min(max(failures, 0), LoginGuard.maxFailures - 1) + 1
        guard failures >= LoginGuard.maxFailures else { return false }
        failures = 0
        let (end, overflow) = now.milliseconds.addingReportingOverflow(LoginGuard.lockMilliseconds)
        lockedUntil = Instant(milliseconds: overflow ? Int64.max : end)
        return true
    }

    public mutating func recordSuccess() {
        failures = 0
        lockedUntil = nil
    }

    /// The end of a lock as the message and the error document give it: rounded up to the
    /// whole second, so a retry at that instant is never refused.
    public static func displayed(_ until: Instant) -> Instant {
        let ms = until.milliseconds
        let rem = ms % 1000
        guard rem != 0 else { return until }
        let (up, overflow) = (ms - rem).addingReportingOverflow(rem > 0 ? 1000 : 0)
        return overflow ? until : Instant(milliseconds: up)
    }

    public static func lockedError(until: Instant, justLocked: Bool) -> CarFitError {
        let shown = displayed(until)
        let message = justLocked
            ? "Wrong PIN; after \(maxFailures) failed attempts logins are locked until \(shown.iso)."
            : "Too many failed attempts: logins are locked until \(shown.iso)."
        return CarFitError(.unauthorized, message, field: justLocked ? "pin" : nil,
                           extra: JSONObject(["lockedUntil": .string(shown.iso)]))
    }
}
