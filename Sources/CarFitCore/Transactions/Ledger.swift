/// The transactions screen: one category's transactions (or all), the category bar, the count
/// and the floating sum of the pinned ones.
public struct TransactionList: Sendable {
    public var category: String
    public var categories: [String]
    public var transactions: [Transaction]
    public var sum: MoneySum
    public var pinnedCount: Int

    /// `selected`: the category listed ("all" for every one); `transactions`: that category's
    /// transactions, in any order; `present`: every category in the data.
    public init(selected: String, transactions: [Transaction], present: some Sequence<String>) {
        category = selected
        categories = TransactionCategories.bar(present)
        self.transactions = transactions.sorted(by: Transaction.listOrder)
        var sum = MoneySum()
        var pinned = 0
        for t in transactions where t.pinned {
            sum.add(t.amount)
            pinned += 1
        }
        self.sum = sum
        pinnedCount = pinned
    }

    /// The category a list request names: "all" when absent or null; otherwise trimmed and
    /// lower-cased as stored ("Food" lists "food").
    public static func selectedCategory(_ f: Fields) throws(CarFitError) -> String {
        guard let text = try f.string("category") else { return TransactionCategories.all }
        let c = text.trimmed.lowercased()
        guard !c.isEmpty else { throw .invalid("category", "category must be \"all\" or a category name, not empty.") }
        return c
    }

    public var json: JSON {
        .obj([
            "category": .string(category),
            "categories": .array(categories.map(JSON.string)),
            "transactions": .array(transactions.map(\.json)),
            "count": .int(Int64(transactions.count)),
            "sum": .double(sum.double),
            "pinnedCount": .int(Int64(pinnedCount)),
        ])
    }
}

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

    public var json: JSON {
        .obj([
            "categories": .array(rows.map { row in
                .obj([
                    "category": .string(row.category),
                    "total": .double(row.total.double),
                    "count": .int(Int64(row.count)),
                    "share": .double(MoneySum.share(row.total, of: total)),
                ])
            }),
            "total": .double(total.double),
            "count": .int(Int64(count)),
        ])
    }
}
