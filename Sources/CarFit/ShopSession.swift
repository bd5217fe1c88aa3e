/// Which employee is logged in on one core. Held in memory (per core, not in the database);
/// the core's lock serialises access.
final class ShopSession: @unchecked Sendable {
    var employeeId: Int64?
}
