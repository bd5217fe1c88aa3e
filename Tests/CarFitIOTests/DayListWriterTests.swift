import CarFitSystem
import Foundation
import XCTest
@testable import CarFitCore
@testable import CarFitIO

/// The day query's text writer against the domain path it replaces: stored rows made into
/// `Visit`s, each day's visits found with `clock.localDate`, and
/// `{"days": [DaySheet.json], "summary": total}` encoded as a `JSON` value. Any rule the two
/// apply differently (membership, local time, distance, km, state, escaping, numbers) shows as
/// a difference in the text.
final class DayListWriterTests: XCTestCase {
    /// The library's SplitMix64 with the helpers these tests use: the same data on every run.
    struct Random {
        var generator: SplitMix64
        init(state: UInt64) { generator = SplitMix64(seed: state) }
        mutating func next() -> UInt64 { generator.next() }
        mutating func below(_ n: Int) -> Int { Int(next() % UInt64(max(n, 1))) }
        mutating func chance(_ percent: Int) -> Bool { below(100) < percent }
        mutating func unit() -> Double { Double(next() >> 11) / Double(1 << 53) }
        mutating func pick<T>(_ items: [T]) -> T { items[below(items.count)] }
    }

    /// A stored visit: its columns as bytes, the way the store hands them over.
    struct StoredVisit {
        var visitId: [UInt8]?
        var employeeId: [UInt8]?
        var start: Int64
        var name: [UInt8]
        var state: [UInt8]?
        var expectedTime: [UInt8]?
        var tasks: [UInt8]
        var taskMinutes: Int
        var address: [UInt8]
        var phone: [UInt8]?
        var latitude: Double?
        var longitude: Double?
    }

    /// Copies of a visit's bytes at stable addresses, freed with the holder.
    final class Row {
        private var buffers: [UnsafeMutableBufferPointer<UInt8>] = []
        private(set) var row = VisitRow(visitId: nil, employeeId: nil, start: Instant(milliseconds: 0),
                                        name: UnsafeBufferPointer(start: nil, count: 0), state: nil, expectedTime: nil,
                                        tasks: UnsafeBufferPointer(start: nil, count: 0), taskMinutes: 0,
                                        address: UnsafeBufferPointer(start: nil, count: 0), phone: nil,
                                        latitude: nil, longitude: nil)

        init(_ v: StoredVisit) {
            row = VisitRow(visitId: copy(v.visitId), employeeId: copy(v.employeeId), start: Instant(milliseconds: v.start),
                           name: copy(v.name), state: copy(v.state), expectedTime: copy(v.expectedTime),
                           tasks: copy(v.tasks), taskMinutes: v.taskMinutes, address: copy(v.address),
                           phone: copy(v.phone), latitude: v.latitude, longitude: v.longitude)
        }

        private func copy(_ bytes: [UInt8]) -> UnsafeBufferPointer<UInt8> {
            let buffer = UnsafeMutableBufferPointer<UInt8>.allocate(capacity: max(bytes.count, 1))
            _ = buffer.initialize(from: bytes)
            buffers.append(buffer)
            return UnsafeBufferPointer(rebasing: buffer[0..<bytes.count])
        }

        private func copy(_ bytes: [UInt8]?) -> UnsafeBufferPointer<UInt8>? { bytes.map { copy($0) } }

        deinit { for b in buffers { b.deallocate() } }
    }

