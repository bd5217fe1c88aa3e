import CarFitCore
import CarFitHTTP
import CarFitSystem

/// The planner's credentials, held in memory only (never stored, logged or shown in an error or
/// event), and the one rule for which requests carry them: a request to a configured source
/// whose URL is on one of `origins` gets `Authorization: <scheme> <token>` while a token is set;
/// no other request does (images never ask for it). libcurl drops the header when a redirect
/// leaves the request's origin (another scheme, host or port).
///
/// Also what a 401 or 403 answer from a source changes: `required` (the first refusal since
/// the token was set, or since opening, with its time and source) and, for a push, the stop on
/// `ifDue` pushes until a new token comes.
///
/// Thread-safe: its state is behind one lock.
public final class PlannerAuth: @unchecked Sendable {
    /// What `auth.status` answers.
    public struct Status: Sendable, Equatable {
        public var token: Bool
        public var scheme: String?
        public var required: Bool
        public var requiredAt: Instant?
        public var source: String?

        public init(token: Bool, scheme: String?, required: Bool, requiredAt: Instant?, source: String?) {
            self.token = token
            self.scheme = scheme
            self.required = required
            self.requiredAt = requiredAt
            self.source = source
        }
    }

    private struct State {
        var credentials: AuthCredentials?
        var requiredAt: Instant?
        var requiredSource: String?
        /// A push was refused (401/403) since a token was last set: `ifDue` pushes wait.
        var pushRefused = false
        /// A token was set since the last push: the next one tries whatever the backoff.
        var pushNow = false
    }

    /// The origins whose source requests carry the token.
    public let origins: Set<Origin>
    private let clock: Clock?
    private let lock = Lock()
    private var state = State()
    private var handler: (@Sendable (_ source: String, _ httpStatus: Int) -> Void)?

    /// - Parameters:
    ///   - origins: who receives the token.
    ///   - clock: the core's clock, for `requiredAt` (the epoch when nil).
    public init(origins: [Origin] = [], clock: Clock? = nil) {
        self.origins = Set(origins)
        self.clock = clock
    }

    /// The origins the config names; without any, those of the `visits` and `visitUpdates`
    /// source URLs (a URL libcurl cannot parse adds none).
    public static func origins(configured: [Origin]?, visits: String?, visitUpdates: String?) -> [Origin] {
        configured ?? [visits, visitUpdates].compactMap { $0.flatMap { Origin(url: $0) } }
    }

    /// Runs `handler` (source, HTTP status) for the first 401 or 403 after each `set` (and after
    /// opening), outside this object's lock.
    public func onRequired(_ handler: @escaping @Sendable (_ source: String, _ httpStatus: Int) -> Void) {
        withLock { self.handler = handler }
    }

    /// Sets the credentials, or clears them (nil). Either way a new 401/403 is reported again
    /// (`required` is forgotten). A token (not a clear) also lifts the stop on `ifDue` pushes
    /// and makes the next push try at once, `ifDue` or not.
    public func set(_ credentials: AuthCredentials?) {
        withLock {
            state.credentials = credentials
            state.requiredAt = nil
            state.requiredSource = nil
            if credentials != nil {
                state.pushRefused = false
                state.pushNow = true
            }
        }
    }

    public var status: Status {
        withLock {
            Status(token: state.credentials != nil, scheme: state.credentials?.scheme, required: state.requiredAt != nil,
                   requiredAt: state.requiredAt, source: state.requiredSource)
        }
    }

    /// `request` as it goes to a source: with `Authorization` when a token is set and the URL's
    /// origin is one of `origins`; any `Authorization` it carried otherwise is removed.
    public func authorized(_ request: HTTPRequest) -> HTTPRequest {
        var sent = request
        sent.headers.removeAll { $0.matches("Authorization") }
        if let header = header(for: request.url) { sent.headers.append(header) }
        return sent
    }

    /// The `Authorization` header a source request to `url` carries, nil for none.
    func header(for url: String) -> HTTPHeader? {
        guard let credentials = withLock({ state.credentials }), !origins.isEmpty,
              let origin = Origin(url: url), origins.contains(origin) else { return nil }
        return HTTPHeader("Authorization", "\(credentials.scheme) \(credentials.token)")
    }

    /// Records a 401 or 403 answer of `source`: the first since the last `set` (or opening)
    /// sets `required` and runs the `onRequired` handler.
    public func refused(source: String, httpStatus: Int) {
        let now = clock?.now ?? Instant(milliseconds: 0)
        let handler = withLock { () -> (@Sendable (String, Int) -> Void)? in
            guard state.requiredAt == nil else { return nil }
            state.requiredAt = now
            state.requiredSource = source
            return self.handler
        }
        handler?(source, httpStatus)
    }

    /// Whether a push was refused since a token was last set (`ifDue` pushes then do nothing).
    public var pushRefused: Bool { withLock { state.pushRefused } }

    /// A push was answered 401 or 403.
    public func pushWasRefused() {
        withLock { state.pushRefused = true }
    }

    /// Whether a token was set since the last push asked (that push is then due at once,
    /// whatever the backoff); asking clears it.
    public func takePushNow() -> Bool {
        withLock {
            defer { state.pushNow = false }
            return state.pushNow
        }
    }

    private func withLock<T>(_ body: () -> T) -> T {
        lock.lock()
        defer { lock.unlock() }
        return body()
    }
}
