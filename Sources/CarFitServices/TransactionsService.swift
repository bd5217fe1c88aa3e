import CarFitCore
import CarFitStore

/// The transactions and insights use-cases.
public struct TransactionsService {
    public let transactions: TransactionStore

    public init(transactions: TransactionStore) {
        self.transactions = transactions
    }

    /// Upserts the document's valid records; rejected ones are reported by index.
    public func importTransactions(_ request: Fields) throws(CarFitError) -> JSON {
        let batch = try TransactionBatch(document: request)
        try transactions.upsert(batch.records)
        return batch.response
    }

    /// One category's transactions (or all), the category bar, the count and the pinned sum.
    public func list(_ request: Fields) throws(CarFitError) -> JSON {
        let selected = try TransactionList.selectedCategory(request)
        let rows = try transactions.transactions(category: selected == TransactionCategories.all ? nil : selected)
        return TransactionList(selected: selected, transactions: rows, present: try transactions.categories()).json
    }

    /// Pins or unpins one transaction: `{"id", "pinned"}`, both required.
    public func pin(_ request: Fields) throws(CarFitError) -> JSON {
        guard let idValue = request.value("id") else { throw .invalid("id", "id is required.") }
        let id = try TransactionID(json: idValue, field: "id")
        guard let pinned = try request.bool("pinned") else {
            throw .invalid("pinned", "pinned is required: true to pin, false to unpin.")
        }
        guard try transactions.setPinned(id, pinned), let stored = try transactions.transaction(id) else {
            throw CarFitError(.notFound, "No transaction has the id \(id) (ids keep their JSON type: 1 and \"1\" differ).", field: "id")
        }
        return .obj(["transaction": stored.json])
    }

    /// Per category, the pinned transactions' total, count and share of the grand total.
    public func insights() throws(CarFitError) -> JSON {
        Insights(pinned: try transactions.pinnedAmounts(), present: try transactions.categories()).json
    }
}
