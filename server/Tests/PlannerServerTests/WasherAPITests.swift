import Crypto
import Foundation
import Hummingbird
import HTTPTypes
import HummingbirdTesting
import XCTest
@testable import PlannerServer

final class WasherAPITests: XCTestCase, @unchecked Sendable {
    func testSnapshotWindowOrderAndETag() async throws {
        let h = try await Harness.make()
        let (ada, token) = try await h.washer("Ada")
        let (bob, _) = try await h.washer("Bob")
        _ = try await h.visit("late", washer: ada, start: "2026-03-02T12:00:00Z")
        _ = try await h.visit("b", washer: ada, start: "2026-03-02T10:00:00Z", index: 1)
        _ = try await h.visit("a", washer: ada, start: "2026-03-02T10:00:00Z", index: 2)
        _ = try await h.visit("old", washer: ada, start: "2026-02-22T10:00:00Z")      // 8 days before
        _ = try await h.visit("edge", washer: ada, start: "2026-02-23T08:00:00Z")     // exactly 7 days before
        _ = try await h.visit("far", washer: ada, start: "2026-04-07T08:00:01Z")      // just over 35 days after
        _ = try await h.visit("bobs", washer: bob, start: "2026-03-02T10:00:00Z")
        try await h.app.test(.router) { client in
            let first = try await client.execute(uri: "/v1/visits", method: .get, headers: auth(token))
            XCTAssertEqual(first.status, .ok)
            let doc = first.json
            XCTAssertEqual(doc["success"], .bool(true))
            XCTAssertEqual(doc["code"], .int(200))
            let data = doc["data"]?.arrayValue ?? []
            XCTAssertEqual(data.compactMap { $0["visitId"]?.stringValue }, ["edge", "a", "b", "late"])
            XCTAssertEqual(data.first?["homeBobEmployeeId"], .string(ada.id))
            XCTAssertEqual(data.first?["visitState"], .string("ToDo"))
            XCTAssertEqual(data.first?["houseOwnerFirstName"], .string("Tone"))
            XCTAssertEqual(data.first?["rememberToday"], .null, "null members stay, written as null")
            let tag = try XCTUnwrap(first.headers[.eTag])
            XCTAssertTrue(tag.hasPrefix("\"") && tag.hasSuffix("\""), "a strong tag")
            let same = try await client.execute(uri: "/v1/visits", method: .get, headers: auth(token, [.ifNoneMatch: tag]))
            XCTAssertEqual(same.status, .notModified)
            XCTAssertEqual(same.body.readableBytes, 0)
            // The washer's update changes the body and so the tag.
            let update = obj(["clientId": "c1", "mutations": .array([mutation("m1", visit: "a", start: "2026-03-02T10:00:00Z",
                                                                                state: "InProgress", at: "2026-03-02T10:01:00Z")])])
            let applied = try await client.execute(uri: "/v1/visit-updates", method: .post, headers: jsonHeaders(token), body: body(update))
            XCTAssertEqual(applied.json["applied"], .array(["m1"]))
            let after = try await client.execute(uri: "/v1/visits", method: .get, headers: auth(token, [.ifNoneMatch: tag]))
            XCTAssertEqual(after.status, .ok)
            XCTAssertNotEqual(after.headers[.eTag], tag)
            XCTAssertEqual(after.json["data"]?.arrayValue?[1]["visitState"], .string("InProgress"))
            let unchanged = try await client.execute(uri: "/v1/visits", method: .get, headers: auth(token))
            XCTAssertEqual(unchanged.headers[.eTag], after.headers[.eTag], "the same body has the same tag")
        }
    }

    func testAuthentication() async throws {
        let h = try await Harness.make()
        let (_, token) = try await h.washer()
        try await h.app.test(.router) { client in
            for headers: HTTPFields in [[:], [.authorization: "Bearer nope-nope"], [.authorization: "Basic \(token)"]] {
                let r = try await client.execute(uri: "/v1/visits", method: .get, headers: headers)
                XCTAssertEqual(r.status, .unauthorized)
                XCTAssertEqual(r.headers[.wwwAuthenticate], "Bearer")
                XCTAssertEqual(r.json["error"]?["status"], .int(401))
                XCTAssertNotNil(r.json["error"]?["message"]?.stringValue)
            }
            let planner = try await client.execute(uri: "/v1/visit-updates", method: .post, headers: jsonHeaders(adminToken),
                                                   body: body(obj(["clientId": "c", "mutations": []])))
            XCTAssertEqual(planner.status, .forbidden)
            let unknown = try await client.execute(uri: "/v1/nothing", method: .get, headers: auth(token))
            XCTAssertEqual(unknown.status, .notFound)
            let method = try await client.execute(uri: "/v1/visits", method: .delete, headers: auth(token))
            XCTAssertEqual(method.status, .methodNotAllowed)
            XCTAssertEqual(method.headers[.allow], "GET")
        }
    }

