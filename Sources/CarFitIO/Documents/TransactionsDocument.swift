import CarFitCore

/// The transactions document, `{"transactions": [...]}`, read into a `TransactionBatch`: each
/// record validated on its own (`TransactionsDocument.record`), the rejected ones listed.
extension RecordImport where Record == TransactionRecord {
    /// A document without the `transactions` array is `invalid` (nothing stored).
    public init(document f: Fields) throws(CarFitError) {
        guard let value = f.object["transactions"], case .array(let items) = value else {
            throw .invalid("transactions", "The document has no transactions array.")
        }
        self.init(items, decode: TransactionsDocument.record)
    }
}

public enum TransactionsDocument {
    /// Validates one record (`transactions[index]`). Required: `id` (integer or string),
    /// `category` (non-empty string, not "all"), `amount` (at most two decimals) and `date`
    /// (`YYYY-MM-DD`). `name`, `accountName`, `provider` are optional strings, `pinned` an
    /// optional boolean.
    public static func record(_ value: JSON, index: Int) -> Result<TransactionRecord, Rejection> {
        RecordImport.decode(value, index: index, record)
    }

    static func record(_ f: Fields) throws(CarFitError) -> TransactionRecord {
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

extension TransactionID {
    /// Reads an id: an integer (a real without fraction within ±2^53 counts as one) or a
    /// non-empty string of at most 256 bytes. The JSON type is part of the id.
    public init(json value: JSON, field: String) throws(CarFitError) {
        switch value {
        case .int(let i): self = .int(i)
        case .double(let d): self = try TransactionID(number: d, field: field)
        case .string(let s): self = try TransactionID(text: s, field: field)
        default: throw TransactionID.invalid(field)
        }
    }
}

extension Money {
    /// Reads an amount: a JSON integer, a JSON real with at most two decimals, or a decimal
    /// string (`"54.60"`, `"-3"`, `"0.5"`). Anything else, or more than `limit`, is `invalid`.
    public init(json value: JSON, field: String) throws(CarFitError) {
        switch value {
        case .int(let i): self = try Money(whole: i, field: field)
        case .double(let x): self = try Money(number: x, field: field)
        case .string(let s): self = try Money(text: s, field: field)
        default: throw Money.notAnAmount(field)
        }
    }
}
