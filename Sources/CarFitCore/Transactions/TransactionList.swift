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
