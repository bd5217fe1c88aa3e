import CarFitCore
import CarFitIO
import CarFitServices
import CarFitStore
import XCTest

/// The calendar's rules on the typed service: the opening month by the core's clock and zone,
/// moving between months up to the ends of the range, the selection, the sheet of any month,
/// the first weekday and the visits counted per local day.
final class CalendarServiceTests: XCTestCase {
    private func date(_ text: String) throws -> CivilDate { try XCTUnwrap(CivilDate(iso: text), text) }
    private func month(_ year: Int, _ month: Int) throws -> YearMonth { try XCTUnwrap(YearMonth(year: year, month: month)) }

    /// The example day (2020-09-10 in Copenhagen) with the sample visits.
    private func loaded() throws -> ServiceFixture {
        let f = try ServiceFixture()
        XCTAssertEqual(try f.importVisits(try ServiceFixture.text("carfit.json")).objectValue?["imported"], 7)
        return f
    }

    func testTheOpeningMonthCountsTheVisitsPerLocalDay() throws {
        let f = try loaded()
        let sheet = try f.calendarService.document(f.calendar)
        XCTAssertEqual(sheet.month, try month(2020, 9))
        XCTAssertEqual(sheet.month.name, "September")
        XCTAssertEqual(sheet.today, try date("2020-09-10"))
        XCTAssertEqual(sheet.selected, [try date("2020-09-10")])
        XCTAssertEqual(sheet.firstWeekday, .monday)
        XCTAssertEqual(sheet.weekdays, ["Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun"])
        XCTAssertEqual(sheet.leadingDays, 1)
        XCTAssertEqual(sheet.month.dayCount, 30)
        XCTAssertEqual(try date("2020-09-01").weekdayIndex, 1)
        XCTAssertEqual(sheet.visitCounts, [try date("2020-09-10"): 3, try date("2020-09-11"): 2, try date("2020-09-30"): 2])
        XCTAssertEqual(sheet.month.previous, try month(2020, 8))
        XCTAssertEqual(sheet.month.next, try month(2020, 10))
    }

    func testNextAndPreviousCrossTheYearEndAndKeepTheSelection() throws {
        let f = try ServiceFixture(now: "2020-12-15T12:00:00Z")
        let calendar = f.calendarService
        calendar.next(&f.calendar)
        var sheet = try calendar.document(f.calendar)
        XCTAssertEqual(sheet.month, try month(2021, 1))
        XCTAssertEqual(sheet.month.name, "January")
        XCTAssertEqual(sheet.month.previous, try month(2020, 12))
        XCTAssertEqual(sheet.selected, [try date("2020-12-15")])
        calendar.previous(&f.calendar)
        XCTAssertEqual(f.calendar.displayed, try month(2020, 12))
        calendar.previous(&f.calendar)
        sheet = try calendar.document(f.calendar)
        XCTAssertEqual(sheet.month, try month(2020, 11))
        XCTAssertEqual(sheet.selected, [try date("2020-12-15")])
    }

    func testTheNewYearComesByTheLocalZone() throws {
        // 23:30 UTC on 31 December is already 1 January in Copenhagen.
        let f = try ServiceFixture(now: "2020-12-31T23:30:00Z")
        let sheet = try f.calendarService.document(f.calendar)
        XCTAssertEqual(sheet.today, try date("2021-01-01"))
        XCTAssertEqual(sheet.month, try month(2021, 1))
    }

    func testSelectingASingleDayOrTogglingAndAnotherMonthIsShown() throws {
        let f = try loaded()
        let calendar = f.calendarService
        calendar.select(try date("2020-09-11"), mode: .single, &f.calendar)
        XCTAssertEqual(try calendar.document(f.calendar).selected, [try date("2020-09-11")])
        calendar.select(try date("2020-09-03"), mode: .toggle, &f.calendar)
        XCTAssertEqual(try calendar.document(f.calendar).selected, [try date("2020-09-03"), try date("2020-09-11")])
        calendar.select(try date("2020-09-11"), mode: .toggle, &f.calendar)
        XCTAssertEqual(try calendar.document(f.calendar).selected, [try date("2020-09-03")])
        calendar.select(try date("2020-09-10"), mode: .single, &f.calendar)
        XCTAssertEqual(try calendar.document(f.calendar).selected, [try date("2020-09-10")])
        // A day of another month: that month is shown, the selection keeps both.
        calendar.select(try date("2021-02-14"), mode: .toggle, &f.calendar)
        let sheet = try calendar.document(f.calendar)
        XCTAssertEqual(sheet.month, try month(2021, 2))
        XCTAssertEqual(sheet.selected, [try date("2020-09-10"), try date("2021-02-14")])
    }

