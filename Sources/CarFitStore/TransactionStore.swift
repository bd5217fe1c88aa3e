import CarFitCore

/// The stored transactions, upserted by id. Both the list and the insights read this one table,
/// so a pin shows in both at once.
public struct TransactionStore {
    let db: Database

    public init(_ db: Database) { self.db = db }

    private static let columns = "id, name, category, amount_cents, date, account_name, provider, pinned"

    /// Upserts `records` in order (a repeated id: the later record wins) in one transaction.
    /// A record without `pinned` keeps the stored transaction's pin; a new one is pinned.
    public func upsert(_ records: [TransactionRecord]) throws(CarFitError) {
        try db.transaction { () throws(CarFitError) in
            for record in records {
                let existing = try pinned(record.transaction.id)
                try write(record.transaction, pinned: record.pinned(existing: existing))
            }
        }
    }

    private func write(_ t: Transaction, pinned: Bool) throws(CarFitError) {
        try db.run("""
            INSERT INTO transactions (\(TransactionStore.columns)) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8)
            ON CONFLICT (id) DO UPDATE SET name = excluded.name, category = excluded.category,
                amount_cents = excluded.amount_cents, date = excluded.date,
                account_name = excluded.account_name, provider = excluded.provider, pinned = excluded.pinned
            """, [TransactionStore.value(t.id), t.name.map(SQLValue.text) ?? .null, .text(t.category),
                  .int(t.amount.cents), .text(t.date.description), t.accountName.map(SQLValue.text) ?? .null,
                  t.provider.map(SQLValue.text) ?? .null, .int(pinned ? 1 : 0)])
    }

    /// The stored pin of `id`, or nil when there is no such transaction.
    public func pinned(_ id: TransactionID) throws(CarFitError) -> Bool? {
        try db.scalarInt("SELECT pinned FROM transactions WHERE id = ?1", [TransactionStore.value(id)]).map { $0 != 0 }
    }

    /// Sets the pin of `id`; false when there is no such transaction.
    public func setPinned(_ id: TransactionID, _ pinned: Bool) throws(CarFitError) -> Bool {
        try db.run("UPDATE transactions SET pinned = ?2 WHERE id = ?1", [TransactionStore.value(id), .int(pinned ? 1 : 0)])
        return db.changes > 0
    }

    public func transaction(_ id: TransactionID) throws(CarFitError) -> Transaction? {
        try read("SELECT \(TransactionStore.columns) FROM transactions WHERE id = ?1", [TransactionStore.value(id)]).first
    }

    /// Every transaction of `category` (nil: all), newest first then by id. (SQLite orders
    /// integer ids before text ids and text by its UTF-8 bytes, as `TransactionID` does; the
    /// list sorts again, which costs little on rows already in order.)
    public func transactions(category: String?) throws(CarFitError) -> [Transaction] {
        if let category {
            return try read("SELECT \(TransactionStore.columns) FROM transactions WHERE category = ?1 ORDER BY date DESC, id",
                            [.text(category)])
        }
        return try read("SELECT \(TransactionStore.columns) FROM transactions ORDER BY date DESC, id", [])
    }

    /// Every category present in the data, pinned or not.
    public func categories() throws(CarFitError) -> [String] {
        try db.query("SELECT DISTINCT category FROM transactions").compactMap {
            if case .text(let c)? = $0.first { return c }
            return nil
        }
    }

    /// Category and amount of every pinned transaction.
    public func pinnedAmounts() throws(CarFitError) -> [(category: String, amount: Money)] {
        let s = try db.statement("SELECT category, amount_cents FROM transactions WHERE pinned = 1")
        defer { s.reset() }
        var out: [(category: String, amount: Money)] = []
        while try s.step() {
            guard let category = s.text(0), let cents = s.int(1) else { throw damaged() }
            out.append((category, Money(cents: cents)))
        }
        return out
    }

    public func count() throws(CarFitError) -> Int {
        Int(try db.scalarInt("SELECT count(*) FROM transactions") ?? 0)
    }

    private func read(_ sql: String, _ arguments: [SQLValue]) throws(CarFitError) -> [Transaction] {
        let s = try db.statement(sql)
        defer { s.reset() }
        try s.bind(arguments)
        var out: [Transaction] = []
        while try s.step() {
            let id: TransactionID
            switch s.value(0) {
            case .int(let i): id = .int(i)
            case .text(let t): id = .string(t)
            default: throw damaged()
            }
            guard let category = s.text(2), let cents = s.int(3),
                  let dateText = s.text(4), let date = CivilDate(iso: dateText), let pinned = s.int(7) else {
                throw damaged()
            }
            out.append(Transaction(id: id, name: s.text(1), category: category, amount: Money(cents: cents),
                                   date: date, accountName: s.text(5), provider: s.text(6), pinned: pinned != 0))
        }
        return out
    }

    private func damaged() -> CarFitError {
        CarFitError(.storage, "A stored transaction is damaged; re-import the transactions.")
    }

    static func value(_ id: TransactionID) -> SQLValue {
        switch id {
        case .int(let i): .int(i)
        case .string(let s): .text(s)
        }
    }
}
