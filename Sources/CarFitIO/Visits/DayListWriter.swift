import CTextScan
import CarFitCore

/// The `visits.list` document written as JSON text straight from stored rows, without a `Visit`
/// or a `JSON` value per card: the same text as encoding the document card by card as `JSON`
/// values (the tests hold that reference, `DaySheet`), by the same rules (day membership and
/// local times from the clock, `DaySummary.legMeters`, `DaySummary.kilometres`, `VisitState`,
/// `DaySummary`).
///
///     var writer = DayListWriter(clock: clock, hour24: true)
///     for date in dates {
///         try writer.writeDay(date) { range, add in try store.forEachVisit(startingIn: range, add) }
///     }
///     let text = writer.finish()
public struct DayListWriter: ~Copyable {
    private var out: JSONBuffer
    private let clock: Clock
    private let hour24: Bool?
    private var total = DaySummary()
    private var days = 0

    /// `capacity`: bytes to start with, room for the busiest day of the sample data (about
    /// 270 kB of cards) so a day's list is written without growing and copying its text.
    /// `hour24`: the request's clock style, nil for the config's.
    public init(clock: Clock, hour24: Bool?, capacity: Int = 1 << 19) {
        self.clock = clock
        self.hour24 = hour24
        out = JSONBuffer(capacity: capacity)
        out.append("{\"days\":[")
    }

    /// Writes the day `date`. `rows` is given the range of start instants (ms since the epoch)
    /// that holds the day's visits and a function to hand it each stored visit of that range,
    /// in start order with ties in snapshot order; visits whose local day is not `date` are
    /// left out. `local` holds the washer's changes shown over the day's cards (at least those
    /// of `Clock.dayRange(for: date)`), by visit key (a local time used of nil shows the
    /// record's own). `arrivals` holds the day's arrivals and departures by key,
    /// `attachments` the attachment counts of the day's cards that have any, `outbox` the
    /// removed mark and conflict of the day's cards that have either. `range`, when the
    /// caller has it already, is `clock.dayRange(for: date)` (it is not computed again).
    public mutating func writeDay<E: Error>(
        _ date: CivilDate,
        range dayRange: Range<Int64>? = nil,
        local: [VisitKey: ShownVisit] = [:],
        arrivals: [VisitKey: VisitArrival] = [:],
        attachments: [VisitKey: AttachmentCounts] = [:],
        outbox: [VisitKey: CardOutbox] = [:],
        rows: (Range<Int64>, (VisitRow) -> Void) throws(E) -> Void
    ) throws(E) {
        out.append(days == 0 ? "{\"date\":" : ",{\"date\":")
        days += 1
        out.appendString(date.description)
        out.append(",\"visits\":[")
        let range = dayRange ?? clock.dayRange(for: date)
        var day = DayCards(date: date, times: LocalTimes(clock: clock, over: range), display: clock.display, hour24: hour24, local: local,
                           attachments: attachments)
        day.arrivals = arrivals
        day.outbox = outbox
        try rows(range) { row in day.add(row, to: &out) }
        out.append("],\"summary\":")
        day.summary.json.encode(into: &out)
        out.append("}")
        total = total + day.summary
    }

    /// Writes `{"visit": card}`: the card of the visit `key` as the list of its day shows it
    /// (its distance from the day's card before it), or nothing when the day has no such
    /// card; answers whether it was written. For a writer made only for this.
    public static func card<E: Error>(
        _ key: VisitKey, on date: CivilDate, clock: Clock, hour24: Bool?,
        local: [VisitKey: ShownVisit],
        arrivals: [VisitKey: VisitArrival] = [:],
        attachments: [VisitKey: AttachmentCounts] = [:],
        outbox: [VisitKey: CardOutbox] = [:],
        rows: (Range<Int64>, (VisitRow) -> Void) throws(E) -> Void
    ) throws(E) -> JSONBuffer? {
        var out = JSONBuffer(capacity: 1024)
        out.append("{\"visit\":")
        // The card and the cards before it start no later than the visit: the rest of the day
        // is not read.
        let day = clock.dayRange(for: date)
        let end = key.start.milliseconds < day.upperBound ? key.start.milliseconds + 1 : day.upperBound
        let range = day.lowerBound..<max(day.lowerBound, end)
        var cards = DayCards(date: date, times: LocalTimes(clock: clock, over: day), display: clock.display, hour24: hour24,
                             local: local, attachments: attachments, only: key)
        cards.arrivals = arrivals
        cards.outbox = outbox
        try rows(range) { row in cards.add(row, to: &out) }
        guard cards.summary.visits > 0 else { return nil }
        out.append("}")
        return out
    }

