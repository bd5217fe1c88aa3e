import CarFitCore
import CarFitIO
import CarFitServices

/// The washer's updates: `sync.push` and `sync.status`.
public enum SyncAPI {
    /// The push, `lock` held only around its database work.
    public static func push(_ service: SyncService, _ request: Fields, lock: some Serializer) throws(CarFitError) -> JSON {
        let r = try SyncPushRequest(request)
        return try service.push(ifDue: r.ifDue, lock: lock).json
    }

    public static func status(_ service: SyncService) throws(CarFitError) -> JSON {
        try service.status().json
    }
}

// MARK: - Requests

/// `sync.push`: `{"ifDue"?}`, a boolean (false when absent).
public struct SyncPushRequest: APIRequest {
    public var ifDue: Bool
    public init(_ f: Fields) throws(CarFitError) {
        ifDue = try f.bool("ifDue") ?? false
    }
}

// MARK: - Responses

extension PushSummary: APIResponse {
    /// `{"pushed", "rejected", "pending"}`; a skipped push adds `"skipped"` ("unauthorized",
    /// "busy", "backoff" with `"nextAttemptAt"`); a push that tried adds `"locations":
    /// {"pushed", "pending"}` and `"attachments": {"uploaded", "pending", "failed"}` when those
    /// are configured.
    public var json: JSON {
        var answer = JSONObject(["pushed": .int(Int64(pushed)), "rejected": .int(Int64(rejected)), "pending": .int(Int64(pending))])
        switch skipped {
        case nil: break
        case .unauthorized?: answer["skipped"] = "unauthorized"
        case .busy?: answer["skipped"] = "busy"
        case .backoff(let until)?:
            answer["skipped"] = "backoff"
            answer["nextAttemptAt"] = .string(OutboxMutation.iso(until))
        }
        if let locations {
            answer["locations"] = .obj(["pushed": .int(Int64(locations.pushed)), "pending": .int(Int64(locations.pending))])
        }
        if let deviceSent {
            answer["device"] = .obj(["sent": .bool(deviceSent)])
        }
        if let attachments {
            answer["attachments"] = .obj(["uploaded": .int(Int64(attachments.uploaded)), "pending": .int(Int64(attachments.pending)),
                                          "failed": .int(Int64(attachments.failed))])
        }
        return .object(answer)
    }
}

extension SyncService.Status: APIResponse {
    /// `{"clientId", "pending", "lastAttemptAt", "lastSuccessAt", "lastError",
    /// "consecutiveFailures", "nextAttemptAt", "rejected": [...]}`, instants as UTC text or null.
    public var json: JSON {
        func instant(_ i: Instant?) -> JSON { i.map { .string(OutboxMutation.iso($0)) } ?? .null }
        return .obj([
            "clientId": .string(state.clientId),
            "lastAttemptAt": instant(state.lastAttemptAt),
            "lastSuccessAt": instant(state.lastSuccessAt),
            "lastError": state.lastError?.json ?? .null,
            "consecutiveFailures": .int(Int64(state.consecutiveFailures)),
            "nextAttemptAt": instant(state.nextAttemptAt),
            "pending": .int(Int64(pending)),
            "rejected": .array(rejected.map(\.json)),
        ])
    }
}

extension SyncFailure: APIResponse {
    /// `{"reason", "message", "at", "httpStatus"}`, `at` as UTC text, `httpStatus` null without
    /// an answer.
    public var json: JSON {
        .obj(["reason": .string(reason), "message": .string(message), "at": .string(at.iso),
              "httpStatus": httpStatus.map { .int(Int64($0)) } ?? .null])
    }
}

extension RejectedChange: APIResponse {
    /// `{"mutationId", "visitId", "startTimeUtc", "state", "reason", "at", "timeUsedMinutes"}`,
    /// null where unknown.
    public var json: JSON {
        .obj(["mutationId": .str(mutationId), "visitId": .str(visitId), "startTimeUtc": instant(start),
              "state": .str(state), "reason": .str(reason), "at": instant(at),
              "timeUsedMinutes": timeUsedMinutes.map { .int(Int64($0)) } ?? .null])
    }

    private func instant(_ i: Instant?) -> JSON { i.map { .string(OutboxMutation.iso($0)) } ?? .null }
}

/// The entry points of the operation table (`Manifest.operations`), one per operation, named
/// after its verb: each picks from the core what the function above needs.
extension SyncAPI {
    public static func push(_ context: some OperationContext, _ request: Fields) throws(CarFitError) -> JSON {
        try push(context.sync, request, lock: context)
    }
    public static func status(_ context: some OperationContext, _ request: Fields) throws(CarFitError) -> JSON {
        try status(context.sync)
    }
}
