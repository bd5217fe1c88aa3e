import PlannerPush

/// Everything the server keeps: washers, their visits and what the washers sent, the push queue.
/// Every method is one transaction, so any number of server processes on one database behave as
/// one server. `SQLPlannerStore` implements it on SQLite and on PostgreSQL.
public protocol PlannerStore: PushQueue {
    /// Creates or upgrades the tables (any number of processes may do so at once).
    func migrate() async throws

    // MARK: Washers
    func addWasher(id: String, name: String, tokenHash: String, now: Int64) async throws -> Washer
    /// Replaces the washer's token (the old one stops working); nil for an unknown washer.
    func replaceToken(washerId: String, tokenHash: String) async throws -> Washer?
    func washer(tokenHash: String) async throws -> Washer?
    func washer(id: String) async throws -> Washer?

    // MARK: The washer's API
    /// The washer's visits not cancelled whose start lies in `window`, by start then visitId.
    func snapshot(washerId: String, window: ClosedRange<Int64>) async throws -> [VisitRow]
    /// Applies each mutation not seen before (in order) and records its answer; a mutation
    /// seen before gets its first answer. Throws `StoreRefusal.clientOfAnotherWasher`.
    func applyUpdates(washerId: String, clientId: String, mutations: [Mutation], now: Int64) async throws -> [MutationAnswer]
    /// Keeps each point not seen before; answers every id (new or seen).
    func addPoints(washerId: String, clientId: String, points: [Point]) async throws -> [String]
    /// The device's record (token nil: unregistered, its queued pushes dropped).
    func registerDevice(washerId: String, clientId: String, platform: String?, token: String?, now: Int64) async throws
    /// Whether the washer has that visit (cancelled or not).
    func hasVisit(washerId: String, visitId: String, startMs: Int64) async throws -> Bool
    func attachment(id: String) async throws -> AttachmentRecord?
    /// Records an attachment whose file is in place; when the id is there already, the stored
    /// one and false.
    func addAttachment(_ attachment: AttachmentRecord, now: Int64) async throws -> (AttachmentRecord, created: Bool)

    // MARK: The planner's API (each change queues the affected devices' pushes)
    func createVisit(_ visit: VisitRow, now: Int64, window: ClosedRange<Int64>) async throws -> VisitRow
    /// Changes a visit not cancelled (`StoreRefusal.notFound` else) with `change`.
    func updateVisit(visitId: String, startMs: Int64, now: Int64, window: ClosedRange<Int64>,
                     change: @Sendable (VisitRow) throws -> VisitRow) async throws -> VisitRow
    func cancelVisit(visitId: String, startMs: Int64, now: Int64, window: ClosedRange<Int64>) async throws -> VisitRow
    /// Every washer by name, with the newest position and the visits not cancelled whose start
    /// lies in `range` (attachments counted).
    func day(range: Range<Int64>) async throws -> [DayWasher]
    /// Done visits with both a start and a finish, newest finish first (at most `limit`).
    func finishedVisits(limit: Int) async throws -> [VisitRow]
    /// The pushes queued for a washer's devices, oldest first.
    func pushes(washerId: String?) async throws -> [PushRow]

    func close() async
}
