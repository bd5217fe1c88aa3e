/// One entry of a core's change feed, as `carfit_events_wait` hands it to hosts: what changed,
/// how far a long operation has come, how a refresh or a prefetch ended. The feed numbers the
/// events (`seq`); the event itself is the rest of the object.
public enum Event: Sendable, Equatable {
    /// A commit changed stored data of these areas (`StoredAreas` names them); `external` when
    /// another connection (another core, another process) committed and only "something" is known.
    case changed(areas: [String], external: Bool)
    /// Bytes done of a long operation (`operation` is its method name); `total` nil while it
    /// is not known (a download without a declared length).
    case progress(operation: String, done: Int64, total: Int64?)
    /// A refresh attempt of a source ended: `status` is `ok`, `not_modified` or `failed`.
    case source(source: String, status: String)
    /// A prefetched image ended: `status` is `loaded` or `failed`.
    case image(url: String, status: String)
    /// A source answered 401 or 403: the planner wants (new) credentials. `status` is
    /// `required`; published once per token (and once after opening), for the first refusal.
    case auth(status: String, source: String, httpStatus: Int)
    /// Events the reader asked for are no longer kept: everything must be read again.
    case gap
    /// The washer arrived at the visit of this key (a report's `at`).
    case arrival(key: String, at: Instant)
    /// The washer left the visit of this key after arriving.
    case departure(key: String, at: Instant)
    /// The update server rejected the washer's change `mutationId` of the visit of this key,
    /// for `reason`: its card shows the conflict until the washer acknowledges it.
    case conflict(key: String, mutationId: String, reason: String)

    /// The areas a commit by another connection is reported with.
    public static let allAreas = ["all"]
}

/// What a wait on the change feed hands back: the events after the reader's seq, each with its
/// own, and the seq to wait after next time.
public struct EventBatch: Sendable, Equatable {
    public var events: [Numbered]
    public var last: Int64

    public struct Numbered: Sendable, Equatable {
        public var seq: Int64
        public var event: Event

        public init(seq: Int64, event: Event) {
            self.seq = seq
            self.event = event
        }
    }

    public init(events: [Numbered], last: Int64) {
        self.events = events
        self.last = last
    }
}
