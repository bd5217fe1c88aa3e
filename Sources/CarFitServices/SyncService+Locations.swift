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
    /// points oldest first, `maxPoints` a request (`LocationPushWire`), until none is left or
    /// an answer leaves some unnamed (they wait for the next push). The ids an answer applied
    /// are committed as they come; a failure sets the push's backoff and is classified as every
    /// request's (`CarFitError(_:_:)`), every point of its request staying pending. Runs
    /// holding the push lock, so a point is never in two requests at once.
    func pushLocations(to url: String?, trailDays: Int64, client: HTTPClient,
                       lock: some Serializer) throws(CarFitError) -> PushSummary.Trail {
        let road = LocationStore(db)
        let outbox = outbox
        let clock = clock
        let db = db
        try lock.locked { () throws(CarFitError) in
            let days = min(max(trailDays, 0), 3_650)
            try road.removePushed(before: Instant(milliseconds: clock.now.milliseconds - days * 86_400_000))
        }
        var pushed = 0
        while let url {
            let batch = try lock.locked { () throws(CarFitError) -> (client: String, points: [LocationStore.Point]) in
                (try outbox.state().clientId, try road.pending(limit: SyncService.maxPoints))
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
                    try outbox.succeeded()
                    return count
                }
            }
            pushed += count
            if count < batch.points.count { break }
        }
        let pending = try lock.locked { () throws(CarFitError) in try road.counts().pending }
        return PushSummary.Trail(pushed: pushed, pending: pending)
    }

    /// POSTs one request of points and reads the ids its answer applied, or the network's
    /// failure (`CarFitError(_:_:)`), or `unavailable` with reason `malformed`.
    static func sendPoints(_ points: [LocationStore.Point], clientId: String, to url: String,
                           client: HTTPClient) throws(CarFitError) -> [String] {
        let body = LocationPushWire.body(clientId: clientId, points: points.map { ($0.id, $0.report) })
        let answer: HTTPResponseBody
        do throws(HTTPError) {
            answer = try client.source(.postJSON(url, body: body), source: "locations", maxBytes: maxAnswerBytes)
        } catch {
            throw CarFitError(error, .locations)
        }
        if let refused = CarFitError.answered(answer.response.status, url: url, .locations) { throw refused }
        do throws(MalformedAnswer) {
            return try LocationPushWire.applied(answer.body)
        } catch {
            throw CarFitError.badAnswer("malformed", url: url, .locations, error.what)
        }
    }
}
