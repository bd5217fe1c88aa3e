import Foundation
import XCTest

/// Sections 3 and 4 through the real library.
final class VisitsABITests: ABITestCase {
    func sample() throws -> String {
        try String(contentsOf: Repo.fixtures.appendingPathComponent("carfit.json"), encoding: .utf8)
    }

    func testTheHeadersExampleDay() throws {
        let core = try TestCore(lib)
        let imported = core.call("visits.import", try sample())
        XCTAssertEqual(imported.status, 0)
        XCTAssertEqual(imported.object["imported"] as? Int, 7)
        XCTAssertEqual((imported.object["rejected"] as? [Any])?.count, 0)

        let reply = core.call("visits.list", #"{"dates": ["2020-09-10"]}"#)
        XCTAssertEqual(reply.status, 0)
        let day = try XCTUnwrap((reply.object["days"] as? [[String: Any]])?.first)
        let cards = try XCTUnwrap(day["visits"] as? [[String: Any]])
        XCTAssertEqual(cards.map { $0["startTime"] as? String }, ["10:05", "10:40", "11:15"])
        XCTAssertEqual(cards.map { $0["state"] as? String }, ["Done", "InProgress", "Todo"])
        XCTAssertEqual(cards.map { $0["stateColor"] as? String }, ["#25A87B", "#F5C709", "#4E77D6"])
        XCTAssertTrue(cards[0]["distanceMeters"] is NSNull)
        XCTAssertEqual(cards[1]["distanceMeters"] as? Int, 489)
        XCTAssertEqual(cards[1]["distanceKm"] as? Double, 0.5)
        XCTAssertEqual(cards[0]["name"] as? String, "Tone Holtermann")
        XCTAssertEqual(cards[0]["tasks"] as? String, "Pudsning indvendig, Pudsning udvendig")
        XCTAssertEqual(cards[0]["taskMinutes"] as? Int, 60)
        XCTAssertEqual(cards[0]["address"] as? String, "Akademivej 15, 1 th 2800 Kgs. Lyngby")
        let summary = try XCTUnwrap(day["summary"] as? [String: Any])
        XCTAssertEqual(summary["visits"] as? Int, 3)
        XCTAssertEqual(summary["taskMinutes"] as? Int, 140)
        XCTAssertEqual(summary["distanceMeters"] as? Int, 978)
        XCTAssertEqual(summary["distanceKm"] as? Double, 1.0)
        XCTAssertTrue(reply.text?.contains(#""distanceKm":1.0"#) ?? false)
    }

    func testSelectionDrivesTheListAndDaysComeInOrderOnce() throws {
        let core = try TestCore(lib)
        core.call("visits.import", try sample())
        core.call("calendar.select", #"{"date": "2020-09-30"}"#)
        core.call("calendar.select", #"{"date": "2020-09-11", "mode": "toggle"}"#)
        let listed = core.call("visits.list", nil)
        let days = (listed.object["days"] as? [[String: Any]])?.map { $0["date"] as? String }
        XCTAssertEqual(days, ["2020-09-11", "2020-09-30"])
        XCTAssertEqual((listed.object["summary"] as? [String: Any])?["visits"] as? Int, 4)

        let asked = core.call("visits.list", #"{"dates": ["2020-09-30", "2020-09-01", "2020-09-30"]}"#)
        let askedDays = try XCTUnwrap(asked.object["days"] as? [[String: Any]])
        XCTAssertEqual(askedDays.map { $0["date"] as? String }, ["2020-09-30", "2020-09-01"])
        XCTAssertEqual((askedDays[1]["visits"] as? [Any])?.count, 0)
    }

    /// A document of many batches is parsed on worker threads (importThreads 2) and on the
    /// calling thread alone (0): the same answer and snapshot, and the same error for a
    /// document that breaks off. Under the sanitizers this runs the worker threads.
    func testLargeImportOnWorkerThreads() throws {
        let records = (0..<1500).map { i in
            i == 700 ? #"{"startTimeUtc": "2020-09-10T08:00:00", "houseOwnerLatitude": 95}"#
                : #"{"visitId": "v\#(i)", "startTimeUtc": "2020-09-\#(10 + i % 3)T0\#(i % 10):00:00", "houseOwnerFirstName": "Tone \#(i)", "houseOwnerLatitude": 55.7, "houseOwnerLongitude": 12.5, "tasks": [{"title": "Vask", "timesInMinutes": 15}]}"#
        }
        let document = #"{"success": true, "data": ["# + records.joined(separator: ",") + "]}"
        let days = #"{"dates": ["2020-09-10", "2020-09-11", "2020-09-12"]}"#
        var answers: [String?] = []
        var lists: [String?] = []
        var errors: [String?] = []
        for threads in [2, 0] {
            let core = try TestCore(lib, config: #"{"now": "2020-09-10T07:00:00Z", "timeZone": "Europe/Copenhagen", "importThreads": \#(threads)}"#)
            let imported = core.call("visits.import", document)
            XCTAssertEqual(imported.status, 0)
            XCTAssertEqual(imported.object["imported"] as? Int, 1499)
            XCTAssertEqual((imported.object["rejected"] as? [[String: Any]])?.first?["index"] as? Int, 700)
            answers.append(imported.text)
            lists.append(core.call("visits.list", days).text)
            let broken = core.call("visits.import", String(document.dropLast(2)))
            XCTAssertEqual(broken.status, 1)
            errors.append(broken.text)
            XCTAssertEqual(core.call("visits.list", days).text, lists.last ?? nil)
        }
        XCTAssertEqual(answers[0], answers[1])
        XCTAssertEqual(lists[0], lists[1])
        XCTAssertEqual(errors[0], errors[1])
    }

    func testFailedImportChangesNothing() throws {
        let core = try TestCore(lib)
        core.call("visits.import", try sample())
        let before = core.call("visits.list", #"{"dates": ["2020-09-10", "2020-09-11", "2020-09-30"]}"#).text
        for bad in [#"{"success": true}"#, #"{"data": {}}"#, #"{"data": null}"#, #"{"data": "x"}"#, "{", "[]"] {
            XCTAssertNotEqual(core.call("visits.import", bad).status, 0, bad)
        }
        XCTAssertEqual(core.call("visits.import", #"{"data": 5}"#).field, "data")
        XCTAssertEqual(core.call("visits.list", #"{"dates": ["2020-09-10", "2020-09-11", "2020-09-30"]}"#).text, before)
    }

    func testRejectionsByIndexAndField() throws {
        let core = try TestCore(lib)
        let doc = #"""
        {"data": [
          {"startTimeUtc": "2020-09-10T08:00:00"},
          {"startTimeUtc": "2020-02-30T08:00:00"},
          {"startTimeUtc": "2020-09-10T08:00:00", "houseOwnerLatitude": 91},
          {"startTimeUtc": "2020-09-10T08:00:00", "houseOwnerLongitude": -180.5},
          {"visitId": "no start"},
          7,
          {"startTimeUtc": "2020-09-10T08:00:00", "tasks": [{"title": "A", "timesInMinutes": -5}]},
          {"startTimeUtc": "2020-09-10T08:00:00", "houseOwnerFirstName": 12},
          {"startTimeUtc": "2020-09-10T09:00:00+02:00", "visitState": "in progress"}
        ]}
        """#
        let reply = core.call("visits.import", doc)
        XCTAssertEqual(reply.status, 0)
        XCTAssertEqual(reply.object["imported"] as? Int, 2)
        let rejected = try XCTUnwrap(reply.object["rejected"] as? [[String: Any]])
        XCTAssertEqual(rejected.map { $0["index"] as? Int }, [1, 2, 3, 4, 5, 6, 7])
        XCTAssertEqual(rejected.map { $0["field"] as? String }, ["startTimeUtc", "houseOwnerLatitude", "houseOwnerLongitude",
                                                                "startTimeUtc", nil, "tasks[0].timesInMinutes", "houseOwnerFirstName"])
        let day = core.call("visits.list", #"{"dates": ["2020-09-10"], "hour24": false}"#)
        let cards = try XCTUnwrap(((day.object["days"] as? [[String: Any]])?.first?["visits"]) as? [[String: Any]])
        // 09:00+02:00 is 07:00Z, an hour before the other: cards go by instant, shown in Copenhagen time.
        XCTAssertEqual(cards.map { $0["startTime"] as? String }, ["09:00 AM", "10:00 AM"])
        XCTAssertEqual(cards.map { $0["state"] as? String }, ["InProgress", nil])
        XCTAssertEqual(cards.map { $0["stateColor"] as? String }, ["#F5C709", "#8E8E93"])
    }

    func testEmployeeFilterAndDuplicateIdsKept() throws {
        let core = try TestCore(lib)
        core.call("visits.import", try sample())
        let all = core.call("visits.list", #"{"dates": ["2020-09-30"]}"#)
        XCTAssertEqual((((all.object["days"] as? [[String: Any]])?.first?["visits"]) as? [Any])?.count, 2)
        let none = core.call("visits.list", #"{"dates": ["2020-09-10"], "employeeId": "nobody"}"#)
        XCTAssertEqual((none.object["summary"] as? [String: Any])?["visits"] as? Int, 0)
        XCTAssertEqual(core.call("visits.list", #"{"employeeId": 5}"#).field, "employeeId")
        XCTAssertEqual(core.call("visits.list", #"{"dates": "2020-09-10"}"#).field, "dates")
        XCTAssertEqual(core.call("visits.list", #"{"dates": ["2020-9-10"]}"#).field, "dates[0]")
    }

    func testFileDatabaseSurvivesReopen() throws {
        let path = NSTemporaryDirectory() + "carfit-\(UUID().uuidString).db"
        defer { for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: path + suffix) } }
        let config = #"{"database": "\#(path)", "now": "2020-09-10T07:00:00Z", "timeZone": "Europe/Copenhagen"}"#
        do {
            let core = try TestCore(lib, config: config)
            XCTAssertEqual(core.call("visits.import", try sample()).status, 0)
            core.close()
        }
        let core = try TestCore(lib, config: config)
        let month = core.call("calendar.get", nil).object
        let counts = (month["days"] as? [[String: Any]])?.map { $0["visits"] as? Int ?? -1 }
        XCTAssertEqual(counts?.reduce(0, +), 7)
        XCTAssertEqual(counts?[9], 3)
    }

    func testCalendarNavigationAndSelection() throws {
        let core = try TestCore(lib, config: #"{"now": "2020-12-31T23:30:00Z", "timeZone": "Europe/Copenhagen"}"#)
        // In Copenhagen it is already 2021-01-01.
        var state = core.call("calendar.get", nil).object
        XCTAssertEqual(state["today"] as? String, "2021-01-01")
        XCTAssertEqual(state["selected"] as? [String], ["2021-01-01"])
        XCTAssertEqual(state["title"] as? String, "January 2021")
        state = core.call("calendar.previous", nil).object
        XCTAssertEqual(state["title"] as? String, "December 2020")
        XCTAssertEqual(state["selected"] as? [String], ["2021-01-01"])
        state = core.call("calendar.next", nil).object
        state = core.call("calendar.next", nil).object
        XCTAssertEqual(state["title"] as? String, "February 2021")
        state = core.call("calendar.select", #"{"date": "2020-09-11"}"#).object
        XCTAssertEqual(state["title"] as? String, "September 2020")
        XCTAssertEqual(state["leadingDays"] as? Int, 1)
        state = core.call("calendar.select", #"{"date": "2020-09-01", "mode": "toggle"}"#).object
        XCTAssertEqual(state["selected"] as? [String], ["2020-09-01", "2020-09-11"])
        state = core.call("calendar.select", #"{"date": "2020-09-11", "mode": "toggle"}"#).object
        XCTAssertEqual(state["selected"] as? [String], ["2020-09-01"])
        for (req, field) in [(#"{"date": "2020-13-01"}"#, "date"), (#"{}"#, "date"), (#"{"date": "2020-09-01", "mode": "multi"}"#, "mode"),
                             (#"{"date": "0000-01-01"}"#, "date"), (#"{"date": 20200901}"#, "date")] {
            let r = core.call("calendar.select", req)
            XCTAssertEqual(r.status, 2, req)
            XCTAssertEqual(r.field, field, req)
        }
        // A refused select changed nothing.
        XCTAssertEqual(core.call("calendar.get", nil).object["selected"] as? [String], ["2020-09-01"])
    }

    func testMonthEdgesAndSundayGrid() throws {
        let core = try TestCore(lib, config: #"{"now": "2020-09-10T07:00:00Z", "firstWeekday": "sunday"}"#)
        let sep = core.call("calendar.month", #"{"year": 2020, "month": 9}"#).object
        XCTAssertEqual(sep["leadingDays"] as? Int, 2)
        XCTAssertEqual(sep["weekdays"] as? [String], ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"])
        let first = core.call("calendar.month", #"{"year": 1, "month": 1}"#).object
        XCTAssertTrue(first["previous"] is NSNull)
        XCTAssertEqual((first["days"] as? [[String: Any]])?.first?["weekday"] as? String, "Mon")
        let last = core.call("calendar.month", #"{"year": 9999, "month": 12}"#).object
        XCTAssertTrue(last["next"] is NSNull)
        XCTAssertEqual((last["days"] as? [Any])?.count, 31)
        // October 1582 has all 31 days: no Julian cut-over.
        let oct1582 = core.call("calendar.month", #"{"year": 1582, "month": 10}"#).object
        let days = try XCTUnwrap(oct1582["days"] as? [[String: Any]])
        XCTAssertEqual(days.count, 31)
        XCTAssertEqual(days[3]["weekday"] as? String, "Mon")
        XCTAssertEqual(days[14]["weekday"] as? String, "Fri")
        for (req, field) in [(#"{"year": 0, "month": 1}"#, "year"), (#"{"year": 10000, "month": 1}"#, "year"),
                             (#"{"year": 2020, "month": 13}"#, "month"), (#"{"year": 2020}"#, "month"),
                             (#"{"year": "2020", "month": 1}"#, "year"), (#"{"year": 2020.5, "month": 1}"#, "year")] {
            XCTAssertEqual(core.call("calendar.month", req).field, field, req)
        }
        // The state did not move.
        XCTAssertEqual(core.call("calendar.get", nil).object["title"] as? String, "September 2020")
    }
}