    /// The finished document.
    public consuming func finish() -> JSONBuffer {
        out.append("],\"summary\":")
        total.json.encode(into: &out)
        out.append("}")
        return out
    }
}

/// The cards of one day as they are written: what a card needs of the cards before it.
private struct DayCards {
    let date: CivilDate
    /// The local wall times of `date` (seconds since 1970-01-01T00:00): the local seconds
    /// `Clock.date(localSeconds:)` answers `date` for.
    let localDay: Range<Int64>
    let times: LocalTimes
    /// The clock style of 1.3's times.
    let hour24: Bool
    /// The display of a locale's times, with the request's clock style; nil without a locale.
    let localized: (display: DisplayLocale, hour24: Bool?)?
    var summary = DaySummary()
    var previous: Geodesic.Point?
    /// The washer's changes shown over this day's cards, by key.
    let changed: [VisitKey: ShownVisit]
    /// Only this visit's card is written (the day's others still count for its distance).
    let only: VisitKey?
    /// The arrivals and departures of this day's visits, by key.
    var arrivals: [VisitKey: VisitArrival] = [:]
    /// The attachment counts of this day's cards that have any, by key.
    let attachments: [VisitKey: AttachmentCounts]
    /// The removed mark and conflict of this day's cards that have either, by key.
    var outbox: [VisitKey: CardOutbox] = [:]
    /// The UTC day of the last `startTimeUtc` written in full, and where its date is in the
    /// text (the one `out` every card of this day is written to): the cards after it on the
    /// same UTC day copy the date.
    private var isoDay = Int64.min
    private var isoDate = 0..<0

    init(date: CivilDate, times: LocalTimes, display: DisplayLocale, hour24: Bool?, local: [VisitKey: ShownVisit] = [:],
         attachments: [VisitKey: AttachmentCounts] = [:], only: VisitKey? = nil) {
        self.date = date
        let midnight = Int64(date.dayNumber) * 86_400
        localDay = midnight..<midnight + 86_400
        self.times = times
        self.hour24 = hour24 ?? display.hour24
        localized = display.isLocalized ? (display, hour24) : nil
        self.changed = local
        self.attachments = attachments
        self.only = only
    }

    /// The key of a row, built only when some key must be compared.
    static func key(of row: VisitRow) -> VisitKey {
        VisitKey(visitId: row.visitId.map { String(decoding: $0, as: UTF8.self) }, start: row.start,
                 repetition: row.repetition)
    }