    /// Texts that need every kind of escaping, and some that are not UTF-8 at all.
    static let texts: [[UInt8]] = {
        let strings = [
            "", " ", "Mette Rasmussen", "Søren Østergaard", "Akademivej 104, 3 mf 2500 Valby", "Vask og voks, Pudsning",
            "\"quoted\"", "back\\slash", "tab\there", "new\nline\r\n", "\u{0}nul", "bell\u{07}\u{1F}\u{7F}",
            "\u{08}\u{0C}", "line\u{2028}sep\u{2029}", "emoji 🚗💨 ok", "e\u{301}", "日本語テキスト", "\u{FEFF}bom",
            "a long plain text of more than eight bytes with \"a quote\" in it and \\ one backslash",
            "08:00/10:00", "+4523082408", "ToDo", "<script>", "€ 12,50",
        ]
        var out = strings.map { Array($0.utf8) }
        out += [[0xFF], [0xC3], [0xE2, 0x80], [0xED, 0xA0, 0x80], [0xC0, 0xAF], [0xF4, 0x90, 0x80, 0x80],
                Array("ok ".utf8) + [0xE2, 0x80, 0xA8, 0xFE] + Array(" tail of a longer text".utf8)]
        return out
    }()

    static let states: [[UInt8]?] = [
        nil, "Todo", "InProgress", "Done", "Rejected", "todo", "ToDo", "In Progress", "IN_PROGRESS", "done",
        "Cancelled", "", "İnProgress", "Todo ", "\"Done\"",
    ].map { $0.map { Array($0.utf8) } }

    static let employees: [[UInt8]?] = [nil, Array("e1".utf8), Array("e2".utf8), Array("e\"3".utf8)]

    func randomVisit(_ r: inout Random, around day: CivilDate) -> StoredVisit {
        func text(_ r: inout Random) -> [UInt8] { r.pick(Self.texts) }
        func optionalText(_ r: inout Random) -> [UInt8]? { r.chance(20) ? nil : text(&r) }
        // Starts from a day and a half before to a day and a half after the day's UTC midnight,
        // on minutes mostly (ties included), sometimes with seconds and milliseconds.
        let midnight = Int64(day.dayNumber) * 86_400_000
        var start = midnight - 129_600_000 + Int64(r.below(3 * 1_440)) * 60_000
        if r.chance(20) { start += Int64(r.below(60_000)) }
        var latitude: Double? = r.chance(10) ? nil : 55.6 + r.unit() * 0.3
        var longitude: Double? = r.chance(10) ? nil : 12.3 + r.unit() * 0.4
        if r.chance(3) { latitude = r.pick([90.0, -90.0, 0.0, -33.8688]); longitude = r.pick([180.0, -180.0, 0.0, 151.2093]) }
        if r.chance(2) { latitude = nil; longitude = nil }
        return StoredVisit(
            visitId: r.chance(10) ? nil : Array("v\(r.below(1_000))".utf8) + (r.chance(10) ? text(&r) : []),
            employeeId: r.pick(Self.employees), start: start, name: text(&r), state: r.pick(Self.states),
            expectedTime: optionalText(&r), tasks: text(&r), taskMinutes: r.pick([0, 5, 45, 90, 100_000]),
            address: text(&r), phone: optionalText(&r), latitude: latitude, longitude: longitude)
    }

    /// The document as the domain path builds it.
    func reference(_ stored: [StoredVisit], dates: [CivilDate], employee: [UInt8]?, clock: Clock, hour24: Bool) -> [UInt8] {
        let rows = stored.map(Row.init)
        let visits = rows.map { Visit(row: $0.row) }
        let order = visits.indices.sorted { (visits[$0].start, $0) < (visits[$1].start, $1) }
        var days: [JSON] = []
        var total = DaySummary()
        for date in dates {
            let dayVisits = order.map { visits[$0] }.filter { visit in
                clock.localDate(visit.start) == date
                    && (employee == nil || visit.employeeId.map { Array($0.utf8) } == employee)
            }
            let sheet = DaySheet(date: date, visits: dayVisits)
            total = total + sheet.summary
            days.append(sheet.json(clock: clock, hour24: hour24))
        }
        return JSON.obj(["days": .array(days), "summary": total.json]).encodedBytes()
    }

