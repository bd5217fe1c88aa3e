/// Which uniqueness rule a new employee would break, checked in this order: the PIN, the last
/// name (case-insensitive), the email (case-insensitive).
public enum EmployeeConflict: Error, Sendable, Equatable {
    case pin
    case lastName(String)
    case email(String)
}
