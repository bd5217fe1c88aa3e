import CarFitAPI
import CarFitCore
import CarFitIO
import CarFitSystem
import CarFitNet
import CarFitServices
import CarFitStore

/// One open core: its configuration, clock, database, calendar state, session, caches and image
/// pipeline, its change feed, and the services of each area built on them. Calls on one core
/// are serialised by its lock, so a host may call from several threads at once; waiting for the
/// change feed does not take the lock.
final class Core: OperationContext, @unchecked Sendable {
    let config: CoreConfig
    let clock: Clock
    let db: Database
    /// The key the files beside the database are sealed under, kept inside the database
    /// (`FilesKey`); nil until the database is first encrypted.
    private var filesKey: [UInt8]?
    var calendarState: CalendarState
    let session = Session()
    let imagePipeline: ImagePipeline
    /// The core's HTTP client, for its sources and its images; closing the core cancels its
    /// transfers.
    let http: HTTPClient
    let documents = DocumentCache()
    /// The day list's answers kept ready for the host's re-render (`DayAnswers`).
    let dayAnswers = DayAnswers()
    /// The change feed: commits, in-memory state changes, progress, prefetches.
    let events = EventHub()
    /// Keeps this database's pushes one at a time (with other cores and processes too).
    let pushLock: PushLock
    private let lock = Lock()
    private var closed = false
    /// `PRAGMA data_version` when other connections' commits were last looked for.
    private var dataVersion: Int64 = 0

    init(config: CoreConfig) throws(CarFitError) {
        self.config = config
        clock = try config.clock(hostNow: {
            Instant(milliseconds: SystemClock.wallMilliseconds())
        })
        db = try Database(path: config.database, key: config.encryptionKey)
        filesKey = db.key != nil ? try FilesKey.ensure(db) : try FilesKey.load(db)
        pushLock = PushLock(database: config.database)
        guard let today = clock.today else {
            throw CarFitError(.invalid, "now lies outside the years 1 to 9999.", field: "now")
        }
        calendarState = CalendarState(today: today)
        let auth = PlannerAuth(origins: PlannerAuth.origins(configured: config.auth.origins, visits: config.sources.visits,
                                                            visitUpdates: config.sources.visitUpdates),
                               clock: clock)
        http = HTTPClient(timeoutMs: config.http.timeoutMs, totalTimeoutMs: config.http.totalTimeoutMs,
                          maxBodyBytes: config.http.maxBodyBytes,
                          minBytesPerSecond: config.http.minBytesPerSecond, auth: auth,
                          // With a key a downloaded document never reaches the disk in the clear.
                          inMemoryDownloads: config.encryptionKey != nil)
        do throws(ImageDirectoryError) {
            var images = config.images
            // With a key no image is kept on disk (the memory cache only), and what a core
            // without one cached there is dropped.
            if config.encryptionKey != nil { images.diskBytes = 0 }
            imagePipeline = try ImagePipeline(config: images, http: http)
        } catch {
            throw CarFitError(error)
        }
        dataVersion = try db.dataVersion()
        attachments.tidy()
        let feed = events
        db.onCommit { tables in feed.publish(.changed(areas: StoredAreas.areas(of: tables), external: false)) }
        imagePipeline.onPrefetched = { url, loaded in feed.publish(.image(url: url, status: loaded ? "loaded" : "failed")) }
        auth.onRequired { source, status in feed.publish(.auth(status: "required", source: source, httpStatus: status)) }
        feed.watchExternalCommits { [weak self] in self?.externalCommit() }
    }

    var visits: VisitsService {
        var service = VisitsService(db: db, clock: clock, importThreads: config.importThreads)
        service.report = config.report
        service.dayAnswers = dayAnswers
        return service
    }
    var calendar: CalendarService {
        CalendarService(db: db, visits: VisitStore(db), clock: clock, firstWeekday: config.firstWeekday, documents: documents)
    }
    var employees: EmployeesService { EmployeesService(db: db, clock: clock, session: session) }
    var catalog: CatalogService { CatalogService(db: db, clock: clock, session: session, documents: documents) }
    var transactions: TransactionsService {
        var service = TransactionsService(transactions: TransactionStore(db))
        service.display = clock.display
        return service
    }
    var articles: ArticlesService { ArticlesService(articles: ArticleStore(db), clock: clock) }
    var sources: SourcesService { SourcesService(sources: SourceStore(db), clock: clock, config: config.sources) }
    var sync: SyncService {
        SyncService(db: db, clock: clock,
                    setup: PushSetup(visitUpdates: config.sources.visitUpdates, locations: config.sources.locations,
                                     trailDays: config.road.trailDays, attachments: attachmentUpload,
                                     devices: config.sources.devices, client: http,
                                     pushLock: pushLock, waitMs: config.http.totalTimeoutMs,
                                     publish: { [events] event in events.publish(event) }))
    }
    var push: PushService { PushService(db: db, clock: clock) }
    var location: LocationService {
        var service = LocationService(db: db, clock: clock, config: config.road)
        service.report = config.report
        return service
    }
    var report: ReportService { ReportService(visits: visits) }
    var reminders: RemindersService { RemindersService(visits: visits, config: config.reminders) }
    var images: ImagesService { ImagesService(patterns: PatternStore(db), images: imagePipeline) }
    var feed: EventsService { EventsService(hub: events) }
    var auth: AuthService { AuthService(auth: http.auth) }
    var attachments: AttachmentsService {
        AttachmentsService(db: db, clock: clock, config: config.attachments, directory: config.attachmentsDirectory, seal: fileSeal)
    }
    /// The attachments' part of a push, nil when no upload URL is configured.
    var attachmentUpload: AttachmentUpload? {
        config.sources.attachments.map { base in
            AttachmentUpload(base: base, db: db, directory: config.attachmentsDirectory, seal: fileSeal) { [events] total in
                ProgressReporter(total: Int64(total), clock: SystemMonotonicClock()) { done, total in
                    events.publish(.progress(operation: "attachments.upload", done: done, total: total))
                }
            }
        }
    }

