/// The waiting prefetches: highest priority first, first in first out within a priority.
///
/// Each URL is queued at most once. Queuing it again at a higher priority moves it to the end of
/// that priority's lane; at the same or a lower priority it stays where it is. Removal is O(1):
/// a lane keeps a ticket with each entry, and entries whose ticket is no longer current are
/// skipped when popped.
public struct PrefetchQueue: Sendable {
    private struct Lane: Sendable {
        var items: [(url: String, ticket: UInt64)] = []
        var head = 0

        mutating func append(_ url: String, _ ticket: UInt64) { items.append((url, ticket)) }

        mutating func popFirst() -> (url: String, ticket: UInt64)? {
            guard items.indices.contains(head) else { return nil }
            let item = items[head]
            head += 1
            if head >= 64 && head * 2 >= items.count {
                items.removeFirst(head)
                head = 0
            }
            return item
        }
    }

    private var lanes: [PrefetchPriority: Lane] = [:]
    private var entries: [String: (priority: PrefetchPriority, ticket: UInt64)] = [:]
    private var nextTicket: UInt64 = 0

    public init() {}

    /// Queued URLs.
    public var count: Int { entries.count }
    public var isEmpty: Bool { entries.isEmpty }

    public func contains(_ url: String) -> Bool { entries[url] != nil }

    public func priority(of url: String) -> PrefetchPriority? { entries[url]?.priority }

    /// Queues `url` at `priority` (or raises it to `priority`).
    public mutating func push(_ url: String, priority: PrefetchPriority) {
        if let current = entries[url], current.priority >= priority { return }
        nextTicket &+= 1
        entries[url] = (priority, nextTicket)
        lanes[priority, default: Lane()].append(url, nextTicket)
    }

    /// Takes `url` out of the queue; false when it was not queued.
    @discardableResult
    public mutating func remove(_ url: String) -> Bool {
        guard entries.removeValue(forKey: url) != nil else { return false }
        if entries.isEmpty { lanes.removeAll() }
        return true
    }

    /// The next URL to load: the oldest of the highest priority.
    public mutating func pop() -> String? {
        for priority in PrefetchPriority.allCases.reversed() {
            while let item = lanes[priority]?.popFirst() {
                if let entry = entries[item.url], entry.ticket == item.ticket {
                    entries[item.url] = nil
                    return item.url
                }
            }
        }
        lanes.removeAll()
        return nil
    }

    public mutating func removeAll() {
        lanes.removeAll()
        entries.removeAll()
    }
}
