import CarFitCore
import CarFitStore

/// The transactions and insights use-cases.
public struct TransactionsService {
    public let transactions: TransactionStore
    /// How amounts are written (`amountText`, `sumText`).
    public var display = DisplayLocale(hour24: true)

    public init(transactions: TransactionStore) {
        self.transactions = transactions
    }

    /// Upserts the batch's valid records (a pin survives: the records say nothing of pins).
    public func importTransactions(_ batch: TransactionBatch) throws(CarFitError) {
        try transactions.upsert(batch.records)
    }

    /// One category's transactions (`TransactionCategories.all` for every one), the category
    /// bar, the count and the pinned sum.
    public func list(category selected: String) throws(CarFitError) -> TransactionList {
        let rows = try transactions.transactions(category: selected == TransactionCategories.all ? nil : selected)
        return TransactionList(selected: selected, transactions: rows, present: try transactions.categories())
    }

    /// Pins or unpins one transaction; an unknown id is `not_found`.
    public func pin(_ id: TransactionID, pinned: Bool) throws(CarFitError) -> Transaction {
        guard try transactions.setPinned(id, pinned), let stored = try transactions.transaction(id) else {
            throw CarFitError(.notFound, "No transaction has the id \(id) (ids keep their JSON type: 1 and \"1\" differ).", field: "id")
        }
        return stored
    }

    /// Per category, the pinned transactions' total, count and share of the grand total.
    public func insights() throws(CarFitError) -> Insights {
        Insights(pinned: try transactions.pinnedAmounts(), present: try transactions.categories())
    }
}
