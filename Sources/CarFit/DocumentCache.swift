import CarFitCore
import CarFitStore

/// Documents the core has already worked out from the database, kept with their encoded text
/// while the database is unchanged, so asking again costs a lookup and a copy of bytes:
/// the calendar's month documents and the visits per local day behind them (a busy month is
/// thousands of rows and a zone lookup for each), and each employee's cart.
///
/// Any write through this core's connection and any commit by another connection (another core,
/// another process) empties it: see `Database.ChangeStamp`. Callers validate before each use.
final class DocumentCache {
    /// What a document depends on besides the stored data.
    enum Key: Hashable {
        case month(YearMonth, today: CivilDate?, selected: [CivilDate])
        case cart(employee: Int64)
    }

    private var documents: [Key: JSON] = [:]
    private var counts: [YearMonth: [CivilDate: Int]] = [:]
    private var stamp: Database.ChangeStamp?

    /// Entries kept at most of each kind; past it the cache starts over.
    static let capacity = 64

    /// Forgets everything unless `current` is the stamp the cache was filled under.
    func validate(_ current: Database.ChangeStamp) {
        guard stamp != current else { return }
        documents.removeAll(keepingCapacity: true)
        counts.removeAll(keepingCapacity: true)
        stamp = current
    }

    /// The document of `key`, from `build` when not cached.
    func document(_ key: Key, build: () throws(CarFitError) -> JSON) throws(CarFitError) -> JSON {
        if let cached = documents[key] { return cached }
        let json = try build().keepingEncoding()
        if documents.count >= DocumentCache.capacity { documents.removeAll(keepingCapacity: true) }
        documents[key] = json
        return json
    }

    /// The visits per local day of `month`, from `count` the first time.
    func counts(of month: YearMonth, count: () throws(CarFitError) -> [CivilDate: Int]) throws(CarFitError) -> [CivilDate: Int] {
        if let cached = counts[month] { return cached }
        let value = try count()
        if counts.count >= DocumentCache.capacity { counts.removeAll(keepingCapacity: true) }
        counts[month] = value
        return value
    }
}
