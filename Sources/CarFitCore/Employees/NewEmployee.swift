/// A validated `employees.create` request: everything but the id the database assigns.
public struct NewEmployee: Sendable, Equatable {
    public var pin: String
    public var firstName: String
    public var lastName: String
    public var email: String?
    public var hiredOn: CivilDate

    public init(pin: String, firstName: String, lastName: String, email: String?, hiredOn: CivilDate) {
        self.pin = pin
        self.firstName = firstName
        self.lastName = lastName
        self.email = email
        self.hiredOn = hiredOn
    }

    /// The key under which last names must be unique (case-insensitive).
    public var lastNameKey: String { PersonName.uniquenessKey(lastName) }
}
