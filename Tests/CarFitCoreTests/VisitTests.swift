import XCTest
@testable import CarFitCore
import CarFitIO

final class VisitTests: XCTestCase {
    func record(_ pairs: KeyValuePairs<String, JSON>) -> JSON {
        var object = JSONObject(["startTimeUtc": "2020-09-10T08:05:00"])
        for (k, v) in pairs { object[k] = v }
        return .object(object)
    }

    func decode(_ pairs: KeyValuePairs<String, JSON>) -> Result<Visit, Rejection> {
        Visit.decode(record(pairs), index: 0)
    }

    func testStatesInAnySpelling() {
        for (source, state) in [("ToDo", "Todo"), ("todo", "Todo"), ("TODO", "Todo"), ("to_do", "Todo"),
                                ("InProgress", "InProgress"), ("in progress", "InProgress"), ("IN_PROGRESS", "InProgress"),
                                ("done", "Done"), ("Rejected", "Rejected"), ("Cancelled", "Cancelled"), ("", "")] {
            XCTAssertEqual(VisitState.display(source), state, source)
        }
        XCTAssertEqual(VisitState.color(of: "todo"), "#4E77D6")
        XCTAssertEqual(VisitState.color(of: "Cancelled"), "#8E8E93")
        XCTAssertEqual(VisitState.color(of: nil), "#8E8E93")
    }

    func testNameAndAddressLeaveOutMissingParts() throws {
        let v = try decode(["houseOwnerFirstName": "  Tone ", "houseOwnerLastName": .null,
                            "houseOwnerAddress": "Akademivej 15", "houseOwnerCity": "Lyngby"]).get()
        XCTAssertEqual(v.name, "Tone")
        XCTAssertEqual(v.address, "Akademivej 15 Lyngby")
        let empty = try decode([:]).get()
        XCTAssertEqual(empty.name, "")
        XCTAssertEqual(empty.address, "")
        XCTAssertEqual(empty.tasks, "")
        XCTAssertEqual(empty.taskMinutes, 0)
        XCTAssertNil(empty.coordinate)
    }

    func testTasks() throws {
        let v = try decode(["tasks": [.obj(["title": "A", "timesInMinutes": 25]), .obj(["title": .null, "timesInMinutes": 5]),
                                      .obj(["title": "B", "timesInMinutes": 10.0])]]).get()
        XCTAssertEqual(v.tasks, "A, B")
        XCTAssertEqual(v.taskMinutes, 40)
    }

    func testRejectionsNameTheField() {
        let cases: [(KeyValuePairs<String, JSON>, String)] = [
            (["startTimeUtc": .null], "startTimeUtc"),
            (["startTimeUtc": 5], "startTimeUtc"),
            (["startTimeUtc": "2020-09-31T00:00:00"], "startTimeUtc"),
            (["houseOwnerLatitude": 90.0001], "houseOwnerLatitude"),
            (["houseOwnerLatitude": "55"], "houseOwnerLatitude"),
            (["houseOwnerLongitude": 181], "houseOwnerLongitude"),
            (["tasks": "wash"], "tasks"),
            (["tasks": [1]], "tasks[0]"),
            (["tasks": [.obj(["timesInMinutes": 1.5])]], "tasks[0].timesInMinutes"),
            (["tasks": [.obj(["timesInMinutes": 100_001])]], "tasks[0].timesInMinutes"),
            (["tasks": [.obj(["title": false])]], "tasks[0].title"),
            (["visitId": 7], "visitId"),
            (["visitState": ["Done"]], "visitState"),
        ]
        for (pairs, field) in cases {
            guard case .failure(let r) = decode(pairs) else { XCTFail("accepted \(pairs)"); continue }
            XCTAssertEqual(r.field, field)
            XCTAssertFalse(r.message.isEmpty)
        }
        guard case .failure(let r) = Visit.decode(.array([]), index: 4) else { return XCTFail() }
        XCTAssertEqual(r.index, 4)
        XCTAssertNil(r.field)
    }

