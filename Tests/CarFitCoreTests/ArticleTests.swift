import Foundation
import XCTest

@testable import CarFitCore
import CarFitIO

final class ArticleDateTests: XCTestCase {
    private func instant(_ iso: String) throws -> Instant {
        try XCTUnwrap(Instant(iso: iso), iso)
    }

    private func text(_ iso: String, zone: String = "UTC", now: String, hour24: Bool = true) throws -> String? {
        let clock = try Clock(fakeZone: zone, fixedNow: try instant(now), hour24: hour24)
        return ArticleDate.text(try instant(iso), clock: clock, hour24: hour24)
    }

    func testCurrentYearLeavesOutTheYear() throws {
        XCTAssertEqual(try text("2018-03-16T12:34:00Z", now: "2018-09-01T00:00:00Z"), "16 March, 12:34")
        XCTAssertEqual(try text("2018-05-25T14:13:00Z", now: "2018-05-25T14:13:00Z"), "25 May, 14:13")
    }

    func testOtherYearsWriteTheYear() throws {
        XCTAssertEqual(try text("2017-12-20T21:43:00Z", now: "2018-09-01T00:00:00Z"), "20 December 2017, 21:43")
        XCTAssertEqual(try text("2019-01-05T08:00:00Z", now: "2018-09-01T00:00:00Z"), "5 January 2019, 08:00")
    }

    func testTwelveHourClock() throws {
        XCTAssertEqual(try text("2017-12-20T21:43:00Z", now: "2018-09-01T00:00:00Z", hour24: false), "20 December 2017, 09:43 PM")
        XCTAssertEqual(try text("2018-03-16T00:05:00Z", now: "2018-09-01T00:00:00Z", hour24: false), "16 March, 12:05 AM")
        XCTAssertEqual(try text("2018-03-16T12:34:00Z", now: "2018-09-01T00:00:00Z", hour24: false), "16 March, 12:34 PM")
    }

    func testDayWithoutPaddingAndEveryMonthName() throws {
        let names = ["January", "February", "March", "April", "May", "June", "July", "August",
                     "September", "October", "November", "December"]
        for (i, name) in names.enumerated() {
            let iso = "2018-" + (i + 1 < 10 ? "0" : "") + "\(i + 1)-01T10:00:00Z"
            XCTAssertEqual(try text(iso, now: "2018-06-01T00:00:00Z"), "1 \(name), 10:00")
        }
    }

    func testZoneMovesDayAndTime() throws {
        // 21:43 UTC is 22:43 in Copenhagen in winter, 05:43 next day in Tokyo.
        XCTAssertEqual(try text("2017-12-20T21:43:00Z", zone: "Europe/Copenhagen", now: "2018-09-01T00:00:00Z"),
                       "20 December 2017, 22:43")
        XCTAssertEqual(try text("2017-12-20T21:43:00Z", zone: "Asia/Tokyo", now: "2018-09-01T00:00:00Z"),
                       "21 December 2017, 06:43")
        // Summer time: 14:13 UTC is 16:13 in Copenhagen on 25 May.
        XCTAssertEqual(try text("2018-05-25T14:13:00Z", zone: "Europe/Copenhagen", now: "2018-09-01T00:00:00Z"),
                       "25 May, 16:13")
    }

    /// 2020-12-31T23:30Z is 1 January 2021, 13:30 in Kiritimati (UTC+14) and 31 December 2020,
    /// 12:30 in Pago Pago (UTC-11): the year compared is the local one, of the date and of now.
    func testNewYearBoundaryInZonesFarFromUTC() throws {
        let date = "2020-12-31T23:30:00Z"
        // Kiritimati: now 2020-12-31T12:00Z is already 2021-01-01 02:00 there.
        XCTAssertEqual(try text(date, zone: "Pacific/Kiritimati", now: "2020-12-31T12:00:00Z"), "1 January, 13:30")
        // now 2020-12-31T09:00Z is still 2020-12-31 23:00 there: the date is next year.
        XCTAssertEqual(try text(date, zone: "Pacific/Kiritimati", now: "2020-12-31T09:00:00Z"), "1 January 2021, 13:30")
        XCTAssertEqual(try text(date, zone: "Pacific/Kiritimati", now: "2021-06-01T00:00:00Z"), "1 January, 13:30")
        // Pago Pago: now 2021-01-01T05:00Z is still 2020-12-31 18:00 there.
        XCTAssertEqual(try text(date, zone: "Pacific/Pago_Pago", now: "2021-01-01T05:00:00Z"), "31 December, 12:30")
        // now 2021-01-01T12:00Z is 2021-01-01 01:00 there: the date is last year.
        XCTAssertEqual(try text(date, zone: "Pacific/Pago_Pago", now: "2021-01-01T12:00:00Z"), "31 December 2020, 12:30")
        XCTAssertEqual(try text(date, zone: "Pacific/Pago_Pago", now: "2021-01-01T12:00:00Z", hour24: false),
                       "31 December 2020, 12:30 PM")
        // In UTC the same instants give the UTC year.
        XCTAssertEqual(try text(date, zone: "UTC", now: "2021-01-01T05:00:00Z"), "31 December 2020, 23:30")
        XCTAssertEqual(try text(date, zone: "UTC", now: "2020-12-31T05:00:00Z"), "31 December, 23:30")
    }

    func testEndsOfTheYearRange() throws {
        // The local day of 0001-01-01T00:00Z in New York (local mean time, -4:56) is in year 0:
        // no text; the list falls back to UTC.
        XCTAssertNil(try text("0001-01-01T00:00:00Z", zone: "America/New_York", now: "2020-01-01T00:00:00Z"))
        let clock = try Clock(fakeZone: "America/New_York", fixedNow: try instant("2020-01-01T00:00:00Z"))
        XCTAssertEqual(ArticleDate.listText(try instant("0001-01-01T00:00:00Z"), clock: clock, hour24: true),
                       "1 January 1, 00:00")
        XCTAssertEqual(try text("9999-12-31T23:59:00Z", now: "9999-06-01T00:00:00Z"), "31 December, 23:59")
    }

    func testSourceDateTimeIsStrict() {
        XCTAssertEqual(ArticleDate.parseSource("25.05.2018 14:13")?.iso, "2018-05-25T14:13:00Z")
        XCTAssertEqual(ArticleDate.parseSource("29.02.2020 00:00")?.iso, "2020-02-29T00:00:00Z")
        XCTAssertEqual(ArticleDate.parseSource("31.12.9999 23:59")?.iso, "9999-12-31T23:59:00Z")
        XCTAssertEqual(ArticleDate.parseSource("01.01.0001 00:00")?.iso, "0001-01-01T00:00:00Z")
        for bad in ["29.02.2019 10:00", "32.01.2018 10:00", "31.04.2018 10:00", "00.01.2018 10:00",
                    "01.13.2018 10:00", "01.00.2018 10:00", "01.01.0000 10:00", "25.05.2018 24:00",
                    "25.05.2018 14:60", "5.05.2018 14:13", "25.5.2018 14:13", "25.05.18 14:13",
                    "25.05.2018 4:13", "25.05.2018 14:13:00", "25-05-2018 14:13", "25.05.2018T14:13",
                    " 25.05.2018 14:13", "25.05.2018 14:13 ", "2018-05-25T14:13:00Z", "", "25.05.2018",
                    "+5.05.2018 14:13", "２５.05.2018 14:13", "25.05.2018 14:1a"] {
            XCTAssertNil(ArticleDate.parseSource(bad), bad)
        }
    }
}
