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

    /// The URL configured for source `name`; none is `invalid`, field `sources.<name>`, checked
    /// before anything else of a refresh (no attempt, nothing recorded).
    public static func configured(_ name: String, _ url: String?) throws(CarFitError) -> String {
        guard let url else {
            throw .invalid("sources.\(name)", "No \(name) source is configured: set sources.\(name) when opening the core.")
        }
        return url
    }

    /// Runs one refresh of source `name` at `url`: with `maxAge` (seconds) and a last success
    /// younger than that, `.fresh` without a request; otherwise `attempt` fetches and stores,
    /// given the stored validators (none when `conditional` is false or they belong to another
    /// URL) and the record of its success, which it runs in the transaction that stores the
    /// document. A 304 is recorded here. A failure is recorded too (whatever failed: the
    /// network, the document, the storage; see `isAttemptFailure`) before it is thrown on.
    public func refresh<Imported>(_ name: String, url: String, maxAge: Int64?, conditional: Bool, lock: some Serializer,
                                  _ attempt: (String, SourceValidators, RefreshCommit) throws(CarFitError) -> RefreshOutcome<Imported>)
        throws(CarFitError) -> RefreshOutcome<Imported> {
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
    private func attempted<Imported>(_ name: String, url: String, maxAge: Int64?, conditional: Bool, lock: some Serializer,
                                     _ attempt: (String, SourceValidators, RefreshCommit) throws(CarFitError) -> RefreshOutcome<Imported>)
        throws(CarFitError) -> RefreshOutcome<Imported> {
        let store = sources
        let clock = clock
        let state = try lock.locked { () throws(CarFitError) in try store.state(name) }
        if let maxAge, let last = state?.lastSuccess {
            let age = clock.now.milliseconds.subtractingReportingOverflow(last.milliseconds)
            if !age.overflow, age.partialValue >= 0, age.partialValue < maxAge * 1000 {
                return .fresh
            }
        }
        var validators = SourceValidators()
        if conditional, let state, state.validatorsURL == url {
            validators = SourceValidators(etag: state.etag, lastModified: state.lastModified)
        }
        var recorded = false
        let outcome = try attempt(url, validators) { etag, lastModified throws(CarFitError) in
            try store.recordSuccess(name, at: clock.now, notModified: false,
                                    validators: conditional ? (url, etag, lastModified) : nil)
            recorded = true
        }
        switch outcome {
        case .fresh, .notModified:
            let at = clock.now
            try lock.locked { () throws(CarFitError) in
                try store.recordSuccess(name, at: at, notModified: true, validators: nil)
            }
        case .stored:
            // Every area records its success in its import's transaction; one that did not
            // still gets its record, without validators.
            guard !recorded else { break }
            let at = clock.now
            try lock.locked { () throws(CarFitError) in
                try store.recordSuccess(name, at: at, notModified: false, validators: nil)
            }
        }
        return outcome
    }

    /// After a host import of `name`'s area: its validators no longer describe what is
    /// stored, so the next refresh asks unconditionally.
    public func imported(_ name: String) throws(CarFitError) {
        try sources.dropValidators(name)
    }

    /// Each configured source but visitUpdates, in `configured` order, with its URL and stored
    /// state (an empty one before its first attempt).
    public func states() throws(CarFitError) -> [(name: String, url: String, state: SourceStore.State)] {
        var states: [(name: String, url: String, state: SourceStore.State)] = []
        for (name, url) in configured { states.append((name, url, try sources.state(name) ?? SourceStore.State())) }
        return states
    }

    /// Whether the latest network failure of any source came after every success since.
    public func offline() throws(CarFitError) -> Bool {
        try sources.offline()
    }

    /// The stored form of a failed attempt: its cause's reason (else its status's name),
    /// message and HTTP status, and whether the connection itself failed.
    static func failure(_ error: CarFitError) -> SourceStore.Failure {
        SourceStore.Failure(reason: error.cause?.reason ?? error.status.name, message: error.message,
                            httpStatus: error.cause?.httpStatus.map { Int64($0) }, isNetwork: error.cause?.isNetwork ?? false)
    }
}
