import CarFitAPI
import CarFitCore
import CarFitIO
import XCTest

/// The calendar's requests read and its month document written.
final class CalendarAPITests: XCTestCase {
    private func date(_ text: String) -> CivilDate { CivilDate(iso: text) ?? CivilDate(year: 1, month: 1, day: 1)! }

    func testTheMonthDocument() throws {
        let month = try XCTUnwrap(YearMonth(year: 2020, month: 2))
        let monday = MonthSheet(month: month, today: date("2020-02-29"), selected: [date("2020-02-03")],
                                firstWeekday: .monday, visitCounts: [date("2020-02-03"): 4])
        guard case .object(let doc) = monday.json, case .array(let days)? = doc["days"] else { return XCTFail() }
        XCTAssertEqual(days.count, 29)
        XCTAssertEqual(doc["title"], "February 2020")
        XCTAssertEqual(doc["leadingDays"], 5)
        XCTAssertEqual(days[2].objectValue?["visits"], 4)
        XCTAssertEqual(days[2].objectValue?["isSelected"], true)
        XCTAssertEqual(days[28].objectValue?["isToday"], true)
        XCTAssertEqual(doc["previous"], .obj(["year": 2020, "month": 1]))
        XCTAssertEqual(doc["next"], .obj(["year": 2020, "month": 3]))
        XCTAssertEqual(doc["selected"], ["2020-02-03"])
    }

    func testSelectionAndMonthRequests() throws {
        XCTAssertEqual(try DaySelection(Fields(JSONObject(["date": "2020-09-11"]))).mode, .single)
        XCTAssertEqual(try DaySelection(Fields(JSONObject(["date": "2020-09-11", "mode": "toggle"]))).mode, .toggle)
        for (object, field) in [(JSONObject(["date": "2020-02-30"]), "date"), (JSONObject([:]), "date"),
                                (JSONObject(["date": "2020-09-11", "mode": "all"]), "mode")] {
            XCTAssertThrowsError(try DaySelection(Fields(object))) { error in XCTAssertEqual((error as? CarFitError)?.field, field) }
        }
        XCTAssertEqual(try MonthRequest(Fields(JSONObject(["year": 2020, "month": 2]))).month, YearMonth(year: 2020, month: 2))
        for (object, field) in [(JSONObject(["year": 2020, "month": 13]), "month"), (JSONObject(["month": 1]), "year"),
                                (JSONObject(["year": 0, "month": 1]), "year"), (JSONObject(["year": 10000, "month": 1]), "year"),
                                (JSONObject(["year": 2020]), "month")] {
            XCTAssertThrowsError(try MonthRequest(Fields(object))) { error in XCTAssertEqual((error as? CarFitError)?.field, field) }
        }
    }
}
