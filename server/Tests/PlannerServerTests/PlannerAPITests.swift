import Foundation
import Hummingbird
import HummingbirdTesting
import XCTest
@testable import PlannerServer

final class PlannerAPITests: XCTestCase, @unchecked Sendable {
    func record(_ visitId: String, start: String, washer: String, index: Int = 0) throws -> JSON {
        var r = try sampleRecords()[index]
        r["visitId"] = .string(visitId)
        r["startTimeUtc"] = .string(start)
        r["homeBobEmployeeId"] = .string(washer)
        r["visitState"] = "ToDo"
        return .object(r)
    }

    func testCreatePatchDeleteAndPushes() async throws {
        let h = try await Harness.make()
        let (ada, adaToken) = try await h.washer("Ada")
        let (bob, bobToken) = try await h.washer("Bob")
        try await h.store.registerDevice(washerId: ada.id, clientId: "ada-phone", platform: "fcm", token: "t1", now: h.clock.now)
        try await h.store.registerDevice(washerId: bob.id, clientId: "bob-phone", platform: "apns", token: "t2", now: h.clock.now)
        let admin = jsonHeaders(adminToken)
        try await h.app.test(.router) { client in
            let created = try await client.execute(uri: "/v1/planner/visits", method: .post, headers: admin,
                                                   body: body(try self.record("v1", start: "2026-03-02T10:00:00", washer: ada.id)))
            XCTAssertEqual(created.status, .created)
            XCTAssertEqual(created.json["visit"]?["startTimeUtc"], "2026-03-02T10:00:00Z")
            XCTAssertEqual(created.json["visit"]?["visitState"], "ToDo")
            let twice = try await client.execute(uri: "/v1/planner/visits", method: .post, headers: admin,
                                                 body: body(try self.record("v1", start: "2026-03-02T10:00:00Z", washer: ada.id)))
            XCTAssertEqual(twice.status, .conflict)
            // Moved and handed over to Bob.
            let moved = try await client.execute(uri: "/v1/planner/visits/v1/2026-03-02T10:00:00Z", method: .patch, headers: admin,
                                                 body: body(obj(["startTimeUtc": "2026-03-02T13:00:00Z", "homeBobEmployeeId": .string(bob.id),
                                                                 "houseOwnerAddress": "Elsewhere 1"])))
            XCTAssertEqual(moved.status, .ok)
            XCTAssertEqual(moved.json["visit"]?["houseOwnerAddress"], "Elsewhere 1")
            XCTAssertEqual(moved.json["visit"]?["homeBobEmployeeId"], .string(bob.id))
            let adas = try await client.execute(uri: "/v1/visits", method: .get, headers: auth(adaToken))
            XCTAssertEqual(adas.json["data"], [])
            let bobs = try await client.execute(uri: "/v1/visits", method: .get, headers: auth(bobToken))
            XCTAssertEqual(bobs.json["data"]?.arrayValue?.first?["startTimeUtc"], "2026-03-02T13:00:00Z")
            let gone = try await client.execute(uri: "/v1/planner/visits/v1/2026-03-02T10:00:00Z", method: .patch, headers: admin,
                                                body: body(obj(["title": "x"])))
            XCTAssertEqual(gone.status, .notFound)
            let cancelled = try await client.execute(uri: "/v1/planner/visits/v1/2026-03-02T14:00:00%2B01:00", method: .delete,
                                                     headers: auth(adminToken))
            XCTAssertEqual(cancelled.status, .ok)
            let again = try await client.execute(uri: "/v1/planner/visits/v1/2026-03-02T13:00:00Z", method: .delete, headers: auth(adminToken))
            XCTAssertEqual(again.status, .notFound)
            try await assertEqual(await client.execute(uri: "/v1/visits", method: .get, headers: auth(bobToken)).json["data"], [])
            // A washer's update to a cancelled visit is refused with the reason.
            let late = try await client.execute(uri: "/v1/visit-updates", method: .post, headers: jsonHeaders(bobToken), body: body(obj([
                "clientId": "bob-phone", "mutations": [mutation("m1", visit: "v1", start: "2026-03-02T13:00:00Z", state: "InProgress", at: "2026-03-02T13:00:00Z")]])))
            XCTAssertEqual(late.json["rejected"]?.arrayValue?.first?["reason"], "cancelled by the planner")
            // Pushes: Ada got the creation and the handover; Bob the handover and the cancellation.
            let adaPushes = try await client.execute(uri: "/v1/planner/pushes?washerId=\(ada.id)", method: .get, headers: auth(adminToken))
            XCTAssertEqual(adaPushes.json["pushes"]?.arrayValue?.map { $0["seq"] }, [.int(1), .int(2)])
            XCTAssertEqual(adaPushes.json["pushes"]?.arrayValue?.first?["state"], "queued")
            XCTAssertEqual(adaPushes.json["pushes"]?.arrayValue?.first?["platform"], "fcm")
            XCTAssertEqual(adaPushes.json["pushes"]?.arrayValue?.first?["lastError"], .null)
            XCTAssertEqual(adaPushes.json["pushes"]?.arrayValue?.first?["attempts"], .int(0))
            let bobPushes = try await client.execute(uri: "/v1/planner/pushes?washerId=\(bob.id)", method: .get, headers: auth(adminToken))
            XCTAssertEqual(bobPushes.json["pushes"]?.arrayValue?.map { $0["seq"] }, [.int(1), .int(2)])
            let nobody = try await client.execute(uri: "/v1/planner/pushes?washerId=nobody", method: .get, headers: auth(adminToken))
            XCTAssertEqual(nobody.status, .notFound)
        }
    }

