import XCTest
@testable import CarFitCore

final class CivilDateTests: XCTestCase {
    func testEveryDayOfTheRangeRoundTrips() {
        var previous: CivilDate?
        for n in CivilDate.minDayNumber...CivilDate.maxDayNumber {
            guard let date = CivilDate(dayNumber: n) else { return XCTFail("no date for day \(n)") }
            if let previous {
                // Consecutive day numbers are consecutive dates.
                XCTAssertTrue(previous < date)
            }
            if date.dayNumber != n { return XCTFail("\(date) → \(date.dayNumber) ≠ \(n)") }
            previous = date
        }
        XCTAssertEqual(CivilDate(dayNumber: CivilDate.minDayNumber)?.description, "0001-01-01")
        XCTAssertEqual(CivilDate(dayNumber: CivilDate.maxDayNumber)?.description, "9999-12-31")
        XCTAssertNil(CivilDate(dayNumber: CivilDate.minDayNumber - 1))
        XCTAssertNil(CivilDate(dayNumber: CivilDate.maxDayNumber + 1))
        XCTAssertEqual(CivilDate(year: 1970, month: 1, day: 1)?.dayNumber, 0)
    }

    func testValidationAndLeapYears() {
        XCTAssertNil(CivilDate(iso: "2020-02-30"))
        XCTAssertNotNil(CivilDate(iso: "2020-02-29"))
        XCTAssertNil(CivilDate(iso: "2019-02-29"))
        XCTAssertNil(CivilDate(iso: "1900-02-29"))
        XCTAssertNotNil(CivilDate(iso: "2000-02-29"))
        XCTAssertNil(CivilDate(iso: "0000-01-01"))
        XCTAssertNil(CivilDate(iso: "2020-04-31"))
        XCTAssertNil(CivilDate(iso: "2020-9-10"))
        XCTAssertNil(CivilDate(iso: "2020-09-10T"))
        XCTAssertNil(CivilDate(iso: "２０２０-09-10"))
        XCTAssertNil(CivilDate(iso: "+020-09-10"))
        XCTAssertNil(CivilDate(year: 10000, month: 1, day: 1))
    }

    func testWeekdaysAreProlepticGregorian() {
        // 0001-01-01 was a Monday in the proleptic Gregorian calendar; there is no 1582 gap.
        XCTAssertEqual(CivilDate(year: 1, month: 1, day: 1)?.weekdayIndex, 0)
        XCTAssertEqual(CivilDate(year: 1582, month: 10, day: 4)?.weekdayIndex, 0)
        XCTAssertEqual(CivilDate(year: 1582, month: 10, day: 15)?.weekdayIndex, 4)
        XCTAssertNotNil(CivilDate(year: 1582, month: 10, day: 10))
        XCTAssertEqual(CivilDate(year: 2020, month: 9, day: 10)?.weekdayIndex, 3)
        XCTAssertEqual(CivilDate(year: 9999, month: 12, day: 31)?.weekdayIndex, 4)
    }
}

final class InstantTests: XCTestCase {
    func testParsingForms() {
        let base = Instant(iso: "2020-09-10T08:05:00Z")?.milliseconds
        XCTAssertEqual(base, 1_599_725_100_000)
        XCTAssertEqual(Instant(iso: "2020-09-10T08:05:00")?.milliseconds, base)
        XCTAssertEqual(Instant(iso: "2020-09-10T08:05")?.milliseconds, base)
        XCTAssertEqual(Instant(iso: "2020-09-10 08:05:00")?.milliseconds, base)
        XCTAssertEqual(Instant(iso: "2020-09-10T10:05:00+02:00")?.milliseconds, base)
        XCTAssertEqual(Instant(iso: "2020-09-10T10:05:00+0200")?.milliseconds, base)
        XCTAssertEqual(Instant(iso: "2020-09-10T03:05:00-05")?.milliseconds, base)
        XCTAssertEqual(Instant(iso: "2020-09-10T20:01:56.8831511")?.milliseconds, 1_599_768_116_883)
        XCTAssertEqual(Instant(iso: "0001-01-01T00:00:00Z")?.iso, "0001-01-01T00:00:00Z")
        XCTAssertEqual(Instant(iso: "1969-12-31T23:59:59.5Z")?.iso, "1969-12-31T23:59:59Z")
    }

