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

    /// The list's order: last name, then first name, ignoring case and accents (`SortKey`: by
    /// key, then by code points); then id.
    public static func listOrder(_ a: Employee, _ b: Employee) -> Bool {
        let byLast = SortKey.compare(a.lastName, b.lastName)
        if byLast != 0 { return byLast < 0 }
        let byFirst = SortKey.compare(a.firstName, b.firstName)
        if byFirst != 0 { return byFirst < 0 }
        return a.id < b.id
    }

    /// The list's order in a locale: last name, then first name, each by the locale's
    /// `collator`; the employees it ranks equal in `listOrder`.
    public static func sorted(_ employees: [Employee], collator: NameCollator?) -> [Int] {
        guard let collator else {
            return NameCollator.sortedPositions(employees.count) { listOrder(employees[$0], employees[$1]) }
        }
        let keys = employees.map { (last: collator.key($0.lastName), first: collator.key($0.firstName)) }
        return NameCollator.sortedPositions(employees.count) { i, j in
            var order = NameCollator.compare(keys[i].last, keys[j].last)
            if order == 0 { order = NameCollator.compare(keys[i].first, keys[j].first) }
            return order != 0 ? order < 0 : listOrder(employees[i], employees[j])
        }
    }
}