    /// Writes the card of `row` (keys in the order the header lists them) if it starts on the day.
    mutating func add(_ row: VisitRow, to out: inout JSONBuffer) {
        let local = times.localSeconds(row.start)
        guard localDay.contains(local) else { return }
        let position = row.coordinate.flatMap { Geodesic.Point(latitude: $0.latitude, longitude: $0.longitude) }
        let meters = DaySummary.legMeters(from: previous, to: position)
        previous = position
        let key: VisitKey? = changed.isEmpty && attachments.isEmpty && only == nil && arrivals.isEmpty && outbox.isEmpty
            ? nil : Self.key(of: row)
        if let only, key != only { return }
        let shown = key.flatMap { changed[$0] }
        out.append(summary.visits == 0 ? "{\"visitId\":" : ",{\"visitId\":")
        summary.add(taskMinutes: row.taskMinutes, distanceMeters: meters)
        Self.text(row.visitId, &out)
        out.append(",\"name\":")
        out.appendString(utf8: row.name)
        out.append(",\"state\":")
        // The stored state as the domain knows it, read once for the colour and the road.
        let storedState: VisitState?
        if let state = shown?.state {
            storedState = nil
            out.appendString(state)
            out.append(",\"stateColor\":\"")
            out.append(VisitState.colorText(of: VisitState(source: state)))
        } else {
            storedState = row.state.flatMap { VisitState.known(utf8: $0.span) }
            Self.text(row.state, &out)
            out.append(",\"stateColor\":\"")
            out.append(VisitState.colorText(of: storedState))
        }
        out.append("\"")
        let minute = Clock.minuteOfDay(localSeconds: local)
        if let localized {
            out.append(",\"startTime\":")
            out.appendString(localized.display.timeText(minuteOfDay: minute, hour24: localized.hour24))
            out.append(",\"startTimeUtc\":\"")
        } else {
            // Times are digits, colons and letters: quoted as they are.
            out.append(",\"startTime\":\"")
            out.appendASCII(maxCount: Clock.timeTextMaxLength) { buffer in
                var b = buffer.mutableSpan
                return Clock.writeTimeText(minuteOfDay: minute, hour24: hour24, into: &b)
            }
            out.append("\",\"startTimeUtc\":\"")
        }
        let utcDay = row.start.utcDay
        if utcDay == isoDay {
            // The date as the card before wrote it, then this card's time of day.
            out.appendCopy(of: isoDate)
            out.appendASCII(maxCount: Instant.isoTimeLength) { buffer in
                var b = buffer.mutableSpan
                return row.start.writeISOTime(into: &b, at: 0)
            }
        } else {
            let start = out.count
            out.appendASCII(maxCount: Instant.isoLength) { buffer in
                var b = buffer.mutableSpan
                return row.start.writeISO(into: &b)
            }
            isoDay = utcDay
            isoDate = start..<start + Instant.isoLength - Instant.isoTimeLength
        }
        out.append("\",\"expectedTime\":")
        Self.text(row.expectedTime, &out)
        out.append(",\"tasks\":")
        out.appendString(utf8: row.tasks)
        out.append(",\"taskMinutes\":")
        out.appendInt(Int64(row.taskMinutes))
        out.append(",\"address\":")
        out.appendString(utf8: row.address)
        out.append(",\"phone\":")
        Self.text(row.phone, &out)
        out.append(",\"latitude\":")
        let latitudeStart = out.count
        Self.number(row.latitude, &out)
        let latitudeText = latitudeStart..<out.count
        out.append(",\"longitude\":")
        let longitudeStart = out.count
        Self.number(row.longitude, &out)
        let longitudeText = longitudeStart..<out.count
        out.append(",\"employeeId\":")
        Self.text(row.employeeId, &out)
        out.append(",\"distanceMeters\":")
        if let meters { out.appendInt(Int64(meters)) } else { out.appendNull() }
        out.append(",\"distanceKm\":")
        if let meters { out.appendTenths(DaySummary.tenthsOfKilometre(meters)) } else { out.appendNull() }
        out.append(",\"key\":")
        Self.key(row, &out)
        out.append(",\"pending\":")
        out.append(shown?.pending == true ? "true" : "false")
        out.append(",\"timeUsedMinutes\":")
        if let used = shown?.timeUsedMinutes ?? row.timeUsed { out.appendInt(Int64(used)) } else { out.appendNull() }
        let state = shown.map { $0.state.flatMap(VisitState.init(source:)) } ?? storedState
        Self.road(key.flatMap { arrivals[$0] }, state: state, &out)
        Self.navigation(row.latitude, row.longitude, written: (latitudeText, longitudeText), &out)
        out.append(",\"attachments\":")
        if let counts = key.flatMap({ attachments[$0] }) {
            counts.json.encode(into: &out)
        } else {
            out.append("{\"photos\":0,\"signatures\":0,\"notes\":0,\"pending\":0}")
        }
        Self.outboxMembers(key.flatMap { outbox[$0] }, &out)
        // A visit without a visitId takes no change (the update server could not name it).
        Self.nextStates(row.visitId == nil ? nil : state, &out)
        out.append("}")
    }

    /// `"nextStates"` of a card whose shown state is `state` (nil: unknown or none, or a visit
    /// that takes no change): the states `VisitTransition.next` lets it become.
    static func nextStates(_ state: VisitState?, _ out: inout JSONBuffer) {
        let index: Int
        switch state {
        case .todo?: index = 0
        case .inProgress?: index = 1
        case .done?: index = 2
        case .rejected?: index = 3
        case nil: index = 4
        }
        nextStatesTexts[index].withUnsafeBytes { out.append($0) }
    }

    /// The text `nextStates` writes for Todo, InProgress, Done, Rejected and none, in that order.
    private static let nextStatesTexts: [[UInt8]] = [VisitState.todo, .inProgress, .done, .rejected, nil].map { state in
        let names = VisitTransition.next(from: state).map { "\"\($0.rawValue)\"" }
        return Array(",\"nextStates\":[\(names.joined(separator: ","))]".utf8)
    }

