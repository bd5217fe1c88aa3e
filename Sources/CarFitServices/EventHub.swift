import CarFitCore
import CarFitSystem

/// The change feed of one core: the last `capacity` events, numbered from 1, and the long-poll
/// that hands them to hosts (`carfit_events_wait`).
///
/// Anything may publish, from any thread: the database's commits (holding the core's lock), a
/// long import's progress, the image pipeline's workers. Waiters never take the core's lock,
/// so other calls proceed while they wait, and any number may wait at once. While at least one
/// waits, one of them looks every `pollIntervalNs` for commits by other connections on the same
/// database file (`externalCheck`); with no waiter nothing is polled. `close` wakes every
/// waiter, which then answers `misuse`.
public final class EventHub: @unchecked Sendable {
    /// Events kept for readers that fell behind.
    public static let capacity = 1024
    /// Events handed out by one wait at most.
    public static let batch = 256
    /// How often a waiter looks for other connections' commits.
    public static let pollIntervalNs: Int64 = 200_000_000

    /// Guards everything below; signalled on every publish and on close.
    private let condition = Condition()
    private var ring: [Event?] = Array(repeating: nil, count: EventHub.capacity)
    /// The seq of the newest event (0: none yet).
    private var last: Int64 = 0
    private var closed = false
    private var lastPoll: Int64?
    private var polling = false
    /// Whether another connection committed since the last look: nil when it could not look now.
    private var externalCheck: (@Sendable () -> Bool?)?

    public init() {}

    /// Sets how a waiter learns of other connections' commits. Called once, before the core is
    /// handed to the host.
    public func watchExternalCommits(_ check: @escaping @Sendable () -> Bool?) {
        condition.lock()
        defer { condition.unlock() }
        externalCheck = check
    }

    /// Appends `event` with the next seq and wakes the waiters; nothing after `close`.
    public func publish(_ event: Event) {
        condition.lock()
        defer { condition.unlock() }
        append(event)
    }

    /// Lock held.
    private func append(_ event: Event) {
        guard !closed else { return }
        last += 1
        ring[Int(last % Int64(EventHub.capacity))] = event
        condition.broadcast()
    }

    /// Wakes every waiter (each answers `misuse`) and publishes nothing more. Idempotent.
    public func close() {
        condition.lock()
        defer { condition.unlock() }
        closed = true
        condition.broadcast()
    }

    /// The seq of the newest event (0: none yet).
    public var lastSeq: Int64 {
        condition.lock()
        defer { condition.unlock() }
        return last
    }

    /// The events after `after`, as soon as there are any, else none after `timeoutMs`:
    /// the batch (its `last` is the seq to wait after next time). An `after`
    /// older than the kept events, or newer than the newest (a feed of an earlier core), gets
    /// a first `gap` event. A closed core, or one closed while waiting, is `misuse`.
    public func wait(after: Int64, timeoutMs: Int) throws(CarFitError) -> EventBatch {
        let deadline = SystemClock.monotonicNs() + Int64(max(0, timeoutMs)) * 1_000_000
        condition.lock()
        defer { condition.unlock() }
        while true {
            guard !closed else { throw CarFitError(.misuse, "The core was closed.") }
            if after != last { return collect(after: after) }
            let now = SystemClock.monotonicNs()
            guard now < deadline else { return EventBatch(events: [], last: last) }
            if let check = externalCheck, !polling, lastPoll.map({ now - $0 >= EventHub.pollIntervalNs }) ?? true {
                polling = true
                lastPoll = now
                condition.unlock()
                let committed = check()
                condition.lock()
                polling = false
                if committed == true { append(.changed(areas: Event.allAreas, external: true)) }
                continue
            }
            let nextPoll = (lastPoll ?? now) + EventHub.pollIntervalNs
            condition.wait(untilMonotonicNs: externalCheck == nil ? deadline : min(deadline, nextPoll))
        }
    }

    /// The answer for a reader at `after` (not the newest seq). Lock held.
    private func collect(after: Int64) -> EventBatch {
        let oldest = max(1, last - Int64(EventHub.capacity) + 1)
        var events: [EventBatch.Numbered] = []
        let from: Int64
        var lastGiven: Int64
        if after > last || after < oldest - 1 {
            events.append(EventBatch.Numbered(seq: oldest - 1, event: .gap))
            from = oldest
            lastGiven = oldest - 1
        } else {
            // after < last here: no overflow.
            from = after + 1
            lastGiven = after
        }
        var seq = from
        while seq <= last, events.count < EventHub.batch {
            if let event = ring[Int(seq % Int64(EventHub.capacity))] { events.append(EventBatch.Numbered(seq: seq, event: event)) }
            lastGiven = seq
            seq += 1
        }
        return EventBatch(events: events, last: lastGiven)
    }
}
