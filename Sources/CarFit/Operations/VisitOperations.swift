import CarFitCore

extension Core {
    /// Replaces the stored snapshot with the document's valid records, streaming the usual
    /// shape and parsing anything else whole.
    func importVisits(_ bytes: UnsafeRawBufferPointer) throws(CarFitError) -> JSON {
        if let response = try VisitDocumentStream.importVisits(bytes, into: visits, threads: config.importThreads) { return response }
        return try importVisits(try Boundary.parse(bytes))
    }

    /// Replaces the stored snapshot with the document's valid records.
    func importVisits(_ request: Fields) throws(CarFitError) -> JSON {
        let snapshot = try VisitSnapshot(document: request)
        try visits.replaceAll(with: snapshot.visits)
        return snapshot.response
    }

    /// The cards of the asked days (else the calendar's selection), each day once, in order,
    /// written straight from the stored rows.
    func listVisits(_ request: Fields) throws(CarFitError) -> JSONBuffer {
        let dates = try requestedDays(request, key: "dates") ?? calendar.selectedDays
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

    /// The visits whose local start day is `date`, in start order (ties in snapshot order).
    func visitsOn(_ date: CivilDate, employeeId: String?) throws(CarFitError) -> [Visit] {
        try visits.visits(startingIn: clock.dayRange(for: date), employeeId: employeeId)
            .filter { clock.localDate($0.start) == date }
    }

    /// A request's list of ISO days, duplicates dropped (first kept); nil when absent.
    func requestedDays(_ request: Fields, key: String) throws(CarFitError) -> [CivilDate]? {
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
