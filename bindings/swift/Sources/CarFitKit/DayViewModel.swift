import Observation

/// The washer's day screen of the CarFit app, as a view model (MVVM): the selected date, the
/// calendar month, and the selected day's visit cards. A view renders these properties and sends
/// the user's intents; the model re-loads when the core's change feed says the visits or the
/// calendar changed (another screen, a refresh, another process on the same database).
@MainActor
@Observable
public final class DayViewModel {
    /// The selected day, YYYY-MM-DD ("" before the first load).
    public private(set) var selectedDate = ""
    /// The calendar's displayed month.
    public private(set) var calendar: Month?
    /// The selected day's cards in start order.
    public private(set) var cards: [Card] = []
    /// The selected day's summary.
    public private(set) var summary: Summary?
    /// The last intent's failure, cleared by the next one that succeeds.
    public private(set) var error: CarFitError?
    /// How many times the model loaded its documents (a view may show a spinner between).
    public private(set) var loads = 0

    @ObservationIgnored private let core: Core
    @ObservationIgnored private var feed: Task<Void, Never>?

    public init(core: Core) {
        self.core = core
    }

    /// Loads the calendar and the day it selects (today when the core opened).
    public func load() async {
        await run {
            let month = try await core.calendarGet(CalendarGetRequest())
            try await show(month, date: month.selected.first ?? month.today)
        }
    }

    /// Selects a day (YYYY-MM-DD) and shows its cards.
    public func select(_ date: String) async {
        await run {
            let month = try await core.calendarSelect(CalendarSelectRequest(date: date))
            try await show(month, date: date)
        }
    }

    /// Starts the visit of a card.
    public func start(_ key: String) async {
        await setState(key, .inProgress, reason: nil)
    }

    /// Finishes the visit of a card.
    public func finish(_ key: String) async {
        await setState(key, .done, reason: nil)
    }

    /// Rejects the visit of a card, with the washer's reason.
    public func reject(_ key: String, reason: String? = nil) async {
        await setState(key, .rejected, reason: reason)
    }

    /// Fetches the visits from their source, then shows the selected day again. A failed
    /// refresh leaves the stored visits and the shown cards as they were.
    public func refresh() async {
        await run {
            _ = try await core.visitsRefresh(VisitsRefreshRequest())
            try await reload()
        }
    }

    /// Re-loads on every change of the visits or the calendar (and after a gap in the feed), until
    /// `stopObserving` is called.
    public func startObserving() {
        guard feed == nil else { return }
        let events = core.events(areas: ["visits", "calendar"])
        feed = Task { [weak self] in
            do {
                for try await _ in events {
                    guard let self else { return }
                    await self.run { try await self.reload() }
                }
            } catch {
                self?.error = error as? CarFitError
            }
        }
    }

    /// Ends the re-loading on changes.
    public func stopObserving() {
        feed?.cancel()
        feed = nil
    }

    /// Moves the visit of a card to `state`; the card's `nextStates` say which its present state
    /// accepts (another fails as `conflict`).
    public func move(_ key: String, to state: VisitState, reason: String? = nil) async {
        await setState(key, state, reason: reason)
    }

    private func setState(_ key: String, _ state: VisitState, reason: String?) async {
        await run {
            _ = try await core.visitsSetState(VisitsSetStateRequest(key: key, state: state, reason: reason))
            try await reload()
        }
    }

    private func reload() async throws(CarFitError) {
        let month = try await core.calendarGet(CalendarGetRequest())
        try await show(month, date: selectedDate.isEmpty ? (month.selected.first ?? month.today) : selectedDate)
    }

    private func show(_ month: Month, date: String) async throws(CarFitError) {
        let list = try await core.visitsList(VisitsListRequest(dates: [date]))
        let day = list.days.first { $0.date == date }
        calendar = month
        selectedDate = date
        cards = day?.visits ?? []
        summary = day?.summary
        loads += 1
    }

    private func run(_ work: () async throws -> Void) async {
        do {
            try await work()
            error = nil
        } catch let failure as CarFitError {
            error = failure
        } catch {
            self.error = CarFitError(status: .internal, message: "\(error)")
        }
    }
}
