import CarFitCore

/// The change feed's use-case: a long-poll on the core's hub.
public struct EventsService {
    public let hub: EventHub

    public init(hub: EventHub) {
        self.hub = hub
    }

    /// The events after `after`, waiting up to `timeoutMs` for one (see `EventHub.wait`).
    public func wait(after: Int64, timeoutMs: Int) throws(CarFitError) -> EventBatch {
        try hub.wait(after: after, timeoutMs: timeoutMs)
    }
}