    /// A reporter of `operation`'s progress over `total` bytes into the change feed, nil when
    /// `total` is too small to report (1 MiB or less). A download or a file read of a known size
    /// reports through one too: `core.progress(operation, total: n)?.advance(to: done)`,
    /// then `finish()` once it succeeded.
    func progress(_ operation: String, total: Int) -> ProgressReporter? {
        let feed = events
        return ProgressReporter(total: Int64(total), clock: SystemMonotonicClock()) { done, total in
            feed.publish(.progress(operation: operation, done: done, total: total))
        }
    }

    /// The refreshes of the core's sources (`RefreshService`), under the core's lock.
    var refresher: RefreshService<Core> { RefreshService(sources: sources, events: events, http: http, lock: self) }

    /// The sources a refresh operation fetches.
    typealias Source = RefreshSource

    /// The refresh operation of `source`: its request read (`RefreshRequest`, and the
    /// patterns' `PatternsRefreshRequest`), the service's refresh of it, its answer
    /// (`RefreshAnswer`). A source without a configured URL is `invalid` before anything else.
    func refresh(_ source: Source, _ request: Fields) throws(CarFitError) -> JSON {
        let name = source.rawValue
        let configured: String? = switch source {
        case .visits: config.sources.visits
        case .articles: config.sources.articles
        case .catalog: config.sources.catalog
        case .patterns: config.sources.patterns
        }
        let url = try SourcesService.configured(name, configured)
        let maxAge = try RefreshRequest(request).maxAgeSeconds
        let refresher = refresher
        switch source {
        case .visits: return VisitsRefreshAnswer(try refresher.document(name, url: url, maxAge: maxAge, area: visits)).json
        case .articles: return RefreshAnswer(try refresher.document(name, url: url, maxAge: maxAge, area: articles)).json
        case .catalog: return RefreshAnswer(try refresher.document(name, url: url, maxAge: maxAge, area: catalog)).json
        case .patterns:
            let count = try PatternsRefreshRequest(request).count
            return RefreshAnswer(try refresher.patterns(url: url, maxAge: maxAge, count: count,
                                                        concurrency: config.images.concurrency, images: images)).json
        }
    }

    /// The visits refresh a push runs (`RefreshService.visitsForPush`).
    func refreshVisitsForPush() throws(CarFitError) -> [VisitChange] {
        try refresher.visitsForPush(visits, configured: config.sources.visits)
    }

    /// Whether another connection committed to the database since the last look; nil when the
    /// core is busy (a call holds its lock) or closed, so the look is left for later.
    private func externalCommit() -> Bool? {
        guard lock.try() else { return nil }
        defer { lock.unlock() }
        guard !closed, let version = try? db.dataVersion() else { return nil }
        defer { dataVersion = version }
        return version != dataVersion
    }

    /// Runs `body` holding the core's lock; a closed core is `misuse`. A change of the state
    /// held in memory (who is logged in, the calendar's month and selection) is published to
    /// the change feed as the database's commits are, as `session` or `calendar`.
    func serialized<Result: ~Copyable>(_ body: () throws(CarFitError) -> Result) throws(CarFitError) -> Result {
        lock.lock()
        defer { lock.unlock() }
        guard !closed else { throw CarFitError(.misuse, "The core is closed.") }
        let employee = session.employeeId
        let calendar = calendarState
        defer {
            if session.employeeId != employee { events.publish(.changed(areas: ["session"], external: false)) }
            if calendarState != calendar { events.publish(.changed(areas: ["calendar"], external: false)) }
        }
        return try body()
    }

    /// How the files beside the database are written and read: sealed under the files key
    /// while the database is encrypted (`FileSeal`).
    var fileSeal: FileSeal { FileSeal(key: filesKey, sealsNew: db.key != nil) }

    /// Puts the database under `newKey` (nil: plaintext), then the attachments' copies; answers
    /// whether the database is now encrypted.
    func rekey(to newKey: EncryptionKey?) throws(CarFitError) -> Bool {
        try db.rekey(to: newKey)
        if db.key != nil && filesKey == nil { filesKey = try FilesKey.ensure(db) }
        http.setInMemoryDownloads(db.key != nil)
        // The attachments follow: sealed under an encrypted database, plaintext again without.
        attachments.directory?.convert()
        return db.key != nil
    }

    /// `unauthorized` (`wrong_key`) once another core put new files in place of this core's
    /// database (a change of key): this core must be opened again.
    func checkFiles() throws(CarFitError) {
        guard db.isCurrentFile else { throw DatabaseCrypt.wrongKey(db.path) }
    }

    /// The core's lock, for a use-case that takes it itself.
    func locked<Result>(_ body: () throws(CarFitError) -> Result) throws(CarFitError) -> Result {
        try serialized(body)
    }

    /// Wakes the change feed's waiters (each answers `misuse`), waits for a call in progress,
    /// then stops the image pipeline (cancelling its transfers
    /// and waiting for them) and closes the database. Idempotent.
    func close() {
        events.close()
        lock.lock()
        defer { lock.unlock() }
        guard !closed else { return }
        closed = true
        imagePipeline.close()
        db.close()
    }
}
