import CarFitCore
import CarFitIO
import CarFitStore

/// The visits use-cases: import (streamed or whole), the day list, the refresh from the
/// configured source and the day plan.
public struct VisitsService {
    public let visits: VisitStore
    public let clock: Clock
    /// Threads a large import parses on besides the calling thread.
    public let importThreads: Int

    public init(visits: VisitStore, clock: Clock, importThreads: Int) {
        self.visits = visits
        self.clock = clock
        self.importThreads = importThreads
    }

    /// Replaces the stored snapshot with the document's valid records, streaming the usual
    /// shape and parsing anything else whole. `progress`, when given, hears how many of the
    /// bytes are read, and the complete count once the import has succeeded.
    public func importVisits(_ bytes: UnsafeRawBufferPointer, progress: ProgressReporter? = nil) throws(CarFitError) -> JSON {
        let store = visits
        if case .imported(let response) = try VisitDocumentStream.importVisits(
            bytes, threads: importThreads, progress: { done in progress?.advance(to: Int64(done)) },
            begin: { () throws(CarFitError) in try store.beginSnapshot() }) {
            progress?.finish()
            return response
        }
        let response = try importVisits(try JanssonParser.object(bytes))
        progress?.finish()
        return response
    }

    /// Replaces the stored snapshot with the document's valid records.
    public func importVisits(_ request: Fields) throws(CarFitError) -> JSON {
        let snapshot = try VisitSnapshot(document: request)
        try visits.replaceAll(with: snapshot.visits)
        return snapshot.response
    }

    /// The cards of the asked days (else `selected`, the calendar's selection), each day once,
    /// in order, written straight from the stored rows.
    public func list(_ request: Fields, selected: [CivilDate]) throws(CarFitError) -> JSONBuffer {
        let dates = try VisitsService.requestedDays(request, key: "dates") ?? selected
        let employee = try request.string("employeeId")
        let hour24 = try request.bool("hour24") ?? clock.hour24
        let store = visits
        var writer = DayListWriter(clock: clock, hour24: hour24)
        for date in dates {
            try writer.writeDay(date) { range, add throws(CarFitError) in
                try store.forEachVisit(startingIn: range, employeeId: employee, add)
            }
        }
        return writer.finish()
    }

    /// Fetches `source` and imports it as `importVisits` does: the document is read by the
    /// import's streaming reader, which commits the snapshot only after the document's last
    /// byte; anything that reader does not take is parsed whole, so that a document that is not
    /// a visits document is reported as such. Any failure leaves the stored visits as they
    /// were. `lock` is taken only once the body has arrived.
    public func refresh(source: String?, timeoutMs: Int, lock: some Serializer) throws(CarFitError) -> JSON {
        guard let url = source else {
            throw .invalid("sources.visits", "No visits source is configured: set sources.visits when opening the core.")
        }
        let body = try SourceFetch.fetch(url, timeoutMs: timeoutMs, what: "visits")
        let store = visits
        let threads = importThreads
        let streamed = body.bytes.withUnsafeBytes { bytes -> Result<StreamedImport, CarFitError> in
            do throws(CarFitError) {
                return .success(try lock.locked { () throws(CarFitError) in
                    try VisitDocumentStream.importVisits(
                        bytes, threads: threads, begin: { () throws(CarFitError) in try store.beginSnapshot() })
                })
            } catch {
                return .failure(error)
            }
        }
        switch streamed {
        case .success(.imported(let response)): return response
        case .failure(let error): throw error
        case .success(.declined): break
        }
        let document = try SourceFetch.document(body, what: "visits")
        let snapshot: VisitSnapshot
        do throws(CarFitError) {
            snapshot = try VisitSnapshot(document: document)
        } catch {
            throw SourceFetch.notDocument(url, what: "visits", error)
        }
        return try lock.locked { () throws(CarFitError) in
            try store.replaceAll(with: snapshot.visits)
            return snapshot.response
        }
    }

    /// The order to drive a day's open visits in, with arrival and departure times.
    public func plan(_ request: Fields) throws(CarFitError) -> JSON {
        let plan = try PlanRequest(request)
        let visits = try visitsOn(plan.date, employeeId: plan.employeeId)
        return try DayPlan(request: plan, visits: visits, clock: clock).json
    }

    /// The visits whose local start day is `date`, in start order (ties in snapshot order).
    public func visitsOn(_ date: CivilDate, employeeId: String?) throws(CarFitError) -> [Visit] {
        try visits.visits(startingIn: clock.dayRange(for: date), employeeId: employeeId)
            .filter { clock.localDate($0.start) == date }
    }

    /// A request's list of ISO days, duplicates dropped (first kept); nil when absent.
    public static func requestedDays(_ request: Fields, key: String) throws(CarFitError) -> [CivilDate]? {
        guard let texts = try request.strings(key) else { return nil }
        var seen = Set<CivilDate>()
        var out: [CivilDate] = []
        for (i, text) in texts.enumerated() {
            guard let date = CivilDate(iso: text) else {
                throw .invalid("\(key)[\(i)]", "\(key)[\(i)] \"\(text.prefix(40))\" is not a valid date (YYYY-MM-DD, years 1 to 9999).")
            }
            if seen.insert(date).inserted { out.append(date) }
        }
        return out
    }
}
