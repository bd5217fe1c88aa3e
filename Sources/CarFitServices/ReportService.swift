import CarFitCore
import CarFitStore

/// Time on the job: a day's time report (planned against worked, on site, late and driving) and
/// the durations learned from the washer's finished visits.
public struct ReportService {
    public let visits: VisitsService

    public init(visits: VisitsService) {
        self.visits = visits
    }

    /// The report of `date`'s cards (default today by the core's clock), in card order, the
    /// removed ones that are still listed included (`VisitsService.cardsOn`).
    public func day(_ date: CivilDate?) throws(CarFitError) -> DayReport {
        guard let date = date ?? visits.clock.today else {
            throw CarFitError(.internal, "The core's clock has no local date.")
        }
        let range = visits.clock.dayRange(for: date)
        let cards = try visits.cardsOn(date, employeeId: nil).map(\.visit)
        let facts = try FactStore(visits.db).facts(startingIn: range)
        let arrivals = try LocationStore(visits.db).arrivals(startingIn: range)
        return DayReport(date: date, cards: cards.map { visit in
            let key = VisitKey(visitId: visit.visitId, start: visit.start, repetition: visit.repetition)
            return DayReport.Card(key: key, visitId: visit.visitId, name: visit.name, state: visit.state,
                                  plannedMinutes: visit.taskMinutes, facts: facts[key.text] ?? VisitFacts(),
                                  arrival: arrivals[key])
        })
    }

    /// The learned durations of every task title with a sample, sorted by title.
    public func durations() throws(CarFitError) -> [TaskDurations.Task] {
        try visits.learnedDurations()
    }
}

extension VisitsService {
    /// The durations learned from the kept facts (those of visits started within
    /// `report.keepDays` days of the core's clock).
    public func learnedDurations() throws(CarFitError) -> [TaskDurations.Task] {
        let since = FactStore.cutoff(keepDays: report.keepDays, now: clock.now)
        return TaskDurations.tasks(try FactStore(db).finished(since: since))
    }

    /// `visits` with each one's taskMinutes replaced by its learned service minutes.
    func learned(_ visits: [Visit]) throws(CarFitError) -> [Visit] {
        var byTitle: [String: TaskDurations.Task] = [:]
        for task in try learnedDurations() { byTitle[task.title] = task }
        let minSamples = report.minSamples
        return visits.map { visit in
            var v = visit
            if !v.plannedTasks.isEmpty {
                v.taskMinutes = TaskDurations.serviceMinutes(v.plannedTasks, learned: byTitle, minSamples: minSamples)
            }
            return v
        }
    }
}
