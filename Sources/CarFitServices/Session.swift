/// Which employee is logged in on one core. Held in memory (per core, not in the database);
/// the core's lock serialises access.
public final class Session: @unchecked Sendable {
    public var employeeId: Int64?

    public init() {}
}