    func testRefusals() {
        for bad in ["", "2020-09-10", "2020-09-10T24:00:00", "2020-09-10T23:60", "2020-09-10T23:59:60",
                    "2020-02-30T08:00:00", "2020-09-10T08:05:00Q", "2020-09-10T08:05:00+25:00",
                    "2020-09-10T08:05:00.", "2020-09-10T08:05:00Zjunk", "2020-09-10T8:05:00",
                    String(repeating: "9", count: 100)] {
            XCTAssertNil(Instant(iso: bad), bad)
        }
    }
}

final class ClockTests: XCTestCase {
    func testNowIsTheConfigsElseTheHostsClock() throws {
        let host = Instant(milliseconds: 1_600_000_000_000)
        let fixed = try XCTUnwrap(Instant(iso: "2020-09-10T07:00:00Z"))
        XCTAssertEqual(try Clock(hostNow: { host }).now, host)
        XCTAssertEqual(try Clock(fixedNow: fixed, hostNow: { host }).now, fixed)
        var config = CoreConfig(hour24: true, processors: 1)
        XCTAssertEqual(try config.clock(hostNow: { host }).now, host)
        config.now = fixed
        XCTAssertEqual(try config.clock(hostNow: { host }).now, fixed)
        XCTAssertEqual(try config.clock(hostNow: { host }).today, CivilDate(iso: "2020-09-10"))
    }

    func testLocalDaysAndTimesFollowTheZone() throws {
        let cph = try Clock(fakeZone: "Europe/Copenhagen")
        let summer = try XCTUnwrap(Instant(iso: "2020-09-10T22:30:00Z"))
        XCTAssertEqual(cph.localDate(summer)?.description, "2020-09-11")
        XCTAssertEqual(cph.timeText(summer, hour24: true), "00:30")
        XCTAssertEqual(cph.timeText(summer, hour24: false), "12:30 AM")
        let winter = try XCTUnwrap(Instant(iso: "2020-01-10T22:30:00Z"))
        XCTAssertEqual(cph.timeText(winter, hour24: true), "23:30")
        XCTAssertEqual(cph.localDate(winter)?.description, "2020-01-10")

        let la = try Clock(fakeZone: "America/Los_Angeles")
        XCTAssertEqual(la.localDate(summer)?.description, "2020-09-10")
        XCTAssertEqual(la.timeText(summer, hour24: false), "03:30 PM")
        let kiritimati = try Clock(fakeZone: "Pacific/Kiritimati")
        XCTAssertEqual(kiritimati.localDate(summer)?.description, "2020-09-11")
        XCTAssertEqual(kiritimati.timeText(summer, hour24: true), "12:30")
    }

    func testDayRangeHoldsEveryInstantOfTheDay() throws {
        let cases: [(String, [String])] = [
            ("Europe/Copenhagen", ["2020-03-29", "2020-10-25", "2020-09-10"]),
            ("America/Santiago", ["2020-04-04", "2020-04-05", "2020-09-05", "2020-09-06"]),
            ("Pacific/Apia", ["2011-12-29", "2011-12-30", "2011-12-31", "2012-01-01"]),
            ("Australia/Lord_Howe", ["2020-04-05", "2020-10-04"]),
            ("America/St_Johns", ["2020-03-08", "2020-11-01"]),
            ("Asia/Kathmandu", ["1986-01-01"]),
            ("Pacific/Kiritimati", ["1994-12-31", "1995-01-01", "2020-09-10"]),
            ("Etc/GMT+12", ["2020-09-10"]),
            ("UTC", ["0001-01-01", "9999-12-31"]),
        ]
        for (zone, days) in cases {
            let clock = try Clock(fakeZone: zone)
            for text in days {
                let date = try XCTUnwrap(CivilDate(iso: text))
                let wide = Clock.searchRange(for: date)
                let tight = clock.dayRange(for: date)
                XCTAssertTrue(tight.lowerBound >= wide.lowerBound && tight.upperBound <= wide.upperBound, "\(zone) \(text)")
                // A day next to a whole-day jump of the zone's offset keeps a wider range.
                let jumps = zone == "Pacific/Apia" || zone == "Pacific/Kiritimati"
                if !jumps { XCTAssertLessThan(tight.count, 30 * 3_600_000, "\(zone) \(text)") }
                var ms = wide.lowerBound
                var inside = 0
                while ms < wide.upperBound {
                    if clock.localDate(Instant(milliseconds: ms)) == date {
                        inside += 1
                        XCTAssertTrue(tight.contains(ms), "\(zone) \(text) \(ms)")
                    }
                    ms += 60_000
                }
                // Kiritimati skipped 1994-12-31 and Apia 2011-12-30; other days have instants.
                let skipped = ["Pacific/Kiritimati 1994-12-31", "Pacific/Apia 2011-12-30"].contains("\(zone) \(text)")
                if skipped { XCTAssertEqual(inside, 0) } else { XCTAssertGreaterThan(inside, 0, "\(zone) \(text)") }
            }
        }
    }

