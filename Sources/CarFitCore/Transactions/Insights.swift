/// The insights screen: per category, the total and count of pinned transactions and its share
/// of the grand total.
public struct Insights: Sendable {
    public struct Row: Sendable, Equatable {
        public var category: String
        public var total: MoneySum
        public var count: Int
    }

    public var rows: [Row]
    public var total: MoneySum
    public var count: Int

    /// `pinned`: (category, amount) of every pinned transaction; `present`: every category in
    /// the data, pinned or not (each gets a row, also when zero).
    public init(pinned: some Sequence<(category: String, amount: Money)>, present: some Sequence<String>) {
        var totals: [String: MoneySum] = [:]
        var counts: [String: Int] = [:]
        var all = MoneySum()
        var n = 0
        var categories = Set(present)
        for (category, amount) in pinned {
            totals[category, default: MoneySum()].add(amount)
            counts[category, default: 0] += 1
            all.add(amount)
            n += 1
            categories.insert(category)
        }
        rows = TransactionCategories.ordered(categories).map {
            Row(category: $0, total: totals[$0] ?? MoneySum(), count: counts[$0] ?? 0)
        }
        total = all
        count = n
    }
}
