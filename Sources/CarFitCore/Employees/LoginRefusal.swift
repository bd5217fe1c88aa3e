/// Why a login was refused, in the order the rules are checked: a lock in force (the PIN was
/// not looked at), a malformed PIN, a wrong PIN that started a lock, a wrong PIN with `left`
/// more failures before one.
public enum LoginRefusal: Error, Sendable, Equatable {
    case locked(until: Instant)
    case malformed(CarFitError)
    case lockedNow(until: Instant)
    case wrongPIN(left: Int)
}