    func testBadPlannerInput() async throws {
        let h = try await Harness.make()
        let (ada, adaToken) = try await h.washer("Ada")
        let admin = jsonHeaders(adminToken)
        @Sendable func with(_ key: String, _ value: JSON?) throws -> JSON {
            guard case .object(var r) = try record("v1", start: "2026-03-02T10:00:00Z", washer: ada.id) else { return .null }
            r[key] = value
            return .object(r)
        }
        try await h.app.test(.router) { client in
            for (doc, field) in [(try with("visitId", nil), "visitId"), (try with("startTimeUtc", "soon"), "startTimeUtc"),
                                 (try with("homeBobEmployeeId", .int(4)), "homeBobEmployeeId"),
                                 (try with("homeBobEmployeeId", "nobody"), "homeBobEmployeeId"),
                                 (try with("houseOwnerLatitude", "north"), "houseOwnerLatitude"),
                                 (try with("tasks", "wash"), "tasks"), (try with("visitState", "Sleeping"), "visitState"),
                                 (try with("houseOwnerFirstName", .int(1)), "houseOwnerFirstName")] {
                let r = try await client.execute(uri: "/v1/planner/visits", method: .post, headers: admin, body: body(doc))
                XCTAssertEqual(r.status, .badRequest, "\(field)")
                XCTAssertEqual(r.json["error"]?["field"], .string(field))
            }
            let notJSON = try await client.execute(uri: "/v1/planner/visits", method: .post, headers: admin, body: body("{"))
            XCTAssertEqual(notJSON.status, .badRequest)
            let byWasher = try await client.execute(uri: "/v1/planner/visits", method: .post, headers: jsonHeaders(adaToken),
                                                    body: body(try with("title", "x")))
            XCTAssertEqual(byWasher.status, .forbidden)
            let anonymous = try await client.execute(uri: "/v1/planner/day?date=2026-03-02", method: .get)
            XCTAssertEqual(anonymous.status, .unauthorized)
            XCTAssertEqual(anonymous.headers[.wwwAuthenticate], "Bearer")
            let unknownToken = try await client.execute(uri: "/v1/planner/day?date=2026-03-02", method: .get, headers: auth("x" + adminToken))
            XCTAssertEqual(unknownToken.status, .unauthorized)
            let badPath = try await client.execute(uri: "/v1/planner/visits/v1/someday", method: .delete, headers: auth(adminToken))
            XCTAssertEqual(badPath.status, .badRequest)
            _ = try await client.execute(uri: "/v1/planner/visits", method: .post, headers: admin, body: body(try with("title", "x")))
            let badPatch = try await client.execute(uri: "/v1/planner/visits/v1/2026-03-02T10:00:00Z", method: .patch, headers: admin,
                                                    body: body(obj(["houseOwnerLongitude": .double(200)])))
            XCTAssertEqual(badPatch.json["error"]?["field"], "houseOwnerLongitude")
            let rename = try await client.execute(uri: "/v1/planner/visits/v1/2026-03-02T10:00:00Z", method: .patch, headers: admin,
                                                  body: body(obj(["visitId": "v2"])))
            XCTAssertEqual(rename.json["error"]?["field"], "visitId")
            for query in ["", "?date=2026-02-30", "?date=tomorrow"] {
                let r = try await client.execute(uri: "/v1/planner/day\(query)", method: .get, headers: auth(adminToken))
                XCTAssertEqual(r.status, .badRequest)
                XCTAssertEqual(r.json["error"]?["field"], "date")
            }
            let zone = try await client.execute(uri: "/v1/planner/day?date=2026-03-02&timeZone=Mars/Olympus", method: .get, headers: auth(adminToken))
            XCTAssertEqual(zone.json["error"]?["field"], "timeZone")
        }
    }

