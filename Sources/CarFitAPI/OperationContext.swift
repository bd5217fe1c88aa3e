import CarFitCore
import CarFitIO
import CarFitServices

/// What an operation's entry point may use of the core: its services (each made for the call
/// over the core's database, clock and configuration), the calendar's state kept in memory, the
/// change feed, and the few things only the core can do (a source's refresh, the visits refresh
/// a push asks for, a progress reporter, putting the database under another key). Running under
/// the core's lock (`Serializer`) is for the operations that take it themselves.
///
/// The operation table (`Manifest.operations`, generated from the schema) calls one entry point
/// per operation, named after its method: `visits.set_state` is `VisitsAPI.setState(core,
/// request)`, `session.login` is `SessionAPI.login(core, request)`, a streamed one takes the
/// request's bytes (`VisitsAPI.import(core, bytes, check:progress:)`). An entry point only picks
/// what its API function needs from the context; the API function itself takes services and
/// values (what the tests call). The core is the one conformance.
public protocol OperationContext: AnyObject, Serializer {
    var visits: VisitsService { get }
    var calendar: CalendarService { get }
    /// The calendar's displayed month and selection (`calendar.*` move it).
    var calendarState: CalendarState { get set }
    var employees: EmployeesService { get }
    var catalog: CatalogService { get }
    var transactions: TransactionsService { get }
    var articles: ArticlesService { get }
    var sources: SourcesService { get }
    var sync: SyncService { get }
    var push: PushService { get }
    var location: LocationService { get }
    var report: ReportService { get }
    var reminders: RemindersService { get }
    var images: ImagesService { get }
    var attachments: AttachmentsService { get }
    var auth: AuthService { get }
    /// The change feed, as `events.wait` reads it.
    var feed: EventsService { get }
    /// The change feed, as a use-case publishes to it.
    var events: EventHub { get }
    /// A reporter of `operation`'s progress over `total` bytes into the change feed (nil when too
    /// small to report).
    func progress(_ operation: String, total: Int) -> ProgressReporter?
    /// The refresh operation of `source` (`visits.refresh`, `articles.refresh`, ...).
    func refresh(_ source: RefreshSource, _ request: Fields) throws(CarFitError) -> JSON
    /// The visits refresh a push asks for.
    func refreshVisitsForPush() throws(CarFitError) -> [VisitChange]
    /// Puts the database under `newKey` (nil: plaintext); answers whether it is now encrypted.
    func rekey(to newKey: EncryptionKey?) throws(CarFitError) -> Bool
}

/// The sources a refresh operation fetches.
public enum RefreshSource: String, Sendable {
    case visits, articles, catalog, patterns
}

/// The check of a request object's members against the operation's schema, which the boundary
/// hands a streamed operation to run on what it reads of them.
public typealias MemberCheck = (Fields) throws(CarFitError) -> Void

/// A reporter of a streamed operation's progress over the given number of bytes, or nil.
public typealias ProgressStart = (Int) -> ProgressReporter?
