import CarFitKit
import Foundation
import Testing

/// The day screen's model driven through a day without a UI: load, select, start, finish, reject,
/// refresh from a loopback source, and a change made elsewhere re-loading it.
@MainActor @Suite struct DayViewModelTests {
    @Test func aWashersDay() async throws {
        let server = try FileServer()
        let core = try Core(configJSON: dayConfig(sources: ["visits": server.url("visits.json")]))
        let model = DayViewModel(core: core)

        await model.load()
        #expect(model.selectedDate == "2020-09-10")
        #expect(model.calendar?.today == "2020-09-10")
        #expect(model.cards.isEmpty)  // nothing stored yet

        await model.refresh()  // from the loopback server
        #expect(model.error == nil)
        #expect(model.cards.count > 1)
        let open: (Card) -> Bool = { !["Done", "InProgress", "Rejected"].contains($0.state ?? "") }
        let first = try #require(model.cards.first(where: open))

        await model.start(first.key)
        #expect(model.error == nil)
        #expect(model.cards.first { $0.key == first.key }?.state == VisitState.inProgress.rawValue)
        // The state machine, as the contract's VisitState: a started visit may go back, finish or be rejected.
        #expect(model.cards.first { $0.key == first.key }?.nextStates == [.todo, .done, .rejected])
        await model.finish(first.key)
        #expect(model.cards.first { $0.key == first.key }?.state == "Done")
        #expect(model.cards.first { $0.key == first.key }?.nextStates == [])
        await model.move(first.key, to: .todo)  // a finished visit stays finished
        #expect(model.error?.status == .conflict)
        #expect(model.cards.first { $0.key == first.key }?.state == "Done")

        await model.select("2020-09-11")
        #expect(model.selectedDate == "2020-09-11")
        #expect(model.calendar?.selected == ["2020-09-11"])
        #expect(!model.cards.isEmpty)
        #expect(model.cards.allSatisfy { $0.startTimeUtc.hasPrefix("2020-09-11") })
        let second = try #require(model.cards.first(where: open))
        await model.reject(second.key, reason: "Nobody home")
        #expect(model.error == nil)
        #expect(model.cards.first { $0.key == second.key }?.state == "Rejected")

        await model.start("no-such-key")
        #expect(model.error != nil)
        #expect(model.selectedDate == "2020-09-11")
    }

    @Test func reloadsOnChangeFeedEvents() async throws {
        let core = try Core(configJSON: dayConfig())
        let model = DayViewModel(core: core)
        await model.load()
        model.startObserving()
        defer { model.stopObserving() }
        let loads = model.loads
        // Another part of the host imports the day: the model sees it through the change feed.
        _ = try await core.visitsImport(try resource("carfit.json", as: VisitsImportRequest.self))
        #expect(await eventually { !model.cards.isEmpty })
        #expect(model.loads > loads)
    }
}
