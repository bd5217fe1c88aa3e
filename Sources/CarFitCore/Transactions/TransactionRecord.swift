/// A validated import record: the transaction and whether the record said `pinned` (absent
/// means "new: pinned; existing: keep the user's choice").
public struct TransactionRecord: Sendable, Equatable {
    public var transaction: Transaction
    public var pinned: Bool?

    public init(transaction: Transaction, pinned: Bool?) {
        self.transaction = transaction
        self.pinned = pinned
    }

    /// The pin to store, given the stored pin of the same id (nil: a new transaction): the
    /// record's own `pinned` when it has one, else the user's current choice, else pinned.
    public func pinned(existing: Bool?) -> Bool {
        pinned ?? existing ?? true
    }
}
