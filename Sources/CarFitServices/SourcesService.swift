import CarFitCore
import CarFitStore

/// The sources use-cases: every refresh's bookkeeping (the `maxAgeSeconds` shortcut, the
/// validators of conditional requests, the status of each attempt) and `sources.status`.
/// The fetching and importing of each source stays with its area's service.
public struct SourcesService {
    public let sources: SourceStore
    public let clock: Clock
    public let config: CoreConfig.Sources

    public init(sources: SourceStore, clock: Clock, config: CoreConfig.Sources) {
        self.sources = sources
        self.clock = clock
        self.config = config
    }

    /// The sources `sources.status` reports, in this order, with their configured URLs.
    var configured: [(String, String)] {
        [("visits", config.visits), ("articles", config.articles), ("catalog", config.catalog),
         ("patterns", config.patterns)].compactMap { name, url in url.map { (name, $0) } }
    }

    /// Runs one refresh of source `name` at `url`: with `maxAgeSeconds` in the request and a
    /// last success younger than that, answers `{"imported": 0, "fresh": true}` without a
    /// request; otherwise `attempt` fetches and stores, given the stored validators (none when
    /// `conditional` is false or they belong to another URL). Every attempt's outcome is
    /// recorded, a failure too (whatever failed: the network, the document, the storage; see
    /// `isAttemptFailure`), before the failure is thrown on. A 304 answers
    /// `{"imported": 0, "notModified": true}`.
    /// No URL configured is `invalid`, field `sources.<name>`, and no attempt.
    public func refresh(_ name: String, url: String?, request: Fields, conditional: Bool, lock: some Serializer,
                        _ attempt: (String, SourceValidators) throws(CarFitError) -> RefreshOutcome) throws(CarFitError) -> JSON {
        guard let url else {
            throw .invalid("sources.\(name)", "No \(name) source is configured: set sources.\(name) when opening the core.")
        }
        let maxAge = try request.int("maxAgeSeconds", in: 0...(Int64.max / 1000))
        let store = sources
        do throws(CarFitError) {
            return try attempted(name, url: url, maxAge: maxAge, conditional: conditional, lock: lock, attempt)
        } catch {
            if SourcesService.isAttemptFailure(error) {
                let failure = SourcesService.failure(error)
                let at = clock.now
                try? lock.locked { () throws(CarFitError) in try store.recordFailure(name, at: at, failure) }
            }
            throw error
        }
    }

    /// Whether a refresh that threw `error` counts as a failed attempt, recorded for
    /// `sources.status` and published as a `failed` source event: every failure but a request
    /// refused before asking the network (`invalid`, `misuse`).
    public static func isAttemptFailure(_ error: CarFitError) -> Bool {
        error.status != .invalid && error.status != .misuse
    }

    /// `refresh` past its checks: the shortcut, the attempt and the record of its success.
    private func attempted(_ name: String, url: String, maxAge: Int64?, conditional: Bool, lock: some Serializer,
                           _ attempt: (String, SourceValidators) throws(CarFitError) -> RefreshOutcome) throws(CarFitError) -> JSON {
        let store = sources
        let state = try lock.locked { () throws(CarFitError) in try store.state(name) }
        if let maxAge, let last = state?.lastSuccess {
            let age = clock.now.milliseconds.subtractingReportingOverflow(last.milliseconds)
            if !age.overflow, age.partialValue >= 0, age.partialValue < maxAge * 1000 {
                return .obj(["imported": 0, "fresh": true])
            }
        }
        var validators = SourceValidators()
        if conditional, let state, state.validatorsURL == url {
            validators = SourceValidators(etag: state.etag, lastModified: state.lastModified)
        }
        let outcome = try attempt(url, validators)
        let at = clock.now
        switch outcome {
        case .notModified:
            try lock.locked { () throws(CarFitError) in
                try store.recordSuccess(name, at: at, notModified: true, validators: nil)
            }
            return .obj(["imported": 0, "notModified": true])
        case .stored(let response, let etag, let lastModified):
            try lock.locked { () throws(CarFitError) in
                try store.recordSuccess(name, at: at, notModified: false,
                                        validators: conditional ? (url, etag, lastModified) : nil)
            }
            return response
        }
    }

    /// After a host import of `name`'s area: its validators no longer describe what is
    /// stored, so the next refresh asks unconditionally.
    public func imported(_ name: String) throws(CarFitError) {
        try sources.dropValidators(name)
    }

    /// `{"offline", "sources": {name: {"url", "lastAttemptAt", "lastSuccessAt", "lastError",
    /// "consecutiveFailures", "notModified"}}}` for each configured source but visitUpdates.
    public func status() throws(CarFitError) -> JSON {
        var members = JSONObject()
        for (name, url) in configured {
            let state = try sources.state(name) ?? SourceStore.State()
            var lastError = JSON.null
            if let reason = state.errorReason {
                lastError = .obj([
                    "reason": .string(reason),
                    "message": .str(state.errorMessage),
                    "at": .str(state.errorAt?.iso),
                    "httpStatus": state.errorStatus.map { .int($0) } ?? .null,
                ])
            }
            members[name] = .obj([
                "url": .string(url),
                "lastAttemptAt": .str(state.lastAttempt?.iso),
                "lastSuccessAt": .str(state.lastSuccess?.iso),
                "lastError": lastError,
                "consecutiveFailures": .int(state.consecutiveFailures),
                "notModified": .bool(state.notModified),
            ])
        }
        return .obj(["offline": .bool(try sources.offline()), "sources": .object(members)])
    }

    /// The stored form of a failed attempt: its reason (the error document's, else its
    /// status's name), message and HTTP status.
    static func failure(_ error: CarFitError) -> SourceStore.Failure {
        var reason = error.status.name
        if case .string(let r)? = error.extra["reason"] { reason = r }
        var status: Int64?
        if case .int(let s)? = error.extra["httpStatus"] { status = s }
        let network = ["refused", "timeout", "dns", "network"].contains(reason)
        return SourceStore.Failure(reason: reason, message: error.message, httpStatus: status, isNetwork: network)
    }
}