    /// The document as the writer writes it, fed the way the store feeds it.
    func written(_ stored: [StoredVisit], dates: [CivilDate], employee: [UInt8]?, clock: Clock, hour24: Bool) -> [UInt8] {
        let rows = stored.map(Row.init)
        let order = rows.indices.sorted { (stored[$0].start, $0) < (stored[$1].start, $1) }
        var writer = DayListWriter(clock: clock, hour24: hour24, capacity: 16)
        for date in dates {
            writer.writeDay(date) { range, add in
                for i in order where range.contains(stored[i].start) && (employee == nil || stored[i].employeeId == employee) {
                    add(rows[i].row)
                }
            }
        }
        return writer.finish().bytes
    }

    func check(zone: String, days: [String], seed: UInt64, visitsPerDay: Int = 40,
               file: StaticString = #filePath, line: UInt = #line) throws {
        let dates = try days.map { try XCTUnwrap(CivilDate(iso: $0)) }
        var r = Random(state: seed)
        var stored: [StoredVisit] = []
        for date in dates { for _ in 0..<visitsPerDay { stored.append(randomVisit(&r, around: date)) } }
        // Some visits exactly at the day's local midnights and at the zone's transitions.
        let clock = try Clock(zoneName: zone)
        for date in dates {
            let range = clock.dayRange(for: date)
            var edges = [range.lowerBound, range.upperBound - 1, range.lowerBound + 3_600_000, range.upperBound - 3_600_000]
            if let next = TimeZone(identifier: clock.zoneName)?.nextDaylightSavingTimeTransition(after: Date(timeIntervalSince1970: Double(range.lowerBound / 1000))),
               next.timeIntervalSince1970 * 1000 < Double(range.upperBound) {
                let t = Int64(next.timeIntervalSince1970) * 1000
                edges += [t - 1001, t - 1, t, t + 999]
            }
            for ms in edges {
                var v = randomVisit(&r, around: date)
                v.start = ms
                stored.append(v)
            }
        }
        // Shuffled so that snapshot order differs from start order.
        for i in stride(from: stored.count - 1, to: 0, by: -1) { stored.swapAt(i, r.below(i + 1)) }
        let withEmpty = dates + [try XCTUnwrap(CivilDate(iso: "2001-02-03"))]
        for order in [withEmpty, withEmpty.reversed()] {
            for hour24 in [true, false] {
                for employee in [nil, Self.employees[1], Self.employees[3], Array("nobody".utf8)] {
                    let expected = reference(stored, dates: order, employee: employee, clock: clock, hour24: hour24)
                    let actual = written(stored, dates: order, employee: employee, clock: clock, hour24: hour24)
                    if actual != expected {
                        let at = zip(actual, expected).prefix { $0 == $1 }.count
                        func around(_ text: [UInt8]) -> String { String(decoding: text.dropFirst(max(0, at - 80)).prefix(200), as: UTF8.self) }
                        XCTFail("\(zone) \(order.map(\.description)) hour24 \(hour24) employee \(String(describing: employee)): "
                                + "texts differ from byte \(at): written …\(around(actual))… reference …\(around(expected))…",
                                file: file, line: line)
                        return
                    }
                }
            }
        }
    }

    func testCopenhagenOrdinaryAndDaylightSavingDays() throws {
        // 2020-03-29 has 23 hours, 2020-10-25 has 25.
        try check(zone: "Europe/Copenhagen", days: ["2020-09-10", "2020-03-29", "2020-10-25", "2020-09-11", "1969-12-31"], seed: 1)
    }

    func testOddOffsets() throws {
        // Kathmandu moved from +5:30 to +5:45 on 1986-01-01; Chatham is +12:45 / +13:45.
        try check(zone: "Asia/Kathmandu", days: ["1985-12-31", "1986-01-01", "2020-09-10"], seed: 2)
        try check(zone: "Pacific/Chatham", days: ["2020-04-05", "2020-09-27", "2020-09-10"], seed: 3)
        try check(zone: "Australia/Lord_Howe", days: ["2020-04-05", "2020-10-04"], seed: 4)
        try check(zone: "America/St_Johns", days: ["2020-03-08", "2020-11-01", "2020-07-01"], seed: 5)
    }

