import CarFitCore
import CarFitIO
import CarFitServices

/// The change feed's operation: its request read, its batch of events written.
public enum EventsAPI {
    public static func wait(_ service: EventsService, _ request: Fields) throws(CarFitError) -> JSON {
        let r = try EventsWait(request)
        return try service.wait(after: r.after, timeoutMs: r.timeoutMs).json
    }
}

/// `events.wait`: `{"after"?, "timeoutMs"?}`: the seq read up to (0), the longest wait (1000 ms,
/// at most 60000).
public struct EventsWait: APIRequest {
    public var after: Int64
    public var timeoutMs: Int

    public init(_ f: Fields) throws(CarFitError) {
        after = try f.int("after", in: 0...Int64.max) ?? 0
        timeoutMs = Int(try f.int("timeoutMs", in: 0...60_000) ?? 1000)
    }
}

extension EventBatch: APIResponse {
    /// `{"events": [{"seq", "kind", …}], "last": seq}`
    public var json: JSON {
        .obj(["events": .array(events.map { $0.event.document(seq: $0.seq) }), "last": .int(last)])
    }
}

extension Event {
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
        case .conflict(let key, let mutationId, let reason):
            return .obj(["seq": .int(seq), "kind": "conflict", "key": .string(key), "mutationId": .string(mutationId),
                         "reason": .string(reason)])
        }
    }
}

/// The entry points of the operation table (`Manifest.operations`), one per operation, named
/// after its verb: each picks from the core what the function above needs.
extension EventsAPI {
    public static func wait(_ context: some OperationContext, _ request: Fields) throws(CarFitError) -> JSON {
        try wait(context.feed, request)
    }
}
