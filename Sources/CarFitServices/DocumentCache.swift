import CarFitCore
import CarFitStore

/// Answers the core has already worked out from the database, kept while the database is
/// unchanged, so asking again costs a lookup: the calendar's month answers and the visits per
/// local day behind them (a busy month is thousands of rows and a zone lookup for each), and
/// each employee's cart. A value is cached as its builder made it (the API layer keeps its
/// documents' encoded text with them, so a cached answer costs a copy of bytes).
///
/// Every lookup takes the database's current change stamp (`Database.ChangeStamp`: any write
/// through this core's connection, any commit by another connection changes it) and starts
/// over when it differs from the one the cache was filled under, so a stale document cannot be
/// served: there is no lookup without a stamp.
public final class DocumentCache {
    /// What a document depends on besides the stored data.
    public enum Key: Hashable {
        case month(YearMonth, today: CivilDate?, selected: [CivilDate])
        case cart(employee: Int64)
    }

    private var documents: [Key: any Sendable] = [:]
    private var counts: [YearMonth: [CivilDate: Int]] = [:]
    private var stamp: Database.ChangeStamp?

    /// Entries kept at most of each kind; past it the cache starts over.
    static let capacity = 64

    public init() {}

    /// Forgets everything unless `current` is the stamp the cache was filled under.
    private func validate(_ current: Database.ChangeStamp) {
        guard stamp != current else { return }
        documents.removeAll(keepingCapacity: true)
        counts.removeAll(keepingCapacity: true)
        stamp = current
    }

    /// The value of `key` while the database is at `current`, from `build` when not cached
    /// (or cached as another type).
    public func value<Value: Sendable>(_ key: Key, at current: Database.ChangeStamp,
                                       build: () throws(CarFitError) -> Value) throws(CarFitError) -> Value {
        validate(current)
        if let cached = documents[key] as? Value { return cached }
        let value = try build()
        if documents.count >= DocumentCache.capacity { documents.removeAll(keepingCapacity: true) }
        documents[key] = value
        return value
    }

    /// The visits per local day of `month` while the database is at `current`, from `count`
    /// the first time.
    public func counts(of month: YearMonth, at current: Database.ChangeStamp,
                       count: () throws(CarFitError) -> [CivilDate: Int]) throws(CarFitError) -> [CivilDate: Int] {
        validate(current)
        if let cached = counts[month] { return cached }
        let value = try count()
        if counts.count >= DocumentCache.capacity { counts.removeAll(keepingCapacity: true) }
        counts[month] = value
        return value
    }
}
