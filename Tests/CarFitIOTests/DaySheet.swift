import CarFitCore
import CarFitIO

/// The visits.list day built the plain way, card by card as `JSON` values: the reference the
/// streaming `DayListWriter` is checked against.
struct DaySheet: Sendable {
    struct Card: Sendable {
        var visit: Visit
        /// Geodesic metres from the previous card of the day, rounded; nil for the first card or
        /// when either end has no coordinates.
        var distanceMeters: Int?
    }

    var date: CivilDate
    var cards: [Card]

    /// `visits` must already be the day's visits in start-time order (ties in snapshot order).
    init(date: CivilDate, visits: [Visit]) {
        self.date = date
        var cards: [Card] = []
        cards.reserveCapacity(visits.count)
        var previous: Visit?
        for visit in visits {
            cards.append(Card(visit: visit, distanceMeters: DaySummary.legMeters(from: previous?.coordinate, to: visit.coordinate)))
            previous = visit
        }
        self.cards = cards
    }

    var summary: DaySummary {
        var summary = DaySummary()
        for card in cards { summary.add(taskMinutes: card.visit.taskMinutes, distanceMeters: card.distanceMeters) }
        return summary
    }

    func json(clock: Clock, hour24: Bool) -> JSON {
        .obj([
            "date": .string(date.description),
            "visits": .array(cards.map { $0.json(clock: clock, hour24: hour24) }),
            "summary": summary.json,
        ])
    }
}

extension DaySheet.Card {
    func json(clock: Clock, hour24: Bool) -> JSON {
        let v = visit
        return .obj([
            "visitId": .str(v.visitId),
            "name": .string(v.name),
            "state": .str(v.state),
            "stateColor": .string(VisitState.color(of: v.state)),
            "startTime": .string(clock.timeText(v.start, hour24: hour24)),
            "startTimeUtc": .string(v.start.iso),
            "expectedTime": .str(v.expectedTime),
            "tasks": .string(v.tasks),
            "taskMinutes": .int(Int64(v.taskMinutes)),
            "address": .string(v.address),
            "phone": .str(v.phone),
            "latitude": .num(v.latitude),
            "longitude": .num(v.longitude),
            "employeeId": .str(v.employeeId),
            "distanceMeters": distanceMeters.map { .int(Int64($0)) } ?? .null,
            "distanceKm": distanceMeters.map { .double(DaySummary.kilometres($0)) } ?? .null,
            "key": .string(VisitKey(visitId: v.visitId, start: v.start, repetition: v.repetition).text),
            "pending": .bool(false),
            "timeUsedMinutes": .int(v.timeUsed),
            "arrivedAt": .null,
            "departedAt": .null,
            "suggestion": .null,
            "navigation": navigation,
            "attachments": AttachmentCounts().json,
            "removed": .bool(false),
            "conflict": .null,
            "nextStates": .array(nextStates.map { .string($0.rawValue) }),
        ])
    }

    /// The states the card's visit may become (none without a visitId).
    var nextStates: [VisitState] {
        guard visit.visitId != nil else { return [] }
        return VisitTransition.next(from: visit.state.flatMap(VisitState.init(source:)))
    }

    /// The navigation links from the card's own number texts, null without both coordinates.
    var navigation: JSON {
        guard let c = visit.coordinate, c.latitude.isFinite, c.longitude.isFinite else { return .null }
        let links = Navigation.links(latitude: JSON.num(c.latitude).encoded(), longitude: JSON.num(c.longitude).encoded())
        var object = JSONObject()
        for link in links { object.appendDistinct(link.member, .string(link.url)) }
        return .object(object)
    }
}