    /// A reader may hand `decode` only `memberNames`, and of each task object only
    /// `taskMemberNames` (the streamed import does): the outcome must be the same as for the
    /// whole record, refusals included.
    func testDecodeReadsOnlyTheNamedMembers() {
        // Every member of a record and of a task in the sample API document, and one more.
        let recordKeys = [
            "visitId", "homeBobEmployeeId", "houseOwnerId", "isBlocked", "startTimeUtc", "endTimeUtc", "title",
            "isReviewed", "isFirstVisit", "isManual", "visitTimeUsed", "rememberToday", "houseOwnerFirstName",
            "houseOwnerLastName", "houseOwnerMobilePhone", "houseOwnerAddress", "houseOwnerZip", "houseOwnerCity",
            "houseOwnerLatitude", "houseOwnerLongitude", "isSubscriber", "rememberAlways", "professional",
            "visitState", "stateOrder", "expectedTime", "tasks", "houseOwnerAssets", "visitAssets",
            "visitMessages", "extra",
        ]
        let taskKeys = ["taskId", "title", "isTemplate", "timesInMinutes", "price", "paymentTypeId",
                        "createDateUtc", "lastUpdateDateUtc", "paymentTypes", "extra"]
        var g = SplitMix64(seed: 20261122)
        func pick<T>(_ items: [T]) -> T { items[Int(g.next() % UInt64(items.count))] }
        func scalar() -> JSON {
            pick([.null, true, 7, -3, 0.5, 91.25, -181, 100_001, 25, "", "  Tone ", "Done", "in progress",
                  "2020-09-10T08:05:00", "2020-09-31T00:00:00", "55.7"])
        }
        func task() -> JSON {
            if g.next() % 10 == 0 { return scalar() }
            var t = JSONObject()
            for key in taskKeys where g.next() % 3 != 0 { t[key] = scalar() }
            return .object(t)
        }
        var outcomes = Set<String>()
        for i in 0..<3000 {
            var full = JSONObject()
            for key in recordKeys where g.next() % 4 != 0 {
                switch key {
                case "startTimeUtc": full[key] = g.next() % 8 == 0 ? scalar() : "2020-09-10T08:05:00Z"
                case "tasks": full[key] = g.next() % 8 == 0 ? scalar() : .array((0..<Int(g.next() % 4)).map { _ in task() })
                case "houseOwnerLatitude", "houseOwnerLongitude":
                    full[key] = g.next() % 3 == 0 ? scalar() : .double(Double(Int(g.next() % 360)) - 180)
                default: full[key] = scalar()
                }
            }
            var pruned = JSONObject()
            for key in Visit.memberNames {
                guard let value = full[key] else { continue }
                if key == "tasks", case .array(let tasks) = value {
                    pruned[key] = .array(tasks.map { task in
                        guard case .object(let t) = task else { return task }
                        var kept = JSONObject()
                        for name in Visit.taskMemberNames { if let v = t[name] { kept[name] = v } }
                        return .object(kept)
                    })
                } else {
                    pruned[key] = value
                }
            }
            let whole = Visit.decode(.object(full), index: i)
            XCTAssertEqual(Visit.decode(.object(pruned), index: i), whole, "record \(i)")
            switch whole {
            case .success: outcomes.insert("ok")
            case .failure(let r): outcomes.insert(r.field ?? "record")
            }
        }
        // The records reach both outcomes and the refusals of several fields.
        XCTAssertTrue(outcomes.contains("ok"))
        XCTAssertGreaterThan(outcomes.count, 5, "\(outcomes)")
    }

    func testSnapshotNeedsADataArray() {
        XCTAssertThrowsError(try VisitSnapshot(document: Fields(JSONObject(["success": true]))))
        XCTAssertThrowsError(try VisitSnapshot(document: Fields(JSONObject(["data": .obj([:])]))))
        let snap = VisitSnapshot([record([:]), .null, record(["houseOwnerLatitude": -91])], decode: Visit.decode)
        XCTAssertEqual(snap.visits.count, 1)
        XCTAssertEqual(snap.rejected.map(\.index), [1, 2])
    }

    func testKilometresRounding() {
        XCTAssertEqual(DaySummary.kilometres(0), 0.0)
        XCTAssertEqual(DaySummary.kilometres(49), 0.0)
        XCTAssertEqual(DaySummary.kilometres(50), 0.1)
        XCTAssertEqual(DaySummary.kilometres(978), 1.0)
        XCTAssertEqual(DaySummary.kilometres(3550), 3.6)
        XCTAssertEqual(DaySummary.kilometres(3549), 3.5)
        XCTAssertEqual(DaySummary.kilometres(123_456_789), 123456.8)
        XCTAssertEqual(DaySummary.kilometres(-3550), -3.6)
        XCTAssertEqual(DaySummary.kilometres(-3549), -3.5)
        XCTAssertEqual(DaySummary.kilometres(Int.max), Double(Int.max / 100 + 1) / 10)
        XCTAssertEqual(DaySummary.kilometres(Int.min), Double(Int.min / 100 - 1) / 10)
    }