    func testSearchRangeCoversEveryZone() throws {
        let date = try XCTUnwrap(CivilDate(iso: "2020-03-29"))
        let range = Clock.searchRange(for: date)
        for zone in ["Pacific/Kiritimati", "Pacific/Pago_Pago", "Etc/GMT+12", "Asia/Kolkata", "UTC"] {
            let clock = try Clock(fakeZone: zone)
            // The first and last instants of the local day fall inside the range.
            var ms = range.lowerBound
            var inside: [Int64] = []
            while ms < range.upperBound {
                if clock.localDate(Instant(milliseconds: ms)) == date { inside.append(ms) }
                ms += 60_000
            }
            XCTAssertEqual(inside.count, 1440, zone)
            XCTAssertGreaterThan(inside.first ?? 0, range.lowerBound, zone)
            XCTAssertLessThan(inside.last ?? .max, range.upperBound - 60_000, zone)
        }
    }

    func testTwelveHourText() {
        XCTAssertEqual(Clock.timeText(minuteOfDay: 0, hour24: false), "12:00 AM")
        XCTAssertEqual(Clock.timeText(minuteOfDay: 12 * 60, hour24: false), "12:00 PM")
        XCTAssertEqual(Clock.timeText(minuteOfDay: 13 * 60 + 5, hour24: false), "01:05 PM")
        XCTAssertEqual(Clock.timeText(minuteOfDay: 23 * 60 + 59, hour24: true), "23:59")
    }

    func testLocaleClockStyle() {
        XCTAssertFalse(Clock.localeUses24Hour(environment: ["LANG": "en_US.UTF-8"]))
        XCTAssertTrue(Clock.localeUses24Hour(environment: ["LANG": "en_GB.UTF-8"]))
        XCTAssertTrue(Clock.localeUses24Hour(environment: ["LANG": "da_DK.UTF-8"]))
        XCTAssertTrue(Clock.localeUses24Hour(environment: ["LANG": "C"]))
        XCTAssertTrue(Clock.localeUses24Hour(environment: [:]))
        XCTAssertTrue(Clock.localeUses24Hour(environment: ["LC_ALL": "POSIX", "LANG": "en_US"]))
        // The first that is set wins: LC_ALL, then LC_TIME, then LANG.
        XCTAssertFalse(Clock.localeUses24Hour(environment: ["LC_TIME": "en_US.UTF-8", "LANG": "da_DK"]))
        XCTAssertTrue(Clock.localeUses24Hour(environment: ["LC_ALL": "en_GB", "LC_TIME": "en_US"]))
        XCTAssertTrue(Clock.localeUses24Hour(environment: ["LC_ALL": "", "LANG": "de_DE@euro"]))
    }

    func testUnknownZone() {
        XCTAssertThrowsError(try Clock(fakeZone: "Mars/Olympus"))
        XCTAssertThrowsError(try Clock(fakeZone: ""))
        XCTAssertThrowsError(try Clock(fakeZone: String(repeating: "A", count: 1000)))
    }
}
