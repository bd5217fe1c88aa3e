import Crypto
import Foundation
import Hummingbird

/// The washer's API: the snapshot, the updates, the positions and the device's registration.
extension PlannerResponder {
    /// The most mutations one request takes.
    static let maxMutations = 500
    /// The most points one request takes.
    static let maxPoints = 1000

    /// `GET /v1/visits`: the washer's visits of the window in the seed's document, with a strong
    /// ETag of the body; `If-None-Match` with it → 304.
    func visits(_ request: Request, washer: Washer) async throws -> Response {
        let rows = try await store.snapshot(washerId: washer.id, window: window(now: options.clock()))
        let document = JSON.object(["success": .bool(true), "message": .string(""), "code": .int(200),
                                    "data": .array(rows.map(\.seedRecord))])
        let body = document.text
        let digest = SHA256.hash(data: Data(body.utf8)).prefix(16).map { String(format: "%02x", $0) }.joined()
        let tag = "\"\(digest)\""
        var headers: HTTPFields = [.eTag: tag, .cacheControl: "private, no-cache"]
        if let match = request.headers[.ifNoneMatch] {
            let tags = match.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }
            if tags.contains(tag) || tags.contains("*") {
                return Response(status: .notModified, headers: headers)
            }
        }
        headers[.contentType] = "application/json"
        return Response(status: .ok, headers: headers, body: ResponseBody(byteBuffer: ByteBuffer(string: body)))
    }

    /// `POST /v1/visit-updates`: `{"clientId", "mutations": [...]}` → `{"applied", "rejected"}`.
    func visitUpdates(_ request: Request, washer: Washer) async throws -> Response {
        let body = try Members(try await json(request))
        let clientId = try body.string("clientId")
        let items = try body.array("mutations", max: Self.maxMutations)
        var mutations: [Mutation] = []
        mutations.reserveCapacity(items.count)
        for (i, item) in items.enumerated() {
            let m = try Members(item, path: "mutations[\(i)]")
            let stateText = try m.string("state", max: 40)
            guard let state = VisitState(spelling: stateText) else {
                throw APIError.badRequest("\(m.name("state")) must be Todo, InProgress, Done or Rejected.", field: m.name("state"))
            }
            mutations.append(Mutation(mutationId: try m.string("mutationId"), visitId: try m.optionalString("visitId", max: 200),
                                      startMs: try m.instant("startTimeUtc"), state: state, atMs: try m.instant("at"),
                                      timeUsedMinutes: try m.optionalInt("timeUsedMinutes", in: 0...1_000_000),
                                      reason: try m.optionalString("reason")))
        }
        let answers = try await store.applyUpdates(washerId: washer.id, clientId: clientId, mutations: mutations,
                                                   now: options.clock())
        let applied = answers.filter(\.applied).map { JSON.string($0.mutationId) }
        let rejected = answers.compactMap { a in
            a.reason.map { JSON.object(["mutationId": .string(a.mutationId), "reason": .string($0)]) }
        }
        return .json(.object(["applied": .array(applied), "rejected": .array(rejected)]))
    }

    /// `POST /v1/locations`: `{"clientId", "points": [...]}` → `{"applied": [ids]}`.
    func locations(_ request: Request, washer: Washer) async throws -> Response {
        let body = try Members(try await json(request))
        let clientId = try body.string("clientId")
        let items = try body.array("points", max: Self.maxPoints)
        var points: [Point] = []
        points.reserveCapacity(items.count)
        for (i, item) in items.enumerated() {
            let p = try Members(item, path: "points[\(i)]")
            points.append(Point(id: try p.string("id"), latitude: try p.number("latitude", in: -90...90),
                                longitude: try p.number("longitude", in: -180...180),
                                accuracyMeters: try p.number("accuracyMeters", in: 0...1_000_000), atMs: try p.instant("at")))
        }
        let applied = try await store.addPoints(washerId: washer.id, clientId: clientId, points: points)
        return .json(.object(["applied": .array(applied.map(JSON.string))]))
    }

    /// `POST /v1/devices`: `{"clientId", "platform", "token"}` (token null: unregistered).
    func devices(_ request: Request, washer: Washer) async throws -> Response {
        let body = try Members(try await json(request))
        let clientId = try body.string("clientId")
        let token = try body.optionalString("token", max: 4096)
        if let token {
            guard !token.isEmpty, token.utf8.allSatisfy({ $0 >= 0x21 && $0 <= 0x7E }) else {
                throw APIError.badRequest("token must be 1 to 4096 printable ASCII characters without spaces, or null.", field: "token")
            }
        }
        let platform = try body.optionalString("platform", max: 10)
        if let platform, platform != "fcm", platform != "apns" {
            throw APIError.badRequest("platform must be \"fcm\" or \"apns\".", field: "platform")
        }
        if token != nil, platform == nil {
            throw APIError.badRequest("platform is needed with a token.", field: "platform")
        }
        try await store.registerDevice(washerId: washer.id, clientId: clientId, platform: platform, token: token,
                                       now: options.clock())
        return .json(.object(["device": .object(["clientId": .string(clientId), "platform": .str(platform),
                                                 "registered": .bool(token != nil)])]))
    }
}