    func testUpdatesExactlyOnceAndClientOwnership() async throws {
        let h = try await Harness.make()
        let (ada, token) = try await h.washer("Ada")
        let (_, bobToken) = try await h.washer("Bob")
        _ = try await h.visit("v1", washer: ada, start: "2026-03-02T10:00:00Z")
        let request = obj(["clientId": "c1", "mutations": .array([
            mutation("m1", visit: "v1", start: "2026-03-02T10:00:00.000Z", state: "InProgress", at: "2026-03-02T10:00:00Z"),
            mutation("m2", visit: "v1", start: "2026-03-02T11:00:00+01:00", state: "Done", at: "2026-03-02T10:30:00Z", timeUsed: 30),
            mutation("m3", visit: "v1", start: "2026-03-02T10:00:00Z", state: "Todo", at: "2026-03-02T10:31:00Z"),
            mutation("m4", visit: "v9", start: "2026-03-02T10:00:00Z", state: "InProgress", at: "2026-03-02T10:31:00Z"),
        ])])
        try await h.app.test(.router) { client in
            let first = try await client.execute(uri: "/v1/visit-updates", method: .post, headers: jsonHeaders(token), body: body(request))
            XCTAssertEqual(first.status, .ok)
            XCTAssertEqual(first.json["applied"], .array(["m1", "m2"]))
            XCTAssertEqual(first.json["rejected"], .array([
                obj(["mutationId": "m3", "reason": "a visit in state Done cannot become Todo"]),
                obj(["mutationId": "m4", "reason": "unknown visit"]),
            ]))
            let again = try await client.execute(uri: "/v1/visit-updates", method: .post, headers: jsonHeaders(token), body: body(request))
            XCTAssertEqual(again.json, first.json, "a resend gets its first answer")
            let snapshot = try await client.execute(uri: "/v1/visits", method: .get, headers: auth(token))
            XCTAssertEqual(snapshot.json["data"]?.arrayValue?.first?["visitTimeUsed"], .int(30))
            XCTAssertEqual(snapshot.json["data"]?.arrayValue?.first?["visitState"], .string("Done"))
            let stolen = try await client.execute(uri: "/v1/visit-updates", method: .post, headers: jsonHeaders(bobToken), body: body(request))
            XCTAssertEqual(stolen.status, .forbidden)
            let stolenPoints = try await client.execute(uri: "/v1/locations", method: .post, headers: jsonHeaders(bobToken),
                                                        body: body(obj(["clientId": "c1", "points": []])))
            XCTAssertEqual(stolenPoints.status, .forbidden)
            let stolenDevice = try await client.execute(uri: "/v1/devices", method: .post, headers: jsonHeaders(bobToken),
                                                        body: body(obj(["clientId": "c1", "platform": "fcm", "token": "abc"])))
            XCTAssertEqual(stolenDevice.status, .forbidden)
        }
    }

    func testBadUpdateBodiesApplyNothing() async throws {
        let h = try await Harness.make()
        let (ada, token) = try await h.washer()
        _ = try await h.visit("v1", washer: ada, start: "2026-03-02T10:00:00Z")
        let good = mutation("ok", visit: "v1", start: "2026-03-02T10:00:00Z", state: "InProgress", at: "2026-03-02T10:00:00Z")
        @Sendable func with(_ key: String, _ value: JSON) -> JSON {
            guard case .object(var m) = good else { return good }
            m[key] = value
            return .object(m)
        }
        let bodies: [(String, String?)] = [
            ("not json", nil),
            ("[]", nil),
            (obj(["clientId": .int(3), "mutations": []]).text, "clientId"),
            (obj(["clientId": "c", "mutations": "no"]).text, "mutations"),
            (obj(["clientId": "c", "mutations": .array([good, .int(1)])]).text, "mutations[1]"),
            (obj(["clientId": "c", "mutations": .array([good, with("mutationId", .int(1))])]).text, "mutations[1].mutationId"),
            (obj(["clientId": "c", "mutations": .array([good, with("state", "Sleeping")])]).text, "mutations[1].state"),
            (obj(["clientId": "c", "mutations": .array([good, with("at", "yesterday")])]).text, "mutations[1].at"),
            (obj(["clientId": "c", "mutations": .array([good, with("timeUsedMinutes", "5")])]).text, "mutations[1].timeUsedMinutes"),
            (obj(["clientId": "c", "mutations": .array([good, with("reason", .int(5))])]).text, "mutations[1].reason"),
            (obj(["clientId": "c", "mutations": .array([good, with("visitId", .bool(true))])]).text, "mutations[1].visitId"),
            (obj(["clientId": "c", "mutations": .array(Array(repeating: good, count: 501))]).text, "mutations"),
            (obj(["clientId": "c", "mutations": .array([good]), "pad": .string(String(repeating: "x", count: 1 << 20))]).text, nil),
        ]
        try await h.app.test(.router) { client in
            for (text, field) in bodies {
                let r = try await client.execute(uri: "/v1/visit-updates", method: .post, headers: jsonHeaders(token), body: body(text))
                XCTAssertEqual(r.status, .badRequest, text.prefix(80).description)
                XCTAssertEqual(r.json["error"]?["status"], .int(400))
                XCTAssertEqual(r.json["error"]?["field"]?.stringValue, field, text.prefix(80).description)
            }
            let snapshot = try await client.execute(uri: "/v1/visits", method: .get, headers: auth(token))
            XCTAssertEqual(snapshot.json["data"]?.arrayValue?.first?["visitState"], .string("ToDo"), "nothing applied")
        }
    }

