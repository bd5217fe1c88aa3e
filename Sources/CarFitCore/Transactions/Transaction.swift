/// One transaction as stored.
public struct Transaction: Sendable, Equatable {
    public var id: TransactionID
    public var name: String?
    /// Trimmed and lower-cased: categories match regardless of case ("Food" is "food").
    public var category: String
    public var amount: Money
    public var date: CivilDate
    public var accountName: String?
    public var provider: String?
    public var pinned: Bool

    public init(id: TransactionID, name: String?, category: String, amount: Money, date: CivilDate,
                accountName: String?, provider: String?, pinned: Bool) {
        self.id = id
        self.name = name
        self.category = category
        self.amount = amount
        self.date = date
        self.accountName = accountName
        self.provider = provider
        self.pinned = pinned
    }

    /// The list order: newest date first, then id ascending.
    public static func listOrder(_ a: Transaction, _ b: Transaction) -> Bool {
        a.date != b.date ? a.date > b.date : a.id < b.id
    }
}