    func testDayView() async throws {
        let h = try await Harness.make()
        let (ada, adaToken) = try await h.washer("Ada")
        _ = try await h.washer("Bob")
        _ = try await h.visit("late", washer: ada, start: "2026-03-02T22:30:00Z")   // 2026-03-02 23:30 in Copenhagen
        _ = try await h.visit("early", washer: ada, start: "2026-03-02T09:00:00Z")
        _ = try await h.visit("next", washer: ada, start: "2026-03-02T23:30:00Z")   // the 3rd in Copenhagen
        _ = try await h.visit("gone", washer: ada, start: "2026-03-02T11:00:00Z")
        _ = try await h.store.cancelVisit(visitId: "gone", startMs: Instant.parse("2026-03-02T11:00:00Z") ?? 0, now: h.clock.now,
                                          window: 0...Int64.max)
        _ = try await h.store.applyUpdates(washerId: ada.id, clientId: "c", mutations: [
            Mutation(mutationId: "1", visitId: "early", startMs: Instant.parse("2026-03-02T09:00:00Z") ?? 0, state: .inProgress, atMs: Instant.parse("2026-03-02T09:02:00Z") ?? 0),
            Mutation(mutationId: "2", visitId: "early", startMs: Instant.parse("2026-03-02T09:00:00Z") ?? 0, state: .done, atMs: Instant.parse("2026-03-02T09:50:00Z") ?? 0, timeUsedMinutes: 48),
        ], now: h.clock.now)
        _ = adaToken
        try await h.app.test(.router) { client in
            let r = try await client.execute(uri: "/v1/planner/day?date=2026-03-02&timeZone=Europe%2FCopenhagen", method: .get, headers: auth(adminToken))
            XCTAssertEqual(r.status, .ok)
            XCTAssertEqual(r.json["date"], "2026-03-02")
            let washers = r.json["washers"]?.arrayValue ?? []
            XCTAssertEqual(washers.map { $0["name"] }, ["Ada", "Bob"])
            XCTAssertEqual(washers[1]["visits"], [])
            XCTAssertEqual(washers[1]["lastPosition"], .null)
            let visits = washers[0]["visits"]?.arrayValue ?? []
            XCTAssertEqual(visits.map { $0["visitId"] }, ["early", "late"])
            XCTAssertEqual(visits[0]["state"], "Done")
            XCTAssertEqual(visits[0]["startedAt"], "2026-03-02T09:02:00Z")
            XCTAssertEqual(visits[0]["finishedAt"], "2026-03-02T09:50:00Z")
            XCTAssertEqual(visits[0]["timeUsedMinutes"], .int(48))
            XCTAssertEqual(visits[0]["name"], "Tone Holtermann")
            XCTAssertEqual(visits[0]["address"], "Akademivej 15, 1 th 2800 Kgs. Lyngby")
            XCTAssertEqual(visits[0]["attachments"], .int(0))
            XCTAssertEqual(visits[1]["startedAt"], .null)
            let utc = try await client.execute(uri: "/v1/planner/day?date=2026-03-02", method: .get, headers: auth(adminToken))
            XCTAssertEqual(utc.json["washers"]?.arrayValue?.first?["visits"]?.arrayValue?.map { $0["visitId"] }, ["early", "late", "next"])
        }
    }