    func testTheSheetOfAnyMonthLeavesTheStateAlone() throws {
        let f = try loaded()
        let february = try f.calendarService.document(f.calendar, month: try month(2024, 2))
        XCTAssertEqual(february.month.name, "February")
        XCTAssertEqual(february.month.dayCount, 29)
        XCTAssertEqual(february.visitCounts, [:])
        XCTAssertEqual(f.calendar.displayed, try month(2020, 9))
        XCTAssertEqual(try f.calendarService.document(f.calendar).month, try month(2020, 9))
    }

    func testTheFirstAndLastMonthsOfTheRange() throws {
        let f = try loaded()
        let first = try f.calendarService.document(f.calendar, month: try month(1, 1))
        XCTAssertEqual(first.leadingDays, 0, "1 January of year 1 is a Monday")
        XCTAssertNil(first.month.previous)
        XCTAssertEqual(first.month.next, try month(1, 2))
        let last = try f.calendarService.document(f.calendar, month: try month(9999, 12))
        XCTAssertEqual(last.leadingDays, 2, "1 December 9999 is a Wednesday")
        XCTAssertNil(last.month.next)
        XCTAssertEqual(last.month.previous, try month(9999, 11))
        XCTAssertNil(YearMonth(year: 0, month: 1))
        XCTAssertNil(YearMonth(year: 10000, month: 1))
        XCTAssertNil(YearMonth(year: 2020, month: 13))
    }

    func testMovingPastTheEndsOfTheRangeStays() throws {
        let early = try ServiceFixture(now: "0001-01-01T12:00:00Z")
        early.calendarService.previous(&early.calendar)
        XCTAssertEqual(early.calendar.displayed, try month(1, 1))
        let late = try ServiceFixture(now: "9999-12-31T12:00:00Z")
        late.calendarService.next(&late.calendar)
        XCTAssertEqual(late.calendar.displayed, try month(9999, 12))
    }

    func testOctober1582IsProlepticGregorian() throws {
        let f = try ServiceFixture()
        let october = try f.calendarService.document(f.calendar, month: try month(1582, 10))
        XCTAssertEqual(october.month.dayCount, 31)
        XCTAssertEqual(october.leadingDays, 4)
        XCTAssertEqual(try date("1582-10-05").day, 5)
        XCTAssertEqual(try date("1582-10-15").weekdayIndex, 4, "a Friday")
    }

    func testASundayFirstGrid() throws {
        let f = try ServiceFixture()
        let calendar = CalendarService(db: f.db, visits: VisitStore(f.db), clock: f.clock, firstWeekday: .sunday, documents: f.documents)
        let sheet = try calendar.document(f.calendar)
        XCTAssertEqual(sheet.weekdays, ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"])
        XCTAssertEqual(sheet.leadingDays, 2)
    }

    /// Each day's weekday is the column the grid puts it in.
    func testWeekdaysAndTheGridAgree() throws {
        let f = try ServiceFixture()
        // The weekday (0 = Monday) of each month's first day.
        for (year, number, firstWeekday) in [(2020, 2, 5), (2021, 8, 6), (2000, 1, 5)] {
            let sheet = try f.calendarService.document(f.calendar, month: try month(year, number))
            XCTAssertEqual(sheet.leadingDays, firstWeekday)
            for day in 1...sheet.month.dayCount {
                let date = try XCTUnwrap(CivilDate(year: year, month: number, day: day))
                XCTAssertEqual(date.weekdayIndex, (firstWeekday + day - 1) % 7)
                XCTAssertEqual(sheet.weekdays[(sheet.leadingDays + day - 1) % 7], MonthSheet.weekdayNames[date.weekdayIndex])
            }
        }
    }
}
