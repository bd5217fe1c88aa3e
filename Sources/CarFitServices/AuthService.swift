import CarFitCore
import CarFitNet

/// The planner's credentials: `auth.set` and `auth.status`. The token lives in `PlannerAuth`,
/// in memory only: nothing here writes it anywhere.
public struct AuthService {
    public let auth: PlannerAuth

    public init(auth: PlannerAuth) {
        self.auth = auth
    }

    /// Sets the credentials (nil clears them); answers the status after.
    public func set(_ credentials: AuthCredentials?) -> PlannerAuth.Status {
        auth.set(credentials)
        return status()
    }

    /// Whether a token is set and under which scheme, and whether the planner asked for one.
    public func status() -> PlannerAuth.Status {
        auth.status
    }
}
