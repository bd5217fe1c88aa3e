import CarFitCore
import CarFitStore

/// What the calendar has already worked out, kept while the database is unchanged: visits per
/// local day of the months it has shown (a busy month is thousands of rows and a zone lookup for
/// each) and the month documents themselves with their encoded text, so re-reading the calendar
/// or paging back and forth neither counts a month again nor rebuilds or re-encodes its document.
///
/// Any write through this core's connection and any commit by another connection (another core,
/// another process) empties it: see `Database.ChangeStamp`. A document is reused only for the
/// same month, today and selection.
final class CalendarCache {
    private struct Document {
        var today: CivilDate?
        var selected: [CivilDate]
        var json: JSON
    }

    private var counts: [YearMonth: [CivilDate: Int]] = [:]
    private var documents: [YearMonth: Document] = [:]
    private var stamp: Database.ChangeStamp?

    /// Months kept at most; past it the cache starts over.
    static let capacity = 48

    /// Forgets everything unless `current` is the stamp the cache was filled under.
    func validate(_ current: Database.ChangeStamp) {
        guard stamp != current else { return }
        counts.removeAll(keepingCapacity: true)
        documents.removeAll(keepingCapacity: true)
        stamp = current
    }

    /// The counts of `month`, from `count` the first time.
    func counts(of month: YearMonth, count: () throws(CarFitError) -> [CivilDate: Int]) throws(CarFitError) -> [CivilDate: Int] {
        if let cached = counts[month] { return cached }
        let value = try count()
        if counts.count >= CalendarCache.capacity { counts.removeAll(keepingCapacity: true) }
        counts[month] = value
        return value
    }

    /// The document of `month` for this today and selection, from `build` when not cached.
    func document(of month: YearMonth, today: CivilDate?, selected: [CivilDate],
                  build: () throws(CarFitError) -> JSON) throws(CarFitError) -> JSON {
        if let cached = documents[month], cached.today == today, cached.selected == selected { return cached.json }
        let json = try build().keepingEncoding()
        if documents.count >= CalendarCache.capacity { documents.removeAll(keepingCapacity: true) }
        documents[month] = Document(today: today, selected: selected, json: json)
        return json
    }
}
