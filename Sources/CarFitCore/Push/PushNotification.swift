/// A notification a push gives the host to show: a stable id (a host replaces a shown
/// notification with the same id instead of stacking another), its kind (the change,
/// "visit" or "message"), the title and body, and for a visit its key, start and position.
public struct PushNotification: Sendable, Equatable {
    public var id: String
    public var kind: String
    public var title: String
    public var body: String
    /// The occurrence's card key (nil for a message).
    public var key: VisitKey?
    public var at: Instant?
    /// The coordinates of the card's navigation links; nil for none (a removed visit, a visit
    /// without both coordinates, a message).
    public var navigation: (latitude: Double, longitude: Double)?

    public init(id: String, kind: String, title: String, body: String, key: VisitKey? = nil, at: Instant? = nil,
                navigation: (latitude: Double, longitude: Double)? = nil) {
        self.id = id
        self.kind = kind
        self.title = title
        self.body = body
        self.key = key
        self.at = at
        self.navigation = navigation
    }

    public static func == (a: PushNotification, b: PushNotification) -> Bool {
        a.id == b.id && a.kind == b.kind && a.title == b.title && a.body == b.body && a.key == b.key && a.at == b.at
            && a.navigation?.latitude == b.navigation?.latitude && a.navigation?.longitude == b.navigation?.longitude
    }

    /// The card's link (`VisitKey.deepLink`), nil for a message.
    public var deepLink: String? { key?.deepLink }

    /// The local start time as the card writes it: with a locale, the locale's time (the
    /// config's clock style); without, `HH:mm` or the 12-hour form as `hour24` says.
    static func time(_ at: Instant, _ clock: Clock, hour24: Bool) -> String {
        clock.display.timeText(minuteOfDay: clock.localMinuteOfDay(at), hour24: clock.display.isLocalized ? nil : hour24)
    }

    /// The notification of one of the planner's changes.
    public static func change(_ c: VisitChange, clock: Clock, hour24: Bool) -> PushNotification {
        let at = time(c.start, clock, hour24: hour24)
        let title: String
        let body: String
        switch c.kind {
        case .added:
            title = "New visit"
            body = "\(c.name) at \(at)"
        case .removed:
            title = "Visit cancelled"
            body = "\(c.name) at \(at) is cancelled"
        case .moved:
            title = "Visit moved"
            let before = c.previousStart.map { time($0, clock, hour24: hour24) } ?? at
            body = "\(c.name): \(before) → \(at)"
        case .updated:
            title = "Visit changed"
            body = "\(c.name) at \(at): \(c.fields.map(\.rawValue).joined(separator: ", ")) changed"
        }
        let navigation = c.kind == .removed ? nil : Visit.coordinate(c.latitude, c.longitude)
        return PushNotification(id: "\(c.kind.rawValue):\(c.visitId):\(c.start.iso)", kind: c.kind.rawValue, title: title,
                                body: body, key: c.key, at: c.start, navigation: navigation)
    }

    /// The notification of a push of kind `visit`: the occurrence's card.
    public static func visit(_ v: Visit, clock: Clock, hour24: Bool) -> PushNotification {
        let key = VisitKey(visitId: v.visitId, start: v.start, repetition: v.repetition)
        var body = "\(v.name) at \(time(v.start, clock, hour24: hour24))"
        if !v.address.isEmpty { body += ", \(v.address)" }
        return PushNotification(id: "visit:\(key.text)", kind: "visit", title: "Next visit", body: body, key: key,
                                at: v.start, navigation: v.coordinate)
    }

    /// The notification of a push of kind `message`.
    public static func message(id: String, title: String, body: String) -> PushNotification {
        PushNotification(id: "message:\(id)", kind: "message", title: title, body: body)
    }
}
