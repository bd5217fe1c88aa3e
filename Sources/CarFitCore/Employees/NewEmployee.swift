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
