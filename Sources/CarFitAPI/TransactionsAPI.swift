import CarFitCore
import CarFitIO
import CarFitServices

/// The transactions and insights operations: their requests read, their documents written.
public enum TransactionsAPI {
    public static func importTransactions(_ service: TransactionsService, _ request: Fields) throws(CarFitError) -> JSON {
        let batch = try TransactionBatch(document: request)
        try service.importTransactions(batch)
        return batch.summary.json
    }

    public static func list(_ service: TransactionsService, _ request: Fields) throws(CarFitError) -> JSON {
        try service.list(category: try TransactionsListRequest(request).category).json(service.display)
    }

    public static func pin(_ service: TransactionsService, _ request: Fields) throws(CarFitError) -> JSON {
        let r = try PinRequest(request)
        return PinnedAnswer(transaction: try service.pin(r.id, pinned: r.pinned), display: service.display).json
    }

    public static func insights(_ service: TransactionsService) throws(CarFitError) -> JSON {
        try service.insights().json(service.display)
    }
}

// MARK: - Requests

/// `transactions.list`: `{"category"?}`: "all" when absent or null; otherwise trimmed and
/// lower-cased as stored ("Food" lists "food"); blank is `invalid`.
public struct TransactionsListRequest: APIRequest {
    public var category: String
    public init(_ f: Fields) throws(CarFitError) {
        guard let text = try f.string("category") else {
            category = TransactionCategories.all
            return
        }
        let c = text.trimmed.lowercased()
        guard !c.isEmpty else { throw .invalid("category", "category must be \"all\" or a category name, not empty.") }
        category = c
    }
}

/// `transactions.pin`: `{"id", "pinned"}`, both required; the id keeps its JSON type.
public struct PinRequest: APIRequest {
    public var id: TransactionID
    public var pinned: Bool
    public init(_ f: Fields) throws(CarFitError) {
        guard let idValue = f.value("id") else { throw .invalid("id", "id is required.") }
        id = try TransactionID(json: idValue, field: "id")
        guard let pinned = try f.bool("pinned") else {
            throw .invalid("pinned", "pinned is required: true to pin, false to unpin.")
        }
        self.pinned = pinned
    }
}

// MARK: - Responses

extension TransactionID: APIResponse {
    /// The id in its JSON type: `1` or `"1"`.
    public var json: JSON {
        switch self {
        case .int(let i): .int(i)
        case .string(let s): .string(s)
        }
    }
}

extension JSON {
    /// `object` with `member` set to the amount `cents` as `display` writes it, when it writes
    /// amounts (with a locale); else `object` as it is.
    static func money(_ object: JSON, _ member: String, cents: Int128, _ display: DisplayLocale) -> JSON {
        guard let text = display.moneyText(cents: cents), case .object(var o) = object else { return object }
        o[member] = .string(text)
        return .object(o)
    }
}

extension Transaction: APIResponse {
    /// `{"id", "name", "category", "amount", "date", "accountName", "provider", "pinned"}`
    public var json: JSON { json(DisplayLocale(hour24: true)) }

    /// As `json`, with `amountText` when `display` has a locale.
    public func json(_ display: DisplayLocale) -> JSON {
        .money(.obj([
            "id": id.json,
            "name": .str(name),
            "category": .string(category),
            "amount": .double(amount.double),
            "date": .string(date.description),
            "accountName": .str(accountName),
            "provider": .str(provider),
            "pinned": .bool(pinned),
        ]), "amountText", cents: Int128(amount.cents), display)
    }
}

/// `{"transaction"}`: `transactions.pin`.
public struct PinnedAnswer: APIResponse {
    public var transaction: Transaction
    public var display: DisplayLocale
    public init(transaction: Transaction, display: DisplayLocale = DisplayLocale(hour24: true)) {
        self.transaction = transaction
        self.display = display
    }
    public var json: JSON { .obj(["transaction": transaction.json(display)]) }
}

extension TransactionList: APIResponse {
    /// `{"category", "categories", "transactions", "count", "sum", "pinnedCount"}`
    public var json: JSON { json(DisplayLocale(hour24: true)) }

    /// As `json`, with `amountText` and `sumText` when `display` has a locale.
    public func json(_ display: DisplayLocale) -> JSON {
        .money(.obj([
            "category": .string(category),
            "categories": .array(categories.map(JSON.string)),
            "transactions": .array(transactions.map { $0.json(display) }),
            "count": .int(Int64(transactions.count)),
            "sum": .double(sum.double),
            "pinnedCount": .int(Int64(pinnedCount)),
        ]), "sumText", cents: sum.cents, display)
    }
}

extension Insights: APIResponse {
    /// `{"categories": [{"category", "total", "count", "share"}], "total", "count"}`
    public var json: JSON { json(DisplayLocale(hour24: true)) }

    /// As `json`, with `sumText` beside each total when `display` has a locale.
    public func json(_ display: DisplayLocale) -> JSON {
        .money(.obj([
            "categories": .array(rows.map { row in
                .money(.obj([
                    "category": .string(row.category),
                    "total": .double(row.total.double),
                    "count": .int(Int64(row.count)),
                    "share": .double(MoneySum.share(row.total, of: total)),
                ]), "sumText", cents: row.total.cents, display)
            }),
            "total": .double(total.double),
            "count": .int(Int64(count)),
        ]), "sumText", cents: total.cents, display)
    }
}

/// The entry points of the operation table (`Manifest.operations`), one per operation, named
/// after its verb: each picks from the core what the function above needs.
extension TransactionsAPI {
    public static func `import`(_ context: some OperationContext, _ request: Fields) throws(CarFitError) -> JSON {
        try importTransactions(context.transactions, request)
    }
    public static func list(_ context: some OperationContext, _ request: Fields) throws(CarFitError) -> JSON {
        try list(context.transactions, request)
    }
    public static func pin(_ context: some OperationContext, _ request: Fields) throws(CarFitError) -> JSON {
        try pin(context.transactions, request)
    }
}

/// The insights operation: `insights.get` (its API is `TransactionsAPI`'s).
public enum InsightsAPI {
    public static func get(_ context: some OperationContext, _ request: Fields) throws(CarFitError) -> JSON {
        try TransactionsAPI.insights(context.transactions)
    }
}