    func testLocationsOnceAndBadPoints() async throws {
        let h = try await Harness.make()
        let (_, token) = try await h.washer()
        @Sendable func point(_ id: String, _ lat: JSON, at: String = "2026-03-02T09:00:00Z") -> JSON {
            obj(["id": .string(id), "latitude": lat, "longitude": .double(12.5), "accuracyMeters": .double(8), "at": .string(at)])
        }
        try await h.app.test(.router) { client in
            let r = try await client.execute(uri: "/v1/locations", method: .post, headers: jsonHeaders(token),
                                             body: body(obj(["clientId": "c1", "points": .array([point("p1", .double(55.1)), point("p2", .double(55.2), at: "2026-03-02T09:05:00Z")])])))
            XCTAssertEqual(r.status, .ok)
            XCTAssertEqual(r.json["applied"], .array(["p1", "p2"]))
            let again = try await client.execute(uri: "/v1/locations", method: .post, headers: jsonHeaders(token),
                                                 body: body(obj(["clientId": "c1", "points": .array([point("p1", .double(55.1))])])))
            XCTAssertEqual(again.json["applied"], .array(["p1"]))
            for (bad, field) in [(point("p3", .double(91)), "points[0].latitude"), (point("p3", "55"), "points[0].latitude"),
                                 (point("", .double(1)), "points[0].id")] {
                let refused = try await client.execute(uri: "/v1/locations", method: .post, headers: jsonHeaders(token),
                                                       body: body(obj(["clientId": "c1", "points": .array([bad])])))
                XCTAssertEqual(refused.status, .badRequest)
                XCTAssertEqual(refused.json["error"]?["field"], .string(field))
            }
            let tooMany = try await client.execute(uri: "/v1/locations", method: .post, headers: jsonHeaders(token),
                                                   body: body(obj(["clientId": "c1", "points": .array((0...1000).map { point("q\($0)", .double(1)) })])))
            XCTAssertEqual(tooMany.status, .badRequest)
            let day = try await client.execute(uri: "/v1/planner/day?date=2026-03-02", method: .get, headers: auth(adminToken))
            XCTAssertEqual(day.json["washers"]?.arrayValue?.first?["lastPosition"]?["latitude"], .double(55.2))
            XCTAssertEqual(day.json["washers"]?.arrayValue?.first?["lastPosition"]?["at"], .string("2026-03-02T09:05:00Z"))
        }
    }

    func testDevices() async throws {
        let h = try await Harness.make()
        let (ada, token) = try await h.washer()
        try await h.app.test(.router) { client in
            let ok = try await client.execute(uri: "/v1/devices", method: .post, headers: jsonHeaders(token),
                                              body: body(obj(["clientId": "c1", "platform": "apns", "token": "abc123"])))
            XCTAssertEqual(ok.status, .ok)
            XCTAssertEqual(ok.json["device"]?["registered"], .bool(true))
            for (doc, field) in [(obj(["clientId": "c1", "platform": "sms", "token": "x"]), "platform"),
                                 (obj(["clientId": "c1", "platform": "fcm", "token": "a b"]), "token"),
                                 (obj(["clientId": "c1", "token": "x"]), "platform"),
                                 (obj(["platform": "fcm", "token": "x"]), "clientId")] {
                let r = try await client.execute(uri: "/v1/devices", method: .post, headers: jsonHeaders(token), body: body(doc))
                XCTAssertEqual(r.status, .badRequest)
                XCTAssertEqual(r.json["error"]?["field"], .string(field))
            }
            let off = try await client.execute(uri: "/v1/devices", method: .post, headers: jsonHeaders(token),
                                               body: body(obj(["clientId": "c1", "platform": "apns", "token": .null])))
            XCTAssertEqual(off.json["device"]?["registered"], .bool(false))
        }
        // Unregistered: a planner's change queues nothing for it.
        _ = try await h.visit("v1", washer: ada, start: "2026-03-02T10:00:00Z")
        try await assertEqual(await h.store.pushes(washerId: ada.id), [])
    }
}