    func testZonesThatSkipADayAndEdgesOfTheOffsetRange() throws {
        try check(zone: "Pacific/Apia", days: ["2011-12-29", "2011-12-30", "2011-12-31"], seed: 6)
        try check(zone: "Pacific/Kiritimati", days: ["1994-12-31", "1995-01-01", "2020-09-10"], seed: 7)
        try check(zone: "Etc/GMT+12", days: ["2020-09-10"], seed: 8)
        try check(zone: "UTC", days: ["2020-09-10", "1970-01-01"], seed: 9)
    }

    func testManyRandomDays() throws {
        var r = Random(state: 10)
        for zone in ["Europe/Copenhagen", "America/Los_Angeles", "Asia/Kolkata", "Pacific/Chatham"] {
            let days = (0..<4).compactMap { _ in CivilDate(dayNumber: 18_000 + r.below(800))?.description }
            try check(zone: zone, days: Array(Set(days)).sorted(), seed: r.next(), visitsPerDay: 60)
        }
    }

    func testNoDays() throws {
        let clock = try Clock(zoneName: "Europe/Copenhagen")
        XCTAssertEqual(String(decoding: written([], dates: [], employee: nil, clock: clock, hour24: true), as: UTF8.self),
                       #"{"days":[],"summary":{"visits":0,"taskMinutes":0,"distanceMeters":0,"distanceKm":0.0}}"#)
    }

    /// One card in full, so that the shared reference cannot drift from the header's card unnoticed.
    func testACardAsTheHeaderDescribesIt() throws {
        let clock = try Clock(zoneName: "Europe/Copenhagen")
        let start = try XCTUnwrap(Instant(iso: "2020-09-10T06:05:00Z")).milliseconds
        let a = StoredVisit(visitId: Array("v1".utf8), employeeId: Array("e1".utf8), start: start,
                            name: Array("Tone \"T\" Ås".utf8), state: Array("Todo".utf8), expectedTime: Array("08:00/10:00".utf8),
                            tasks: Array("Vask, Voks".utf8), taskMinutes: 70, address: Array("Akademivej 15 Lyngby".utf8),
                            phone: nil, latitude: 55.77883, longitude: 12.52124)
        var b = a
        b.visitId = nil
        b.start += 3_600_000
        b.state = Array("Cancelled".utf8)
        b.latitude = 55.77453
        b.longitude = 12.51967
        b.taskMinutes = 5
        let text = String(decoding: written([b, a], dates: [try XCTUnwrap(CivilDate(iso: "2020-09-10"))], employee: nil,
                               clock: clock, hour24: false), as: UTF8.self)
        XCTAssertEqual(text, """
            {"days":[{"date":"2020-09-10","visits":[\
            {"visitId":"v1","name":"Tone \\"T\\" Ås","state":"Todo","stateColor":"#4E77D6","startTime":"08:05 AM",\
            "startTimeUtc":"2020-09-10T06:05:00Z","expectedTime":"08:00/10:00","tasks":"Vask, Voks","taskMinutes":70,\
            "address":"Akademivej 15 Lyngby","phone":null,"latitude":55.77883,"longitude":12.52124,"employeeId":"e1",\
            "distanceMeters":null,"distanceKm":null,"key":"v1|1599717900000|0","pending":false,"timeUsedMinutes":null,\
            "arrivedAt":null,"departedAt":null,"suggestion":null,"navigation":{"geo":"geo:55.77883,12.52124",\
            "google":"https://www.google.com/maps/dir/?api=1&destination=55.77883,12.52124",\
            "apple":"https://maps.apple.com/?daddr=55.77883,12.52124"},\
            "attachments":{"photos":0,"signatures":0,"notes":0,"pending":0},"removed":false,"conflict":null,\
            "nextStates":["InProgress","Rejected"]},\
            {"visitId":null,"name":"Tone \\"T\\" Ås","state":"Cancelled","stateColor":"#8E8E93","startTime":"09:05 AM",\
            "startTimeUtc":"2020-09-10T07:05:00Z","expectedTime":"08:00/10:00","tasks":"Vask, Voks","taskMinutes":5,\
            "address":"Akademivej 15 Lyngby","phone":null,"latitude":55.77453,"longitude":12.51967,"employeeId":"e1",\
            "distanceMeters":489,"distanceKm":0.5,"key":"~|1599721500000|0","pending":false,"timeUsedMinutes":null,\
            "arrivedAt":null,"departedAt":null,"suggestion":null,"navigation":{"geo":"geo:55.77453,12.51967",\
            "google":"https://www.google.com/maps/dir/?api=1&destination=55.77453,12.51967",\
            "apple":"https://maps.apple.com/?daddr=55.77453,12.51967"},\
            "attachments":{"photos":0,"signatures":0,"notes":0,"pending":0},"removed":false,"conflict":null,"nextStates":[]}],\
            "summary":{"visits":2,"taskMinutes":75,"distanceMeters":489,"distanceKm":0.5}}],\
            "summary":{"visits":2,"taskMinutes":75,"distanceMeters":489,"distanceKm":0.5}}
            """)
    }

    /// A card's key is `VisitKey.text` whatever the id holds: the usual printable ASCII (written
    /// straight into the answer) and ids with the key's or JSON's escapes or other scalars.
    func testKeysOfEveryKindOfIdAreTheirVisitKeyText() throws {
        let clock = try Clock(zoneName: "UTC")
        let start = try XCTUnwrap(Instant(iso: "2020-09-10T06:05:00Z")).milliseconds
        var ids = ["ec94deca-d66a-4d62-b049-72414870de00", "a|b", "50%", "q\"x", "back\\slash", "ü~", "tab\tin", "", "~"]
        // Ids of eight bytes and more (read a word at a time) with each character that is not
        // written as it is at its start, in its middle and at its end.
        for length in [8, 9, 15, 16, 17, 36] {
            for special in ["|", "%", "~", "\"", "\\", "\t", "\u{7F}", "ü", "\u{1F}"] {
                for position in [0, length / 2, length - 1] {
                    var id = Array(repeating: "a", count: length)
                    id[position] = special
                    ids.append(id.joined())
                }
            }
            ids.append(String(repeating: "z", count: length))
        }
        let visits = ids.enumerated().map { index, id in
            StoredVisit(visitId: Array(id.utf8), employeeId: nil, start: start + Int64(index) * 60_000,
                        name: Array("N".utf8), state: nil, expectedTime: nil, tasks: [], taskMinutes: 0,
                        address: [], phone: nil, latitude: nil, longitude: nil)
        }
        let text = written(visits, dates: [try XCTUnwrap(CivilDate(iso: "2020-09-10"))], employee: nil, clock: clock,
                           hour24: true)
        let document = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(text)) as? [String: Any])
        let days = try XCTUnwrap(document["days"] as? [[String: Any]])
        let cards = try XCTUnwrap(days.first?["visits"] as? [[String: Any]])
        let keys: [String?] = cards.map { $0["key"] as? String }
        let expected: [String?] = ids.enumerated().map { index, id in
            VisitKey(visitId: id, start: Instant(milliseconds: start + Int64(index) * 60_000)).text
        }
        XCTAssertEqual(keys, expected)
    }

    func testTextFromBytesIsTheTextOfTheDecodedString() {
        var r = Random(state: 11)
        let pieces: [[UInt8]] = Self.texts + [[0x80], [0xBF], [0xF0, 0x9F], [0xF0, 0x9F, 0x9A, 0x97], [0xEF, 0xBF, 0xBF],
                                              [0xF8, 0x88, 0x80, 0x80, 0x80], [0xE0, 0x80, 0x80], [0xC2, 0x80], [0xDF, 0xBF]]
        for round in 0..<5_000 {
            var bytes: [UInt8] = []
            if round % 2 == 0 {
                for _ in 0..<r.below(6) { bytes += r.pick(pieces) }
            } else {
                for _ in 0..<r.below(48) { bytes.append(UInt8(truncatingIfNeeded: r.next())) }
            }
            let valid = String(validating: bytes, as: UTF8.self) != nil
            bytes.withUnsafeBufferPointer { b in
                XCTAssertEqual(JSONBuffer.isValidUTF8(b), valid, "\(bytes)")
                var fromBytes = JSONBuffer()
                fromBytes.appendString(utf8: b)
                var fromString = JSONBuffer()
                fromString.appendString(String(decoding: b, as: UTF8.self))
                XCTAssertEqual(fromBytes.bytes, fromString.bytes, "\(bytes)")
            }
        }
    }

    /// Text of every length around the scan's sixteen-byte steps, with each kind of byte the
    /// encoder treats apart at each place: the string reads back (Foundation's JSON parser) as
    /// the decoded text, and holds no raw control character, U+2028 or U+2029.
    func testStringsOfEveryLengthReadBackAsTheirText() throws {
        let specials: [[UInt8]] = [[0x22], [0x5C], [0x0A], [0x01], [0x1F], [0x7F], [0xC3, 0xB8], [0xE2, 0x80, 0xA8],
                                   [0xE2, 0x80, 0xA9], [0xE2, 0x82, 0xAC], [0xF0, 0x9F, 0x9A, 0x97], [0xFF], [0xC3]]
        for length in 0...40 {
            for special in specials {
                for position in Set([0, length / 2, max(0, length - 1), length]) where position <= length {
                    var bytes = Array(repeating: UInt8(ascii: "a"), count: length)
                    bytes.insert(contentsOf: special, at: position)
                    var buffer = JSONBuffer()
                    bytes.withUnsafeBufferPointer { buffer.appendString(utf8: $0) }
                    let text = buffer.bytes
                    let read = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(text), options: .fragmentsAllowed) as? String)
                    XCTAssertEqual(read, String(decoding: bytes, as: UTF8.self), "\(bytes)")
                    XCTAssertFalse(text.contains { $0 < 0x20 }, "\(bytes)")
                    let written = String(decoding: text, as: UTF8.self)
                    XCTAssertFalse(written.contains("\u{2028}") || written.contains("\u{2029}"), "\(bytes)")
                }
            }
        }
    }

    func testStateColourOfStoredText() {
        for state in Self.states {
            let expected = VisitState.color(of: state.map { String(decoding: $0, as: UTF8.self) })
            let known = state.flatMap { s in VisitState.known(utf8: s.span) }
            XCTAssertEqual(VisitState.colorText(of: known).description, expected, "\(String(describing: state))")
            XCTAssertEqual(known, state.flatMap { VisitState(source: String(decoding: $0, as: UTF8.self)) })
        }
    }

    func testLocalTimesAreTheClocksOverEveryKindOfDay() throws {
        let cases: [(String, [String])] = [
            ("Europe/Copenhagen", ["2020-03-29", "2020-10-25", "2020-09-10"]),
            ("Asia/Kathmandu", ["1985-12-31", "1986-01-01", "2020-09-10"]),
            ("Pacific/Chatham", ["2020-04-05", "2020-09-27"]),
            ("Australia/Lord_Howe", ["2020-04-05", "2020-10-04"]),
            ("Pacific/Apia", ["2011-12-29", "2011-12-30", "2011-12-31"]),
            ("Pacific/Kiritimati", ["1994-12-31", "1995-01-01"]),
        ]
        for (zone, days) in cases {
            let clock = try Clock(zoneName: zone)
            for day in days {
                let date = try XCTUnwrap(CivilDate(iso: day))
                let range = clock.dayRange(for: date)
                let times = LocalTimes(clock: clock, over: range)
                var instants: [Int64] = []
                var ms = range.lowerBound - 7_200_000
                while ms < range.upperBound + 7_200_000 {
                    instants.append(ms)
                    ms += 59_999
                }
                // Every millisecond edge around each transition in the range.
                var at = Date(timeIntervalSince1970: Double(range.lowerBound / 1000))
                var transitions = 0
                while let next = TimeZone(identifier: clock.zoneName)?.nextDaylightSavingTimeTransition(after: at),
                      next.timeIntervalSince1970 * 1000 < Double(range.upperBound), transitions < 4 {
                    let t = Int64(next.timeIntervalSince1970) * 1000
                    instants += [-2000, -1001, -1000, -999, -1, 0, 1, 999, 1000, 1001].map { t + $0 }
                    transitions += 1
                    at = next
                }
                if transitions == 1 { XCTAssertNotNil(times.offsets, "\(zone) \(day)") }
                if transitions > 1 { XCTAssertNil(times.offsets, "\(zone) \(day)") }
                for ms in instants {
                    let instant = Instant(milliseconds: ms)
                    XCTAssertEqual(times.localSeconds(instant), clock.localSeconds(instant), "\(zone) \(day) \(ms)")
                }
            }
        }
        let cph = try Clock(zoneName: "Europe/Copenhagen")
        let september = LocalTimes(clock: cph, over: cph.dayRange(for: try XCTUnwrap(CivilDate(iso: "2020-09-10"))))
        XCTAssertEqual(september.offsets?.before, 7_200)
        XCTAssertEqual(september.offsets?.after, 7_200)
        let spring = LocalTimes(clock: cph, over: cph.dayRange(for: try XCTUnwrap(CivilDate(iso: "2020-03-29"))))
        let switchAt = try XCTUnwrap(Instant(iso: "2020-03-29T01:00:00Z")).seconds
        XCTAssertEqual(spring.offsets, ZoneOffsets(before: 3_600, after: 7_200, switchSecond: switchAt))
    }
}

