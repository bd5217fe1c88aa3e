import CarFitCore
import CarFitStore

/// Time to leave: when the washer must set out for each open visit of a day.
public struct RemindersService {
    public let visits: VisitsService
    public let config: RemindersConfig

    public init(visits: VisitsService, config: RemindersConfig) {
        self.visits = visits
        self.config = config
    }

    /// The reminders of `date` (default today by the core's clock), sorted by leaveAt, then key.
    public func list(_ date: CivilDate?) throws(CarFitError) -> (date: CivilDate, reminders: [LeaveReminders.Reminder]) {
        let clock = visits.clock
        guard let date = date ?? clock.today else {
            throw CarFitError(.internal, "The core's clock has no local date.")
        }
        let range = clock.dayRange(for: date)
        let arrivals = try LocationStore(visits.db).arrivals(startingIn: range)
        let cards = try visits.cardsOn(date, employeeId: nil).map { visit, removed in
            let key = VisitKey(visitId: visit.visitId, start: visit.start, repetition: visit.repetition)
            return LeaveReminders.Card(key: key, name: visit.name, address: visit.address, state: visit.state,
                                       latitude: visit.latitude, longitude: visit.longitude, arrived: arrivals[key] != nil,
                                       removed: removed)
        }
        let today = date == clock.today
        let position = today ? try LocationStore(visits.db).state().position : nil
        return (date, LeaveReminders.list(cards, today: today, position: position, now: clock.now, config: config))
    }
}
