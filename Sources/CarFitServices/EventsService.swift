import CarFitCore

/// The change feed's use-case: the long-poll's request read and handed to the core's hub.
public struct EventsService {
    public let hub: EventHub

    public init(hub: EventHub) {
        self.hub = hub
    }

    /// `{"after": 0, "timeoutMs": 1000}` -> `{"events", "last"}` (see `EventHub.wait`).
    public func wait(_ request: Fields) throws(CarFitError) -> JSON {
        let after = try request.int("after", in: 0...Int64.max) ?? 0
        let timeoutMs = try request.int("timeoutMs", in: 0...60_000) ?? 1000
        return try hub.wait(after: after, timeoutMs: Int(timeoutMs))
    }
}
