/// The time to leave for each open visit of a day (`reminders.list`).
///
/// One reminder for each card of the day in state Todo (as shown) with coordinates, without
/// an arrival and not removed. Its origin is the previous card of the day (start order) with
/// coordinates, whatever that card's state (a removed one too); none for the first. For today, the next visit's (the earliest
/// that qualifies) origin is the washer's position instead when it was reported no more than
/// `positionMaxAgeSeconds` before now. Travel = ceil(geodesic metres × detourFactor / (speedKmh
/// × 1000 / 60)) minutes, 0 without an origin; leaveAt = the visit's start − travel −
/// bufferMinutes, rounded down to the minute; late when now is after leaveAt.
public enum LeaveReminders {
    /// A card of the day, in card order.
    public struct Card: Sendable, Equatable {
        public var key: VisitKey
        public var name: String
        public var address: String
        public var state: String?
        public var latitude: Double?
        public var longitude: Double?
        public var arrived: Bool
        /// The planner removed the visit and the card stays listed for the washer's work.
        public var removed: Bool

        public init(key: VisitKey, name: String, address: String, state: String?, latitude: Double?, longitude: Double?,
                    arrived: Bool, removed: Bool = false) {
            self.key = key
            self.name = name
            self.address = address
            self.state = state
            self.latitude = latitude
            self.longitude = longitude
            self.arrived = arrived
            self.removed = removed
        }
    }

    public struct Reminder: Sendable, Equatable {
        public var card: Card
        public var leaveAt: Instant
        public var arriveBy: Instant
        public var travelMinutes: Int64?
        public var distanceMeters: Int?
        public var late: Bool
    }

    /// The reminders of `cards` (one day's, in card order), sorted by leaveAt, then key text.
    /// `position` is the washer's, used only when `today`.
    public static func list(_ cards: [Card], today: Bool, position: LocationReport?, now: Instant,
                            config: RemindersConfig) -> [Reminder] {
        var fresh: LocationReport?
        if today, let position {
            let age = now.milliseconds.subtractingReportingOverflow(position.at.milliseconds)
            let limit = config.positionMaxAgeSeconds.multipliedReportingOverflow(by: 1000)
            if !age.overflow, !limit.overflow, age.partialValue <= limit.partialValue { fresh = position }
        }
        var out: [Reminder] = []
        var previous: (latitude: Double, longitude: Double)?
        var first = true
        for card in cards {
            defer {
                if let c = Visit.coordinate(card.latitude, card.longitude) { previous = c }
            }
            guard let here = Visit.coordinate(card.latitude, card.longitude), !card.arrived, !card.removed,
                  card.state.flatMap(VisitState.init(source:)) == .todo else { continue }
            var origin = previous
            if first, let fresh { origin = (fresh.latitude, fresh.longitude) }
            first = false
            var metres: Double?
            if let origin {
                metres = Geodesic.distance(latitude1: origin.latitude, longitude1: origin.longitude,
                                           latitude2: here.latitude, longitude2: here.longitude)
            }
            let travel = metres.map { travelMinutes(metres: $0, config: config) }
            let minutes = (travel ?? 0) &+ config.bufferMinutes
            let leaveMs = card.key.start.milliseconds &- minutes &* 60_000
            let floored = leaveMs - ((leaveMs % 60_000) + 60_000) % 60_000
            let leaveAt = Instant(milliseconds: floored)
            out.append(Reminder(card: card, leaveAt: leaveAt, arriveBy: card.key.start, travelMinutes: travel,
                                distanceMeters: metres.map { Int($0.rounded()) }, late: leaveAt < now))
        }
        out.sort {
            $0.leaveAt != $1.leaveAt ? $0.leaveAt < $1.leaveAt : $0.card.key.text.utf8.lexicographicallyPrecedes($1.card.key.text.utf8)
        }
        return out
    }

    /// ceil(metres × detourFactor / (speedKmh × 1000 / 60)), the minutes driven.
    public static func travelMinutes(metres: Double, config: RemindersConfig) -> Int64 {
        let minutes = (metres * config.detourFactor / (config.speedKmh * 1000 / 60)).rounded(.up)
        guard minutes.isFinite, minutes >= 0, minutes < 1e15 else { return 0 }
        return Int64(minutes)
    }
}