    /// `"removed", "conflict"` of a card.
    private static func outboxMembers(_ marks: CardOutbox?, _ out: inout JSONBuffer) {
        out.append(marks?.removed == true ? ",\"removed\":true" : ",\"removed\":false")
        guard let conflict = marks?.conflict else {
            out.append(",\"conflict\":null")
            return
        }
        out.append(",\"conflict\":{\"mutationId\":")
        out.appendString(conflict.mutationId)
        out.append(",\"state\":")
        out.appendString(conflict.state)
        out.append(",\"reason\":")
        out.appendString(conflict.reason)
        out.append(",\"at\":")
        out.appendString(OutboxMutation.iso(conflict.at))
        out.append(",\"timeUsedMinutes\":")
        if let used = conflict.timeUsedMinutes { out.appendInt(Int64(used)) } else { out.appendNull() }
        out.append("}")
    }

    /// `"arrivedAt", "departedAt", "suggestion"` of a card.
    private static func road(_ arrival: VisitArrival?, state: VisitState?, _ out: inout JSONBuffer) {
        guard let arrival else {
            out.append(",\"arrivedAt\":null,\"departedAt\":null,\"suggestion\":null")
            return
        }
        out.append(",\"arrivedAt\":")
        out.appendString(OutboxMutation.iso(arrival.arrivedAt))
        out.append(",\"departedAt\":")
        if let departed = arrival.departedAt { out.appendString(OutboxMutation.iso(departed)) } else { out.appendNull() }
        out.append(",\"suggestion\":")
        if let suggestion = RoadSuggestion.of(arrivedAt: arrival.arrivedAt, departedAt: arrival.departedAt, state: state) {
            out.appendString(suggestion)
        } else {
            out.appendNull()
        }
    }

    /// `"navigation"`: the links of `Navigation`, each coordinate written as the card's own
    /// number (a number's text needs no escaping inside a string); null without both.
    /// `written` are where the card's `latitude` and `longitude` were written in `out`: their
    /// text is copied from there rather than formatted again for every link.
    private static func navigation(_ latitude: Double?, _ longitude: Double?,
                                   written: (latitude: Range<Int>, longitude: Range<Int>),
                                   _ out: inout JSONBuffer) {
        guard let latitude, let longitude, latitude.isFinite, longitude.isFinite else {
            out.append(",\"navigation\":null")
            return
        }
        out.appendLinks(navigationText.text, breaks: navigationText.breaks, first: written.latitude,
                        separator: UInt8(ascii: ","), second: written.longitude)
    }

    /// The text of `"navigation"` around its coordinates (`,"navigation":{"geo":"geo:`, then
    /// `","google":"https://…destination=` and so on, `"}` last), and where in it each link's
    /// coordinates go.
    private static let navigationText: (text: [UInt8], breaks: [Int]) = {
        var text: [UInt8] = []
        var breaks: [Int] = []
        for (i, link) in Navigation.prefixes.enumerated() {
            text += Array((i == 0 ? ",\"navigation\":{\"" : "\",\"").utf8)
            link.member.withUTF8Buffer { text += $0 }
            text += Array("\":\"".utf8)
            link.prefix.withUTF8Buffer { text += $0 }
            breaks.append(text.count)
        }
        text += Array("\"}".utf8)
        return (text, breaks)
    }()

    /// The row's key as `VisitKey.text` writes it.
    private static func key(_ row: VisitRow, _ out: inout JSONBuffer) {
        // The usual id (a UUID: printable ASCII that neither the key nor JSON escapes) is
        // written straight into the answer; any other goes through `VisitKey.text`.
        if let id = row.visitId, text_scan_plain_key(id.baseAddress, id.count) != 0 {
            out.append(UInt8(ascii: "\""))
            out.append(UnsafeRawBufferPointer(id))
            out.append(UInt8(ascii: "|"))
            out.appendInt(row.start.milliseconds)
            out.append(UInt8(ascii: "|"))
            out.appendInt(Int64(row.repetition))
            out.append(UInt8(ascii: "\""))
            return
        }
        out.appendString(key(of: row).text)
    }

    private static func text(_ utf8: UnsafeBufferPointer<UInt8>?, _ out: inout JSONBuffer) {
        if let utf8 { out.appendString(utf8: utf8) } else { out.appendNull() }
    }

    private static func number(_ value: Double?, _ out: inout JSONBuffer) {
        if let value { out.appendDouble(value) } else { out.appendNull() }
    }
}
