/// A transaction's id as the source gives it: a JSON integer or a string. The JSON type is part
/// of the id, so `1` and `"1"` are two different transactions; responses echo the id with its
/// type. Integer ids sort numerically before string ids; strings sort by code point.
public enum TransactionID: Sendable, Hashable, Comparable, CustomStringConvertible {
    case int(Int64)
    case string(String)

    /// Reads an id: an integer (a real without fraction within ±2^53 counts as one) or a
    /// non-empty string of at most 256 bytes.
    public init(json value: JSON, field: String) throws(CarFitError) {
        switch value {
        case .int(let i): self = .int(i)
        case .double(let d) where d.rounded() == d && abs(d) <= 9_007_199_254_740_992:
            guard let i = Int64(exactly: d) else { throw TransactionID.invalid(field) }
            self = .int(i)
        case .string(let s):
            guard !s.isEmpty, s.utf8.count <= 256, !s.utf8.contains(0) else {
                throw CarFitError.invalid(field, "\(field) must be a non-empty string of at most 256 bytes without NUL, or an integer.")
            }
            self = .string(s)
        default:
            throw TransactionID.invalid(field)
        }
    }

    static func invalid(_ field: String) -> CarFitError {
        .invalid(field, "\(field) must be an integer or a string.")
    }

    public var json: JSON {
        switch self {
        case .int(let i): .int(i)
        case .string(let s): .string(s)
        }
    }

    /// `1` or `"1"`, as a message quotes it.
    public var description: String {
        switch self {
        case .int(let i): String(i)
        case .string(let s): "\"" + String(s.prefix(60)) + "\""
        }
    }

    public static func < (a: TransactionID, b: TransactionID) -> Bool {
        switch (a, b) {
        case (.int(let x), .int(let y)): x < y
        case (.int, .string): true
        case (.string, .int): false
        case (.string(let x), .string(let y)): Array(x.unicodeScalars.map(\.value)).lexicographicallyPrecedes(y.unicodeScalars.map(\.value))
        }
    }
}

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

    /// `{"id", "name", "category", "amount", "date", "accountName", "provider", "pinned"}`
    public var json: JSON {
        .obj([
            "id": id.json,
            "name": .str(name),
            "category": .string(category),
            "amount": .double(amount.double),
            "date": .string(date.description),
            "accountName": .str(accountName),
            "provider": .str(provider),
            "pinned": .bool(pinned),
        ])
    }

    /// The list order: newest date first, then id ascending.
    public static func listOrder(_ a: Transaction, _ b: Transaction) -> Bool {
        a.date != b.date ? a.date > b.date : a.id < b.id
    }
}

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

/// The valid records of an import document and the rejected ones.
public typealias TransactionBatch = RecordImport<TransactionRecord>

extension RecordImport where Record == TransactionRecord {
    /// `{"transactions": [...]}`; a document without that array is `invalid` (nothing stored).
    public init(document f: Fields) throws(CarFitError) {
        guard let value = f.object["transactions"], case .array(let items) = value else {
            throw .invalid("transactions", "The document has no transactions array.")
        }
        self.init(items, decode: TransactionRecord.decode)
    }

    public var records: [TransactionRecord] { accepted }
}

/// The category bar: "all", the challenge's five in its order, then the other categories of the
/// data alphabetically (by code point; categories are stored lower-case).
public enum TransactionCategories {
    public static let all = "all"
    public static let standard = ["food", "health", "entertainment", "shopping", "travel"]

    /// The categories without "all": the five, then `others` (minus the five) sorted.
    public static func ordered(_ present: some Sequence<String>) -> [String] {
        let fixed = Set(standard)
        let extra = Set(present).subtracting(fixed).subtracting([all])
            .sorted { $0.unicodeScalars.map(\.value).lexicographicallyPrecedes($1.unicodeScalars.map(\.value)) }
        return standard + extra
    }

    /// The bar: `["all"] + ordered(present)`.
    public static func bar(_ present: some Sequence<String>) -> [String] { [all] + ordered(present) }

    /// A category as stored: trimmed, lower-cased, non-empty and not "all".
    public static func normalized(_ text: String, field: String) throws(CarFitError) -> String {
        let c = text.trimmed.lowercased()
        guard !c.isEmpty else { throw .invalid(field, "\(field) must not be empty.") }
        guard c != all else { throw .invalid(field, "\(field) \"all\" is reserved for the whole list; use another name.") }
        guard c.utf8.count <= 256, !c.utf8.contains(0) else { throw .invalid(field, "\(field) must be at most 256 bytes long, without NUL.") }
        return c
    }
}
