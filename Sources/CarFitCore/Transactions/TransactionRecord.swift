/// A validated import record: the transaction and whether the record said `pinned` (absent
/// means "new: pinned; existing: keep the user's choice").
public struct TransactionRecord: Sendable, Equatable {
    public var transaction: Transaction
    public var pinned: Bool?

    /// The pin to store, given the stored pin of the same id (nil: a new transaction): the
    /// record's own `pinned` when it has one, else the user's current choice, else pinned.
    public func pinned(existing: Bool?) -> Bool {
        pinned ?? existing ?? true
    }

    /// Validates one record (`transactions[index]`). Required: `id` (integer or string),
    /// `category` (non-empty string, not "all"), `amount` (at most two decimals) and `date`
    /// (`YYYY-MM-DD`). `name`, `accountName`, `provider` are optional strings, `pinned` an
    /// optional boolean.
    public static func decode(_ value: JSON, index: Int) -> Result<TransactionRecord, Rejection> {
        RecordImport.decode(value, index: index, decode)
    }

    static func decode(_ f: Fields) throws(CarFitError) -> TransactionRecord {
        guard let idValue = f.value("id") else { throw .invalid("id", "id is required.") }
        let id = try TransactionID(json: idValue, field: "id")
        let category = try TransactionCategories.normalized(try f.requiredString("category"), field: "category")
        guard let amountValue = f.value("amount") else { throw .invalid("amount", "amount is required.") }
        let amount = try Money(json: amountValue, field: "amount")
        let dateText = try f.requiredString("date")
        guard let date = CivilDate(iso: dateText) else {
            throw .invalid("date", "date \"\(dateText.prefix(40))\" is not a valid date (YYYY-MM-DD, years 1 to 9999).")
        }
        let pinned = try f.bool("pinned")
        let transaction = Transaction(
            id: id, name: try f.string("name"), category: category, amount: amount, date: date,
            accountName: try f.string("accountName"), provider: try f.string("provider"),
            pinned: pinned ?? true)
        return TransactionRecord(transaction: transaction, pinned: pinned)
    }
}