    /// Minutes read from a database file are not bounded by an import: sums saturate.
    func testSummarySumsSaturate() {
        var s = DaySummary()
        s.add(taskMinutes: Int.max, distanceMeters: 10)
        s.add(taskMinutes: 5, distanceMeters: nil)
        XCTAssertEqual(s, DaySummary(visits: 2, taskMinutes: Int.max, distanceMeters: 10))
        let low = DaySummary(visits: 1, taskMinutes: Int.min, distanceMeters: 0) + DaySummary(visits: 1, taskMinutes: -1)
        XCTAssertEqual(low.taskMinutes, Int.min)
        XCTAssertEqual((s + s).visits, 4)
    }
}

final class CalendarTests: XCTestCase {
    func date(_ s: String) -> CivilDate { CivilDate(iso: s) ?? CivilDate(year: 1, month: 1, day: 1)! }

    func testNavigationAcrossYearsAndEnds() {
        var state = CalendarState(today: date("2020-12-15"))
        state.next()
        XCTAssertEqual(state.displayed, YearMonth(year: 2021, month: 1))
        state.previous()
        state.previous()
        XCTAssertEqual(state.displayed, YearMonth(year: 2020, month: 11))
        XCTAssertEqual(state.selectedDays, [date("2020-12-15")])

        var end = CalendarState(today: date("9999-12-01"))
        end.next()
        XCTAssertEqual(end.displayed, YearMonth(year: 9999, month: 12))
        var start = CalendarState(today: date("0001-01-01"))
        start.previous()
        XCTAssertEqual(start.displayed, YearMonth(year: 1, month: 1))
    }

    func testSelectSingleAndToggle() {
        var state = CalendarState(today: date("2020-09-10"))
        state.select(date("2020-09-12"), mode: .toggle)
        state.select(date("2020-09-01"), mode: .toggle)
        XCTAssertEqual(state.selectedDays, [date("2020-09-01"), date("2020-09-10"), date("2020-09-12")])
        state.select(date("2020-09-10"), mode: .toggle)
        XCTAssertEqual(state.selectedDays, [date("2020-09-01"), date("2020-09-12")])
        state.select(date("2021-02-03"), mode: .single)
        XCTAssertEqual(state.selectedDays, [date("2021-02-03")])
        XCTAssertEqual(state.displayed, YearMonth(year: 2021, month: 2))
        // Removing the only day leaves nothing selected and keeps the month.
        state.select(date("2021-02-03"), mode: .toggle)
        XCTAssertEqual(state.selectedDays, [])
    }

    func testMonthSheetGrid() throws {
        let month = try XCTUnwrap(YearMonth(year: 2020, month: 2))
        let monday = MonthSheet(month: month, today: date("2020-02-29"), selected: [date("2020-02-03")],
                                firstWeekday: .monday, visitCounts: [date("2020-02-03"): 4])
        // 2020-02-01 was a Saturday.
        XCTAssertEqual(monday.leadingDays, 5)
        let sunday = MonthSheet(month: month, today: nil, selected: [], firstWeekday: .sunday, visitCounts: [:])
        XCTAssertEqual(sunday.leadingDays, 6)
        XCTAssertEqual(monday.weekdays.first, "Mon")
        XCTAssertEqual(sunday.weekdays.first, "Sun")
        XCTAssertEqual(month.dayCount, 29)
        XCTAssertEqual(month.previous, YearMonth(year: 2020, month: 1))
    }
}

final class JSONEncodingTests: XCTestCase {
    func testShortestRealsAndEscapes() {
        XCTAssertEqual(JSON.double(472.08).encoded(), "472.08")
        XCTAssertEqual(JSON.double(0.1 + 0.2).encoded(), "0.30000000000000004")
        XCTAssertEqual(JSON.double(1).encoded(), "1.0")
        XCTAssertEqual(JSON.double(.nan).encoded(), "null")
        XCTAssertEqual(JSON.double(.infinity).encoded(), "null")
        XCTAssertEqual(JSON.string("a\"b\\c\n\u{01}\u{2028}é").encoded(), #""a\"b\\c\n\u0001\u2028é""#)
        XCTAssertEqual(JSON.obj(["b": 1, "a": [true, .null]]).encoded(), #"{"b":1,"a":[true,null]}"#)
        XCTAssertEqual(JSON.int(Int64.min).encoded(), "-9223372036854775808")
    }

    func testObjectKeepsFirstPositionAndLastValue() {
        var o = JSONObject()
        o["x"] = 1
        o["y"] = 2
        o["x"] = 3
        XCTAssertEqual(o.keys, ["x", "y"])
        XCTAssertEqual(o["x"], 3)
        o["x"] = nil
        XCTAssertEqual(o.keys, ["y"])
    }
}
