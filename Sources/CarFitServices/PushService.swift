import CarFitCore
import CarFitStore

/// The planner's pushes: a push received (once only, in order, with the refresh it asks for and
/// the notifications it gives), the device's registration and the push status.
public struct PushService {
    public let db: Database
    public let clock: Clock
    public let store: PushStore
    public let visits: VisitStore

    public init(db: Database, clock: Clock) {
        self.db = db
        self.clock = clock
        store = PushStore(db)
        visits = VisitStore(db)
    }

    /// What a push did.
    public struct Receipt: Sendable {
        public var duplicate = false
        public var gap = false
        /// The source answered a refresh the push ran (200 or 304).
        public var refreshed = false
        /// Why a refresh the push ran failed.
        public var refreshError: CarFitError?
        public var changes: [VisitChange] = []
        public var notifications: [PushNotification] = []
        public init() {}
    }

    /// The push status: the device's registration, the highest seq, the push ids kept.
    public struct Status: Sendable, Equatable {
        public var device: PushStore.Device
        public var lastSeq: Int64?
        public var received: Int
    }

    /// Receives the push `message`. A repeated id does nothing. With `refresh`, kind `visits`
    /// (and any kind after a gap) runs `refreshVisits` (the visits refresh, which waits for the
    /// network without the core's lock and answers the changes it stored); its failure is kept
    /// as `refreshError` and does not fail the push. Kind `visit` looks its occurrence up
    /// (refreshing first, with `refresh`, when it is not stored): still unknown is `not_found`
    /// and the push is not recorded. `lock` is taken around the database work only.
    public func receive(_ message: PushMessage, refresh: Bool, hour24: Bool, lock: some Serializer,
                        refreshVisits: () throws(CarFitError) -> [VisitChange]) throws(CarFitError) -> Receipt {
        let store = store
        var receipt = Receipt()
        let seen = try lock.locked { () throws(CarFitError) -> (duplicate: Bool, last: Int64?) in
            (try store.received(message.id), try store.lastSeq())
        }
        if seen.duplicate {
            receipt.duplicate = true
            return receipt
        }
        receipt.gap = PushMessage.isGap(seq: message.seq, last: seen.last)
        var ran = false
        func run() {
            ran = true
            do throws(CarFitError) {
                receipt.changes += try refreshVisits()
                receipt.refreshed = true
            } catch {
                receipt.refreshError = error
            }
        }
        if refresh && (message.kind == .visits || receipt.gap) { run() }
        var visit: Visit?
        if message.kind == .visit, let visitId = message.visitId, let start = message.start {
            let key = VisitKey(visitId: visitId, start: start)
            let visits = visits
            visit = try lock.locked { () throws(CarFitError) in try visits.visit(key) }
            if visit == nil && refresh && !ran {
                run()
                visit = try lock.locked { () throws(CarFitError) in try visits.visit(key) }
            }
            guard visit != nil else {
                throw CarFitError(.notFound, "No stored visit has visitId \"\(visitId.prefix(80))\" starting at \(start.iso).",
                                  field: "payload.carfit.visitId")
            }
        }
        let recorded = try lock.locked { () throws(CarFitError) in try store.record(id: message.id, seq: message.seq) }
        guard recorded else {
            // Another connection received the same push meanwhile.
            var duplicate = Receipt()
            duplicate.duplicate = true
            return duplicate
        }
        receipt.notifications = receipt.changes.map { PushNotification.change($0, clock: clock, hour24: hour24) }
        if let visit { receipt.notifications.append(PushNotification.visit(visit, clock: clock, hour24: hour24)) }
        if message.kind == .message, let title = message.title, let body = message.body {
            receipt.notifications.append(PushNotification.message(id: message.id, title: title, body: body))
        }
        return receipt
    }

    /// Registers the device's push token (`token` nil: unregisters); the devices server hears
    /// of it on the next push.
    public func register(platform: String?, token: String?) throws(CarFitError) -> PushStore.Device {
        try store.register(platform: platform, token: token)
    }

    public func status() throws(CarFitError) -> Status {
        Status(device: try store.device(), lastSeq: try store.lastSeq(), received: try store.receivedCount())
    }
}
