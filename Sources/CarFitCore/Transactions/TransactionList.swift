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
}
