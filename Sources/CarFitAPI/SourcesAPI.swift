import CarFitCore
import CarFitIO
import CarFitServices
import CarFitStore

/// The sources operations: every refresh's request and answer, and `sources.status`.
public enum SourcesAPI {
    public static func status(_ service: SourcesService) throws(CarFitError) -> JSON {
        SourcesStatus(sources: try service.states(), offline: try service.offline()).json
    }
}

// MARK: - Requests

/// Every refresh: `{"maxAgeSeconds"?}`.
public struct RefreshRequest: APIRequest {
    /// Skip the request when the last success is younger than this many seconds.
    public var maxAgeSeconds: Int64?
    public init(_ f: Fields) throws(CarFitError) {
        maxAgeSeconds = try f.int("maxAgeSeconds", in: 0...(Int64.max / 1000))
    }
}

/// `patterns.refresh`: also `{"count"?}`, the requests to make (1 to 100, default 10).
public struct PatternsRefreshRequest: APIRequest {
    public var count: Int
    public init(_ f: Fields) throws(CarFitError) {
        count = Int(try f.int("count", in: 1...100) ?? 10)
    }
}

// MARK: - Responses

/// A refresh's answer: `{"imported": 0, "fresh": true}` without a request,
/// `{"imported": 0, "notModified": true}` for a 304, else the import's own answer.
public struct RefreshAnswer<Imported: APIResponse>: APIResponse {
    public var outcome: RefreshOutcome<Imported>
    public init(_ outcome: RefreshOutcome<Imported>) { self.outcome = outcome }
    public var json: JSON {
        switch outcome {
        case .fresh: .obj(["imported": 0, "fresh": true])
        case .notModified: .obj(["imported": 0, "notModified": true])
        case .stored(let imported): imported.json
        }
    }
}

/// An import's answer built by the import itself (the areas whose answers are not typed yet).
extension JSON: APIResponse {
    public var json: JSON { self }
}

/// `{"imported", "rejected"}`: an import of records, answered as its summary (`ImportSummary`).
extension RecordImport: APIResponse {
    public var json: JSON { summary.json }
}

/// `{"offline", "sources": {name: {"url", "lastAttemptAt", "lastSuccessAt", "lastError",
/// "consecutiveFailures", "notModified"}}}`.
public struct SourcesStatus: APIResponse {
    public var sources: [(name: String, url: String, state: SourceStore.State)]
    public var offline: Bool

    public init(sources: [(name: String, url: String, state: SourceStore.State)], offline: Bool) {
        self.sources = sources
        self.offline = offline
    }

    public var json: JSON {
        var members = JSONObject()
        for (name, url, state) in sources {
            var lastError = JSON.null
            if let reason = state.errorReason {
                lastError = .obj([
                    "reason": .string(reason),
                    "message": .str(state.errorMessage),
                    "at": .str(state.errorAt?.iso),
                    "httpStatus": state.errorStatus.map { .int($0) } ?? .null,
                ])
            }
            members[name] = .obj([
                "url": .string(url),
                "lastAttemptAt": .str(state.lastAttempt?.iso),
                "lastSuccessAt": .str(state.lastSuccess?.iso),
                "lastError": lastError,
                "consecutiveFailures": .int(state.consecutiveFailures),
                "notModified": .bool(state.notModified),
            ])
        }
        return .obj(["offline": .bool(offline), "sources": .object(members)])
    }
}

/// The entry points of the operation table (`Manifest.operations`), one per operation, named
/// after its verb: each picks from the core what the function above needs.
extension SourcesAPI {
    public static func status(_ context: some OperationContext, _ request: Fields) throws(CarFitError) -> JSON {
        try status(context.sources)
    }
}
