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
