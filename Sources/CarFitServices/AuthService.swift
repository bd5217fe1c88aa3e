import CarFitCore
import CarFitNet

/// The planner's credentials: `auth.set` and `auth.status`. The token lives in `PlannerAuth`,
/// in memory only: nothing here writes it anywhere.
public struct AuthService {
    public let auth: PlannerAuth

    public init(auth: PlannerAuth) {
        self.auth = auth
    }

    /// `{"token": "...", "scheme": "Bearer"}` sets the credentials, `{"token": null}` clears
    /// them; `{"auth": status}`. An invalid request (`AuthCredentials.read`) changes nothing.
    public func set(_ request: Fields) throws(CarFitError) -> JSON {
        let credentials = try AuthCredentials.read(request)
        auth.set(credentials)
        return status()
    }

    /// `{"auth": {"token", "scheme", "required", "requiredAt", "source"}}`.
    public func status() -> JSON {
        .obj(["auth": auth.status.json])
    }
}
