import CarFitCore
import CarFitHTTP
import CarFitIO
import CarFitNet
import CarFitStore

/// The location part of a push: the trail's pending points sent to the planner.
extension SyncService {
    /// The most points one request carries.
    public static let maxPoints = 1000

    /// Removes applied points older than `trailDays`, then (with `url`) POSTs the pending
    /// points oldest first, `maxPoints` a request, `{"clientId", "points": [...]}`, until none
    /// is left or an answer leaves some unnamed (they wait for the next push). The answer
    /// `{"applied": [ids]}` is committed as it comes; a failure sets the push's backoff and is
    /// `unavailable`, every point of its request staying pending. Answers `{"pushed", "pending"}`.
    /// Runs holding the push lock, so a point is never in two requests at once.
    func pushLocations(to url: String?, trailDays: Int64, client: HTTPClient,
                       lock: some Serializer) throws(CarFitError) -> JSON {
        let road = LocationStore(db)
        let sync = sync
        let clock = clock
        let db = db
        try lock.locked { () throws(CarFitError) in
            let days = min(max(trailDays, 0), 3_650)
            try road.removePushed(before: Instant(milliseconds: clock.now.milliseconds - days * 86_400_000))
        }
        var pushed = 0
        while let url {
            let batch = try lock.locked { () throws(CarFitError) -> (client: String, points: [LocationStore.Point]) in
                (try sync.state().clientId, try road.pending(limit: SyncService.maxPoints))
            }
            guard !batch.points.isEmpty else { break }
            let applied: [String]
            do throws(CarFitError) {
                applied = try SyncService.sendPoints(batch.points, clientId: batch.client, to: url, client: client)
            } catch {
                try recordFailure(error, client: client, lock: lock)
                throw error
            }
            let sent = Set(batch.points.map(\.id))
            let count = try lock.locked { () throws(CarFitError) -> Int in
                try db.transaction { () throws(CarFitError) -> Int in
                    let count = try road.markPushed(applied.filter(sent.contains))
                    try road.pushed(at: clock.now)
                    var state = try sync.state()
                    state.succeeded(at: clock.now)
                    try sync.save(state)
                    return count
                }
            }
            pushed += count
            if count < batch.points.count { break }
        }
        let pending = try lock.locked { () throws(CarFitError) in try road.counts().pending }
        return .obj(["pushed": .int(Int64(pushed)), "pending": .int(Int64(pending))])
    }

    /// POSTs one request of points and reads the ids its answer applied, or `unavailable` with
    /// the reason (a transfer failure's, `http_status`, or `malformed`).
    static func sendPoints(_ points: [LocationStore.Point], clientId: String, to url: String,
                           client: HTTPClient) throws(CarFitError) -> [String] {
        let body = JSON.obj(["clientId": .string(clientId), "points": .array(points.map(\.json))])
        let answer: HTTPResponseBody
        do throws(HTTPFailure) {
            answer = try client.source(.postJSON(url, body: body.encodedBytes()), source: "locations", maxBytes: maxAnswerBytes)
        } catch {
            let invalid = error.reason == .notHTTP
            throw CarFitError(invalid ? .invalid : .unavailable,
                              "The location server could not be reached (\(error.message.prefix(300))); every point stays pending.",
                              field: invalid ? "sources.locations" : nil,
                              extra: JSONObject(["reason": .string(error.reason.rawValue), "url": .string(String(url.prefix(2000)))]))
        }
        if HTTPClient.isRefusal(answer.response.status) {
            throw .unauthorized(url, status: answer.response.status, what: "washer's positions")
        }
        guard answer.response.isSuccess else {
            let status = answer.response.status
            throw CarFitError(.unavailable, "The location server answered with HTTP status \(status); every point stays pending.",
                              extra: JSONObject(["reason": "http_status", "httpStatus": .int(Int64(status)),
                                                 "url": .string(String(url.prefix(2000)))]))
        }
        guard case .success(let json) = JanssonParser.parse(bytes: answer.body),
              case .array(let items)? = json.objectValue?["applied"] else {
            throw CarFitError(.unavailable, "The location server's answer is not {\"applied\": [ids]}; every point stays pending.",
                              extra: JSONObject(["reason": "malformed", "url": .string(String(url.prefix(2000)))]))
        }
        var ids: [String] = []
        for item in items {
            guard case .string(let id) = item else {
                throw CarFitError(.unavailable, "The location server's answer names a point by something other than its id; every point stays pending.",
                                  extra: JSONObject(["reason": "malformed", "url": .string(String(url.prefix(2000)))]))
            }
            ids.append(id)
        }
        return ids
    }
}
