import Crypto
import Foundation
import Hummingbird
import NIOCore

/// What the API needs besides the store.
public struct PlannerOptions: Sendable {
    /// The planner's bearer token (at least 32 characters).
    public var adminToken: String
    /// Where attachments are written.
    public var filesDirectory: String
    /// Now, in milliseconds since the epoch.
    public var clock: @Sendable () -> Int64
    /// The largest attachment taken.
    public var maxUploadBytes: Int64 = 64 << 20
    /// The largest JSON body taken.
    public var maxBodyBytes = 1 << 20

    public init(adminToken: String, filesDirectory: String,
                clock: @escaping @Sendable () -> Int64 = { Int64((Date().timeIntervalSince1970 * 1000).rounded(.down)) }) {
        self.adminToken = adminToken
        self.filesDirectory = filesDirectory
        self.clock = clock
    }
}

/// The server's routes: the washer's API under `/v1/`, the planner's under `/v1/planner/`, the
/// board at `/board`. Every refusal is a JSON error document with its status.
public struct PlannerResponder: HTTPResponder {
    public typealias Context = BasicRequestContext

    public let store: any PlannerStore
    public let options: PlannerOptions

    public init(store: any PlannerStore, options: PlannerOptions) {
        self.store = store
        self.options = options
    }

    /// The snapshot's window around now: 7 days before to 35 days after.
    func window(now: Int64) -> ClosedRange<Int64> { (now - 7 * 86_400_000)...(now + 35 * 86_400_000) }

    public func respond(to request: Request, context: Context) async throws -> Response {
        do {
            return try await route(request, context: context)
        } catch let error as APIError {
            return error.response
        } catch let refusal as StoreRefusal {
            return APIError(refusal).response
        } catch {
            context.logger.error("request failed", metadata: ["path": "\(request.uri.path)", "error": "\(error)"])
            return APIError(.internalServerError, "The server could not complete the request; nothing was changed.").response
        }
    }

    func route(_ request: Request, context: Context) async throws -> Response {
        let segments = request.uri.path.split(separator: "/", omittingEmptySubsequences: false).dropFirst()
            .map { String($0).removingPercentEncoding ?? String($0) }
        let method = request.method
        func only(_ allowed: HTTPRequest.Method...) throws(APIError) {
            guard allowed.contains(method) else {
                var error = APIError(.methodNotAllowed, "\(method.rawValue) is not allowed here.")
                error.headers[.allow] = allowed.map(\.rawValue).joined(separator: ", ")
                throw error
            }
        }
        switch segments {
        case ["board"]:
            try only(.get)
            return Board.response
        case ["v1", "visits"]:
            try only(.get)
            return try await visits(request, washer: try await washer(request))
        case ["v1", "visit-updates"]:
            try only(.post)
            return try await visitUpdates(request, washer: try await washer(request))
        case ["v1", "locations"]:
            try only(.post)
            return try await locations(request, washer: try await washer(request))
        case ["v1", "devices"]:
            try only(.post)
            return try await devices(request, washer: try await washer(request))
        case _ where segments.count == 3 && segments[0] == "v1" && segments[1] == "attachments":
            try only(.put)
            return try await putAttachment(request, id: segments[2], washer: try await washer(request))
        case ["v1", "planner", "visits"]:
            try only(.post)
            try await planner(request)
            return try await createVisit(request)
        case _ where segments.count == 5 && Array(segments.prefix(3)) == ["v1", "planner", "visits"]:
            try only(.patch, .delete)
            try await planner(request)
            guard let start = Instant.parse(segments[4]) else {
                throw APIError.badRequest("The path's start time is not an ISO 8601 date and time.", field: "startTimeUtc")
            }
            if method == .patch { return try await patchVisit(request, visitId: segments[3], startMs: start) }
            return try await deleteVisit(visitId: segments[3], startMs: start)
        case ["v1", "planner", "day"]:
            try only(.get)
            try await planner(request)
            return try await day(request)
        case ["v1", "planner", "durations"]:
            try only(.get)
            try await planner(request)
            return try await durations()
        case ["v1", "planner", "pushes"]:
            try only(.get)
            try await planner(request)
            return try await pushes(request)
        default:
            throw APIError(.notFound, "No such resource: \(request.uri.path.prefix(200)).")
        }
    }

    // MARK: Authentication

    /// The bearer token of the request, or nil.
    static func bearer(_ request: Request) -> String? {
        guard let header = request.headers[.authorization] else { return nil }
        let parts = header.split(separator: " ", maxSplits: 1)
        guard parts.count == 2, parts[0].lowercased() == "bearer" else { return nil }
        let token = parts[1].trimmingCharacters(in: .whitespaces)
        return token.isEmpty ? nil : token
    }

    static func hash(_ token: String) -> String {
        SHA256.hash(data: Data(token.utf8)).map { String(format: "%02x", $0) }.joined()
    }

    /// Compares without stopping at the first difference.
    static func same(_ a: String, _ b: String) -> Bool {
        let x = Array(a.utf8), y = Array(b.utf8)
        guard x.count == y.count else { return false }
        var diff: UInt8 = 0
        for i in x.indices { diff |= x[i] ^ y[i] }
        return diff == 0
    }

    /// The washer the token names: 401 without a known token, 403 for the planner's.
    func washer(_ request: Request) async throws -> Washer {
        guard let token = Self.bearer(request) else { throw APIError.unauthorized() }
        if Self.same(token, options.adminToken) {
            throw APIError.forbidden("The planner's token does not speak for a washer; use the washer's own token.")
        }
        guard let washer = try await store.washer(tokenHash: Self.hash(token)) else { throw APIError.unauthorized() }
        return washer
    }

    /// The planner's token, or 401 (unknown) or 403 (a washer's).
    func planner(_ request: Request) async throws {
        guard let token = Self.bearer(request) else { throw APIError.unauthorized() }
        if Self.same(token, options.adminToken) { return }
        if try await store.washer(tokenHash: Self.hash(token)) != nil {
            throw APIError.forbidden("A washer's token cannot use the planner's API.")
        }
        throw APIError.unauthorized()
    }

    // MARK: Bodies

    /// The request's JSON body (at most `maxBodyBytes`), or a 400.
    func json(_ request: Request) async throws -> JSON {
        if let length = request.headers[.contentLength].flatMap(Int.init), length > options.maxBodyBytes {
            var error = APIError.badRequest("The body is over \(options.maxBodyBytes) bytes.")
            error.close = true
            throw error
        }
        let buffer: ByteBuffer
        do {
            buffer = try await request.body.collect(upTo: options.maxBodyBytes)
        } catch {
            var refusal = APIError.badRequest("The body is over \(options.maxBodyBytes) bytes or ended early.")
            refusal.close = true
            throw refusal
        }
        guard let value = JSON.parse(buffer.readableBytesView) else {
            throw APIError.badRequest("The body is not JSON.")
        }
        return value
    }

    /// The query's parameters, percent-decoded.
    static func query(_ request: Request) -> [String: String] {
        var out: [String: String] = [:]
        for pair in (request.uri.query ?? "").split(separator: "&") {
            let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            let key = String(parts[0]).replacingOccurrences(of: "+", with: " ").removingPercentEncoding ?? String(parts[0])
            let value = parts.count > 1 ? (String(parts[1]).replacingOccurrences(of: "+", with: " ").removingPercentEncoding ?? "") : ""
            out[key] = value
        }
        return out
    }
}
