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

    /// The areas a commit by another connection is reported with.
    public static let allAreas = ["all"]

    /// The event as a feed entry numbered `seq`: `{"seq", "kind", …}`.
    public func document(seq: Int64) -> JSON {
        switch self {
        case .changed(let areas, let external):
            var object = JSONObject(["seq": .int(seq), "kind": "changed", "areas": .array(areas.map(JSON.string))])
            if external { object.appendDistinct("external", true) }
            return .object(object)
        case .progress(let operation, let done, let total):
            return .obj(["seq": .int(seq), "kind": "progress", "operation": .string(operation), "done": .int(done),
                         "total": total.map(JSON.int) ?? .null, "unit": "bytes"])
        case .source(let source, let status):
            return .obj(["seq": .int(seq), "kind": "source", "source": .string(source), "status": .string(status)])
        case .image(let url, let status):
            return .obj(["seq": .int(seq), "kind": "image", "url": .string(url), "status": .string(status)])
        case .auth(let status, let source, let httpStatus):
            return .obj(["seq": .int(seq), "kind": "auth", "status": .string(status), "source": .string(source),
                         "httpStatus": .int(Int64(httpStatus))])
        case .gap:
            return .obj(["seq": .int(seq), "kind": "gap"])
        case .arrival(let key, let at):
            return .obj(["seq": .int(seq), "kind": "arrival", "key": .string(key), "at": .string(OutboxMutation.iso(at))])
        case .departure(let key, let at):
            return .obj(["seq": .int(seq), "kind": "departure", "key": .string(key), "at": .string(OutboxMutation.iso(at))])
        }
    }
}
