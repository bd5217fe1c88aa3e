/// A least-recently-used cache bounded by the total cost of its entries (bytes, for images).
///
/// Entries live in a doubly linked list threaded through an array (indices, not references), so
/// every operation is O(1) and nothing is allocated per lookup. Inserting evicts the least
/// recently used entries until the new one fits; an entry that costs more than the whole limit
/// is not stored at all, so `totalCost <= limit` holds after every call.
///
/// Not thread-safe: the owner guards it with its lock.
public struct LRUCache<Key: Hashable, Value> {
    private struct Node {
        var key: Key
        var value: Value
        var cost: Int64
        var newer: Int  // towards the most recently used end; -1 at the head
        var older: Int  // towards the least recently used end; -1 at the tail
    }

    /// Slots of the list; freed slots are reused through `free`.
    private var nodes: [Node?] = []
    private var free: [Int] = []
    private var index: [Key: Int] = [:]
    private var newest = -1
    private var oldest = -1

    /// The largest total cost the cache holds; 0 disables it.
    public let limit: Int64
    public private(set) var totalCost: Int64 = 0

    public init(limit: Int64) {
        self.limit = max(0, limit)
    }

    public var count: Int { index.count }

    public func contains(_ key: Key) -> Bool { index[key] != nil }

    /// The value for `key`, which becomes the most recently used entry.
    public mutating func value(for key: Key) -> Value? {
        guard let i = index[key], let node = node(i) else { return nil }
        unlink(i)
        pushNewest(i)
        return node.value
    }

    /// The value for `key` without changing the order.
    public func peek(_ key: Key) -> Value? {
        guard let i = index[key] else { return nil }
        return node(i)?.value
    }

    /// Stores `value` as the most recently used entry, replacing any entry for `key`, and evicts
    /// the least recently used entries until the total fits the limit. Returns the evicted
    /// entries (oldest first) and whether `value` was stored: an entry costing more than the
    /// limit (or a negative cost) is refused, and an older entry for `key` is then removed.
    @discardableResult
    public mutating func insert(_ key: Key, _ value: Value, cost: Int64) -> (stored: Bool, evicted: [(key: Key, value: Value)]) {
        var evicted: [(key: Key, value: Value)] = []
        remove(key)
        guard cost >= 0, cost <= limit else { return (false, evicted) }
        while totalCost > limit - cost, let (k, v) = removeOldest() {
            evicted.append((k, v))
        }
        let node = Node(key: key, value: value, cost: cost, newer: -1, older: -1)
        let i: Int
        if let slot = free.popLast(), nodes.indices.contains(slot) {
            nodes[slot] = node
            i = slot
        } else {
            nodes.append(node)
            i = nodes.count - 1
        }
        index[key] = i
        totalCost += cost
        pushNewest(i)
        return (true, evicted)
    }

    /// Removes the entry for `key`; returns its value.
    @discardableResult
    public mutating func remove(_ key: Key) -> Value? {
        guard let i = index[key], let node = node(i) else { return nil }
        unlink(i)
        release(i, node)
        return node.value
    }

    /// Removes and returns the least recently used entry.
    public mutating func removeOldest() -> (Key, Value)? {
        guard oldest >= 0, let node = node(oldest) else { return nil }
        let i = oldest
        unlink(i)
        release(i, node)
        return (node.key, node.value)
    }

    /// Keys from the most to the least recently used.
    public var keysByRecency: [Key] {
        var keys: [Key] = []
        keys.reserveCapacity(count)
        var i = newest
        while let node = node(i) {
            keys.append(node.key)
            i = node.older
        }
        return keys
    }

    public mutating func removeAll() {
        nodes.removeAll()
        free.removeAll()
        index.removeAll()
        newest = -1
        oldest = -1
        totalCost = 0
    }

    // MARK: - List plumbing

    private func node(_ i: Int) -> Node? {
        nodes.indices.contains(i) ? nodes[i] : nil
    }

    private mutating func release(_ i: Int, _ node: Node) {
        index[node.key] = nil
        if nodes.indices.contains(i) { nodes[i] = nil }
        free.append(i)
        totalCost -= node.cost
    }

    private mutating func unlink(_ i: Int) {
        guard let node = node(i) else { return }
        if node.newer >= 0 { setOlder(node.newer, node.older) } else { newest = node.older }
        if node.older >= 0 { setNewer(node.older, node.newer) } else { oldest = node.newer }
        setNewer(i, -1)
        setOlder(i, -1)
    }

    private mutating func pushNewest(_ i: Int) {
        setOlder(i, newest)
        setNewer(i, -1)
        if newest >= 0 { setNewer(newest, i) }
        newest = i
        if oldest < 0 { oldest = i }
    }

    private mutating func setNewer(_ i: Int, _ link: Int) {
        if nodes.indices.contains(i) { nodes[i]?.newer = link }
    }

    private mutating func setOlder(_ i: Int, _ link: Int) {
        if nodes.indices.contains(i) { nodes[i]?.older = link }
    }
}
