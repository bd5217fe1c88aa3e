import CarFitCore
import CarFitNet
import CarFitSystem

/// An area whose source is one document, downloaded (conditionally) and imported by its
/// `refresh(url:http:validators:lock:progress:commit:)`.
public protocol DocumentRefresh {
    associatedtype Answer
    func refresh(url: String, http: HTTPClient, validators: SourceValidators, lock: some Serializer,
                 progress: ProgressReporter?, commit: RefreshCommit) throws(CarFitError) -> RefreshOutcome<Answer>
}

extension VisitsService: DocumentRefresh {}
extension ArticlesService: DocumentRefresh {}
extension CatalogService: DocumentRefresh {}

/// The refreshes of a core's sources: each run is the sources' bookkeeping
/// (`SourcesService.refresh`: the last success's age, the validators, the record of a success
/// or a failure) around the area's download and import, its progress and its outcome reported
/// on the change feed. `lock` is the core's, which the refresh takes around its database work
/// only (never while it waits for the network).
public struct RefreshService<Lock: Serializer> {
    public let sources: SourcesService
    public let events: EventHub
    public let http: HTTPClient
    public let lock: Lock

    public init(sources: SourcesService, events: EventHub, http: HTTPClient, lock: Lock) {
        self.sources = sources
        self.events = events
        self.http = http
        self.lock = lock
    }

    /// The refresh of a source that is one document (visits, articles, catalog) from `url`:
    /// a conditional request, the area's download and import of it.
    public func document<Area: DocumentRefresh>(_ name: String, url: String, maxAge: Int64?,
                                                area: Area) throws(CarFitError) -> RefreshOutcome<Area.Answer> {
        let (http, lock) = (http, lock)
        return try run(name, url: url, maxAge: maxAge, conditional: true) {
            url, validators, progress, commit throws(CarFitError) in
            try area.refresh(url: url, http: http, validators: validators, lock: lock, progress: progress, commit: commit)
        }
    }

    /// The patterns' refresh from `url`: `count` requests, `concurrency` at once
    /// (`ImagesService.refresh`), never conditional.
    public func patterns(url: String, maxAge: Int64?, count: Int, concurrency: Int,
                         images: ImagesService) throws(CarFitError) -> RefreshOutcome<ImagesService.PatternsRefreshed> {
        let (http, lock) = (http, lock)
        return try run("patterns", url: url, maxAge: maxAge, conditional: false) {
            url, _, _, commit throws(CarFitError) in
            try images.refresh(count: count, url: url, http: http, concurrency: concurrency, lock: lock, commit: commit)
        }
    }

    /// The visits refresh a push runs (`sources.visits`, `configured`): a conditional request
    /// whatever the last success's age; the changes it stored (none for a 304). No configured
    /// URL is `invalid`.
    public func visitsForPush(_ visits: VisitsService, configured: String?) throws(CarFitError) -> [VisitChange] {
        let url = try SourcesService.configured("visits", configured)
        switch try document("visits", url: url, maxAge: nil, area: visits) {
        case .fresh, .notModified: return []
        case .stored(let summary): return summary.changes ?? []
        }
    }

    /// One refresh of source `name` from `url`: the sources' bookkeeping (`SourcesService.refresh`,
    /// which takes the lock itself) around `attempt`, which gets the validators to send, the
    /// reporter of "<name>.refresh"'s progress (`downloading`) and the record of its success to
    /// run in its import's transaction. Publishes the attempt's `source` event from its outcome:
    /// `ok`, `not_modified`, or `failed` when it throws; none when it made no request (`fresh`,
    /// or a request refused as `invalid` or `misuse` before asking the network).
    public func run<Imported>(_ name: String, url: String, maxAge: Int64?, conditional: Bool,
                              _ attempt: (String, SourceValidators, ProgressReporter, RefreshCommit) throws(CarFitError)
                                  -> RefreshOutcome<Imported>) throws(CarFitError) -> RefreshOutcome<Imported> {
        let outcome: RefreshOutcome<Imported>
        do throws(CarFitError) {
            outcome = try sources.refresh(name, url: url, maxAge: maxAge, conditional: conditional, lock: lock) {
                url, validators, commit throws(CarFitError) in
                try withoutActuallyEscaping(commit) { (commit) throws(CarFitError) in
                    try downloading("\(name).refresh") { progress throws(CarFitError) in try attempt(url, validators, progress, commit) }
                }
            }
        } catch {
            if SourcesService.isAttemptFailure(error) { events.publish(.source(source: name, status: "failed")) }
            throw error
        }
        if let status = outcome.eventStatus { events.publish(.source(source: name, status: status)) }
        return outcome
    }

    /// Runs `body`, a refresh whose download (and import) report into the change feed as
    /// `operation`'s progress through the reporter it is given: the size is learnt from the
    /// response (its declared length, else its bytes once more than 1 MiB arrived). The
    /// complete report is made only once `body` succeeded, so a failed refresh ends without one.
    public func downloading<Imported>(_ operation: String,
                                      _ body: (ProgressReporter) throws(CarFitError) -> RefreshOutcome<Imported>)
        throws(CarFitError) -> RefreshOutcome<Imported> {
        let feed = events
        let reporter = ProgressReporter(clock: SystemMonotonicClock()) { done, total in
            feed.publish(.progress(operation: operation, done: done, total: total))
        }
        let outcome = try body(reporter)
        reporter.finish()
        return outcome
    }
}
