import CarFitCore
import CarFitIO
import CarFitServices

/// Time to leave: `reminders.list`.
public enum RemindersAPI {
    /// `reminders.list`: `{"date"?}` → `{"date", "reminders": [...]}`.
    public static func list(_ service: RemindersService, _ request: Fields) throws(CarFitError) -> JSON {
        let listed = try service.list(try DayRequest(request).date)
        let clock = service.visits.clock
        return .obj(["date": .string(listed.date.description),
                     "reminders": .array(listed.reminders.map { reminder(of: $0, clock: clock) })])
    }

    /// `{"id", "key", "name", "leaveAt", "arriveBy", "travelMinutes", "distanceMeters", "late",
    /// "title", "body", "deepLink", "navigation"}`; `arriveBy` as the card writes its
    /// `startTimeUtc` (to the second).
    static func reminder(of r: LeaveReminders.Reminder, clock: Clock) -> JSON {
        let key = r.card.key.text
        var body = r.card.name.isEmpty ? "Visit" : r.card.name
        body += " at " + clock.timeText(r.arriveBy)
        if !r.card.address.isEmpty { body += ", " + r.card.address }
        return .obj([
            "id": .string("leave:" + key), "key": .string(key), "name": .string(r.card.name),
            "leaveAt": .string(OutboxMutation.iso(r.leaveAt)), "arriveBy": .string(r.arriveBy.iso),
            "travelMinutes": r.travelMinutes.map(JSON.int) ?? .null, "distanceMeters": .int(r.distanceMeters),
            "late": .bool(r.late), "title": "Time to leave", "body": .string(body),
            "deepLink": .string(r.card.key.deepLink),
            "navigation": navigation(latitude: r.card.latitude, longitude: r.card.longitude),
        ])
    }

    /// The card's `navigation` links (`Navigation`), each coordinate written as the card writes
    /// it; null without both coordinates.
    public static func navigation(latitude: Double?, longitude: Double?) -> JSON {
        guard let latitude, let longitude else { return .null }
        let links = Navigation.links(latitude: number(latitude), longitude: number(longitude))
        var object = JSONObject(minimumCapacity: links.count)
        for link in links { object[link.member] = .string(link.url) }
        return .object(object)
    }

    /// A number as the JSON encoder writes it.
    static func number(_ value: Double) -> String {
        var buffer = JSONBuffer(capacity: 32)
        buffer.appendDouble(value)
        return String(decoding: buffer.bytes, as: UTF8.self)
    }
}

/// The entry points of the operation table (`Manifest.operations`), one per operation, named
/// after its verb: each picks from the core what the function above needs.
extension RemindersAPI {
    public static func list(_ context: some OperationContext, _ request: Fields) throws(CarFitError) -> JSON {
        try list(context.reminders, request)
    }
}
