import CarFitCore
import CarFitIO
import CarFitStore

/// Documents the core has already worked out from the database, kept with their encoded text
/// while the database is unchanged, so asking again costs a lookup and a copy of bytes:
/// the calendar's month documents and the visits per local day behind them (a busy month is
/// thousands of rows and a zone lookup for each), and each employee's cart.
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

    private var documents: [Key: JSON] = [:]
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

    /// The document of `key` while the database is at `current`, from `build` when not cached.
    public func document(_ key: Key, at current: Database.ChangeStamp,
                         build: () throws(CarFitError) -> JSON) throws(CarFitError) -> JSON {
        validate(current)
        if let cached = documents[key] { return cached }
        let json = try build().keepingEncoding()
        if documents.count >= DocumentCache.capacity { documents.removeAll(keepingCapacity: true) }
        documents[key] = json
        return json
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
