import CarFitCore
import CarFitIO
import CarFitNet
import CarFitServices

/// The planner's credentials: `auth.set` and `auth.status`. Error messages never repeat the token.
public enum AuthAPI {
    public static func set(_ service: AuthService, _ request: Fields) throws(CarFitError) -> JSON {
        AuthAnswer(status: service.set(try AuthSet(request).credentials)).json
    }

    public static func status(_ service: AuthService) -> JSON {
        AuthAnswer(status: service.status()).json
    }
}

/// `auth.set`: `{"token": "..." or null, "scheme"?}`. An invalid request changes nothing.
public struct AuthSet: APIRequest {
    public var credentials: AuthCredentials?

    /// Reads `{"token": "...", "scheme": "Bearer"}`: the credentials, or none for
    /// `{"token": null}` (the host clears them). A missing token (absent, not null), one of
    /// another type or out of the rules is `invalid`, field `token`; a bad scheme, field `scheme`.
    public init(_ f: Fields) throws(CarFitError) {
        guard let raw = f.object["token"] else {
            throw .invalid(f.path("token"), "token is required: a string of 1 to \(AuthCredentials.maxTokenBytes) printable ASCII characters, or null to clear it.")
        }
        var scheme = AuthCredentials.defaultScheme
        if let given = f.object["scheme"], !given.isNull {
            guard case .string(let text) = given, AuthCredentials.isScheme(text) else {
                throw .invalid(f.path("scheme"), "scheme must be an HTTP authentication scheme such as \"Bearer\": 1 to \(AuthCredentials.maxSchemeBytes) letters, digits or !#$%&'*+-.^_`|~.")
            }
            scheme = text
        }
        if raw.isNull {
            credentials = nil
            return
        }
        guard case .string(let token) = raw else {
            throw .invalid(f.path("token"), "token must be a string (or null to clear it).")
        }
        guard AuthCredentials.isToken(token) else {
            throw .invalid(f.path("token"), "token must be 1 to \(AuthCredentials.maxTokenBytes) printable ASCII characters, without blanks, control characters or line breaks.")
        }
        credentials = AuthCredentials(token: token, scheme: scheme)
    }
}

/// `{"auth": {"token", "scheme", "required", "requiredAt", "source"}}`.
public struct AuthAnswer: APIResponse {
    public var status: PlannerAuth.Status
    public init(status: PlannerAuth.Status) { self.status = status }
    public var json: JSON {
        .obj(["auth": .obj(["token": .bool(status.token), "scheme": status.scheme.map(JSON.string) ?? .null,
                            "required": .bool(status.required), "requiredAt": status.requiredAt.map { .string($0.iso) } ?? .null,
                            "source": status.source.map(JSON.string) ?? .null])])
    }
}

/// The entry points of the operation table (`Manifest.operations`), one per operation, named
/// after its verb: each picks from the core what the function above needs.
extension AuthAPI {
    public static func set(_ context: some OperationContext, _ request: Fields) throws(CarFitError) -> JSON {
        try set(context.auth, request)
    }
    public static func status(_ context: some OperationContext, _ request: Fields) throws(CarFitError) -> JSON {
        status(context.auth)
    }
}