/// Reals are written as Swift's `description` writes them, whichever way the encoder takes.
final class RealTextTests: XCTestCase {
    func testRealsAreTheirDescription() {
        var r = DayListWriterTests.Random(state: 12)
        var values: [Double] = [0, -0.0, 1, -1, 0.1, 0.5, 0.001, 0.0009999, 0.00099999999999999, 1e-3, 1e9, 999_999_999.999999,
                                1e9 - 1e-6, 123_456_789.123456, 55.778413, 12.448409, -33.8688, 151.2093, 90, -180, 472.08,
                                0.1 + 0.2, 1.0 / 3, 2.0 / 3, 1e15, 1e16, 1e22, .leastNonzeroMagnitude, .greatestFiniteMagnitude,
                                Double(Int64.max), 0x1p52, 0x1p53, 4_503_599_627_370_495.5]
        for places in 0...8 {
            let unit = pow(10.0, Double(places))
            for _ in 0..<20_000 {
                let scale = r.pick([1.0, 10, 1_000, 1e6, 1e9, 1e12])
                let n = (r.unit() * scale * unit).rounded()
                values.append(n / unit)
                values.append(-n / unit)
                values.append((n / unit).nextUp)
                values.append((n / unit).nextDown)
            }
        }
        for _ in 0..<200_000 {
            values.append(Double(bitPattern: r.next()))
            values.append(Double(sign: .plus, exponent: r.below(64) - 15, significand: 1 + r.unit()))  // 2^-15 … 2^49
        }
        for meters in 0..<20_000 { values.append(DaySummary.kilometres(meters)) }
        for value in values where value.isFinite {
            var buffer = JSONBuffer()
            buffer.appendDouble(value)
            let text = String(decoding: buffer.bytes, as: UTF8.self)
            if text != value.description {
                XCTFail("\(value.bitPattern): \(text) is not \(value.description)")
                return
            }
        }
    }
}
