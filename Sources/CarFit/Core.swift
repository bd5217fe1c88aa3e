import CarFitCore
import CarFitNet
import CarFitServices
import CarFitStore
import Foundation

/// One open core: its configuration, clock, database, calendar state, session, caches and image
/// pipeline, and the services of each area built on them. Calls on one core are serialised by
/// its lock, so a host may call from several threads at once.
final class Core: Serializer, @unchecked Sendable {
    let config: CoreConfig
    let clock: Clock
    let db: Database
    var calendarState: CalendarState
    let session = Session()
    let imagePipeline: ImagePipeline
    /// The core's HTTP client, for its sources and its images; closing the core cancels its
    /// transfers.
    let http: HTTPClient
    let documents = DocumentCache()
    /// Keeps this database's pushes one at a time (with other cores and processes too).
    let pushLock: PushLock
    private let lock = NSLock()
    private var closed = false

    init(config: CoreConfig) throws(CarFitError) {
        self.config = config
        clock = try config.clock(hostNow: {
            Instant(milliseconds: Int64((Date().timeIntervalSince1970 * 1000).rounded(.down)))
        })
        db = try Database(path: config.database)
        pushLock = PushLock(database: config.database)
        guard let today = clock.today else {
            throw CarFitError(.invalid, "now lies outside the years 1 to 9999.", field: "now")
        }
        calendarState = CalendarState(today: today)
        http = HTTPClient(timeoutMs: config.http.timeoutMs, totalTimeoutMs: config.http.totalTimeoutMs,
                          maxBodyBytes: config.http.maxBodyBytes)
        do throws(ImageDirectoryError) {
            imagePipeline = try ImagePipeline(config: config.images, http: http)
        } catch {
            throw CarFitError(error)
        }
    }

    var visits: VisitsService { VisitsService(db: db, clock: clock, importThreads: config.importThreads) }
    var calendar: CalendarService {
        CalendarService(db: db, visits: VisitStore(db), clock: clock, firstWeekday: config.firstWeekday, documents: documents)
    }
    var employees: EmployeesService { EmployeesService(db: db, clock: clock, session: session) }
    var catalog: CatalogService { CatalogService(db: db, clock: clock, session: session, documents: documents) }
    var transactions: TransactionsService { TransactionsService(transactions: TransactionStore(db)) }
    var articles: ArticlesService { ArticlesService(articles: ArticleStore(db), clock: clock) }
    var sources: SourcesService { SourcesService(sources: SourceStore(db), clock: clock, config: config.sources) }
    var sync: SyncService { SyncService(db: db, clock: clock) }
    var images: ImagesService { ImagesService(patterns: PatternStore(db), images: imagePipeline) }

    /// Runs `body` holding the core's lock; a closed core is `misuse`.
    func serialized<Result: ~Copyable>(_ body: () throws(CarFitError) -> Result) throws(CarFitError) -> Result {
        lock.lock()
        defer { lock.unlock() }
        guard !closed else { throw CarFitError(.misuse, "The core is closed.") }
        return try body()
    }

    /// The core's lock, for a use-case that takes it itself.
    func locked<Result>(_ body: () throws(CarFitError) -> Result) throws(CarFitError) -> Result {
        try serialized(body)
    }

    /// Waits for a call in progress, then stops the image pipeline (cancelling its transfers
    /// and waiting for them) and closes the database. Idempotent.
    func close() {
        lock.lock()
        defer { lock.unlock() }
        guard !closed else { return }
        closed = true
        imagePipeline.close()
        db.close()
    }
}