    func testDurations() async throws {
        let h = try await Harness.make()
        let (ada, _) = try await h.washer("Ada")
        // The sample's first record: tasks of 25 and 35 planned minutes.
        var mutations: [Mutation] = []
        for i in 0..<5 {
            let start = "2026-03-0\(i + 1)T10:00:00Z"
            _ = try await h.visit("v\(i)", washer: ada, start: start)
            let s = Instant.parse(start) ?? 0
            mutations.append(Mutation(mutationId: "s\(i)", visitId: "v\(i)", startMs: s, state: .inProgress, atMs: s))
            // Worked 60, 72, 84, 96, 108 minutes.
            mutations.append(Mutation(mutationId: "d\(i)", visitId: "v\(i)", startMs: s, state: .done, atMs: s + Int64(60 + 12 * i) * 60_000))
        }
        _ = try await h.store.applyUpdates(washerId: ada.id, clientId: "c", mutations: mutations, now: h.clock.now)
        try await h.app.test(.router) { client in
            let r = try await client.execute(uri: "/v1/planner/durations", method: .get, headers: auth(adminToken))
            XCTAssertEqual(r.status, .ok)
            let tasks = r.json["tasks"]?.arrayValue ?? []
            XCTAssertEqual(tasks.map { $0["title"] }, ["Pudsning indvendig", "Pudsning udvendig"])
            XCTAssertEqual(tasks[0]["samples"], .int(5))
            // Indvendig's shares: 25/60 of 60, 72, 84, 96, 108 = 25, 30, 35, 40, 45; median the 3rd, p80 the 4th.
            XCTAssertEqual(tasks[0]["medianMinutes"]?.numberValue, 35)
            XCTAssertEqual(tasks[0]["p80Minutes"]?.numberValue, 40)
            XCTAssertEqual(tasks[1]["medianMinutes"]?.numberValue, 49)
            XCTAssertEqual(tasks[1]["p80Minutes"]?.numberValue, 56)
        }
    }

    func testDurationsKeepTheNewest50PerTitle() {
        let rows = (0..<60).map { i -> VisitRow in
            VisitRow(visitId: "v\(i)", startMs: 0, washerId: "w", record: ["tasks": [["title": " Wash ", "timesInMinutes": .int(10)], ["title": "Zero", "timesInMinutes": .int(0)]]],
                     state: .done, startedMs: 0, finishedMs: Int64(60 - i) * 60_000)
        }
        let learned = Durations.learn(from: rows)
        XCTAssertEqual(learned.map(\.title), ["Wash"])
        XCTAssertEqual(learned.first?.samples, 50)
        // The newest 50 worked 60 … 11 minutes: median the 25th smallest (35), p80 the 40th (50).
        XCTAssertEqual(learned.first?.median, 35)
        XCTAssertEqual(learned.first?.p80, 50)
    }

    func testBoard() async throws {
        let h = try await Harness.make()
        try await h.app.test(.router) { client in
            let r = try await client.execute(uri: "/board", method: .get)
            XCTAssertEqual(r.status, .ok)
            XCTAssertEqual(r.headers[.contentType], "text/html; charset=utf-8")
            XCTAssertTrue(r.text.contains("sessionStorage"))
            XCTAssertTrue(r.text.contains("/v1/planner/day"))
        }
    }
}
