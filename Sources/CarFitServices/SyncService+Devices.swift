import CarFitCore
import CarFitHTTP
import CarFitIO
import CarFitNet
import CarFitStore

extension NetworkTarget {
    /// The device's registration (`sources.devices`).
    public static let devices = NetworkTarget(field: "sources.devices", what: "device's registration",
                                              stays: "The registration stays pending.")
}

/// The device part of a push: the registration sent to the devices server once per change.
extension SyncService {
    /// POSTs the device's record when it changed since the server last took it; true when one
    /// was sent and acknowledged (any 2xx). A failure is recorded for the push's backoff as
    /// every request's, and the record stays pending.
    func pushDevice(to url: String, client: HTTPClient, lock: some Serializer) throws(CarFitError) -> Bool {
        let outbox = outbox
        let store = PushStore(db)
        let (device, clientId) = try lock.locked { () throws(CarFitError) in (try store.device(), try outbox.state().clientId) }
        guard device.pending else { return false }
        let body = DeviceWire.body(clientId: clientId, platform: device.platform, token: device.token)
        do throws(CarFitError) {
            let answer: HTTPResponseBody
            do throws(HTTPError) {
                answer = try client.source(.postJSON(url, body: body), source: "devices", maxBytes: SyncService.maxAnswerBytes)
            } catch {
                throw CarFitError(error, .devices)
            }
            if let refused = CarFitError.answered(answer.response.status, url: url, .devices) { throw refused }
        } catch {
            try recordFailure(error, client: client, lock: lock)
            throw error
        }
        let db = db
        try lock.locked { () throws(CarFitError) in
            try db.transaction { () throws(CarFitError) in
                try store.acknowledge(device.revision)
                try outbox.succeeded()
            }
        }
        return true
    }
}
