import XCTest
import CarFitCore

/// The reference day the streaming writer is checked against: its distances and summary.
final class DaySheetTests: XCTestCase {
    func testDaySheetDistancesAndSummary() throws {
        let start = try XCTUnwrap(Instant(iso: "2020-09-10T08:00:00Z"))
        func visit(_ lat: Double?, _ lon: Double?, minutes: Int) -> Visit {
            Visit(visitId: nil, employeeId: nil, start: start, name: "", state: "Todo", expectedTime: nil, tasks: "",
                  taskMinutes: minutes, address: "", phone: nil, latitude: lat, longitude: lon)
        }
        let sheet = DaySheet(date: try XCTUnwrap(CivilDate(iso: "2020-09-10")), visits: [
            visit(55.77883, 12.52124, minutes: 60), visit(55.77453, 12.51967, minutes: 45),
            visit(nil, 12.5, minutes: 5), visit(55.7765, 12.5127, minutes: 35), visit(55.7765, 12.5127, minutes: 0),
        ])
        XCTAssertEqual(sheet.cards.map(\.distanceMeters), [nil, 489, nil, nil, 0])
        XCTAssertEqual(sheet.summary, DaySummary(visits: 5, taskMinutes: 145, distanceMeters: 489))
    }
}
