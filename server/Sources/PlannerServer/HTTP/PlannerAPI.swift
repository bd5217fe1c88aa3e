import Foundation
import Hummingbird

/// The planner's API: visits planned, moved, handed over and cancelled; the day's view, the
/// learned durations and the push queue.
extension PlannerResponder {
    /// Members of the record the server keeps in columns rather than in the record.
    static let keyMembers: Set<String> = ["visitId", "startTimeUtc", "homeBobEmployeeId", "visitState"]
    static let textMembers = ["houseOwnerFirstName", "houseOwnerLastName", "houseOwnerAddress", "houseOwnerZip",
                              "houseOwnerCity", "houseOwnerMobilePhone", "expectedTime", "title", "professional",
                              "houseOwnerId"]

    /// Checks the members of a record the server reads (types and ranges), as 400s naming them.
    static func check(record: [String: JSON]) throws(APIError) {
        let m = try Members(.object(record))
        for key in textMembers { _ = try m.optionalString(key, max: 10_000) }
        if record["houseOwnerLatitude"].map({ !$0.isNull }) ?? false { _ = try m.number("houseOwnerLatitude", in: -90...90) }
        if record["houseOwnerLongitude"].map({ !$0.isNull }) ?? false { _ = try m.number("houseOwnerLongitude", in: -180...180) }
        _ = try m.optionalInt("visitTimeUsed", in: 0...1_000_000)
        if let tasks = record["tasks"], !tasks.isNull {
            guard case .array(let items) = tasks else { throw .badRequest("tasks must be an array.", field: "tasks") }
            for (i, item) in items.enumerated() {
                let t = try Members(item, path: "tasks[\(i)]")
                _ = try t.optionalString("title", max: 1000)
                if t.object["timesInMinutes"].map({ !$0.isNull }) ?? false { _ = try t.number("timesInMinutes", in: 0...100_000) }
            }
        }
    }

    static func state(_ value: JSON?) throws(APIError) -> VisitState? {
        guard let value, !value.isNull else { return nil }
        guard let text = value.stringValue, let state = VisitState(spelling: text) else {
            throw .badRequest("visitState must be ToDo, InProgress, Done or Rejected.", field: "visitState")
        }
        return state
    }

    /// `POST /v1/planner/visits` → 201 `{"visit"}`.
    func createVisit(_ request: Request) async throws -> Response {
        let body = try Members(try await json(request))
        let visitId = try body.string("visitId")
        let start = try body.instant("startTimeUtc")
        let washerId = try body.string("homeBobEmployeeId")
        let state = try Self.state(body.object["visitState"]) ?? .todo
        var record = body.object
        for key in Self.keyMembers { record[key] = nil }
        try Self.check(record: record)
        let now = options.clock()
        let visit = try await store.createVisit(VisitRow(visitId: visitId, startMs: start, washerId: washerId, record: record, state: state),
                                                now: now, window: window(now: now))
        return .json(.object(["visit": visit.seedRecord]), status: .created)
    }

    /// `PATCH /v1/planner/visits/{visitId}/{startTimeUtc}` → 200 `{"visit"}`.
    func patchVisit(_ request: Request, visitId: String, startMs: Int64) async throws -> Response {
        let body = try Members(try await json(request))
        if let id = body.object["visitId"], id != .string(visitId) {
            throw APIError.badRequest("visitId cannot change; cancel the visit and plan a new one.", field: "visitId")
        }
        let newStart: Int64? = try body.object["startTimeUtc"] == nil ? nil : body.instant("startTimeUtc")
        let newWasher: String? = try body.object["homeBobEmployeeId"] == nil ? nil : body.string("homeBobEmployeeId")
        let newState = try Self.state(body.object["visitState"])
        var changes = body.object
        for key in Self.keyMembers { changes[key] = nil }
        let changed = changes
        let now = options.clock()
        let visit = try await store.updateVisit(visitId: visitId, startMs: startMs, now: now, window: window(now: now)) { old in
            var new = old
            for (key, value) in changed { new.record[key] = value }
            try Self.check(record: new.record)
            if let newStart { new.startMs = newStart }
            if let newWasher { new.washerId = newWasher }
            if let newState { new.state = newState }
            return new
        }
        return .json(.object(["visit": visit.seedRecord]))
    }

    /// `DELETE /v1/planner/visits/{visitId}/{startTimeUtc}` → 200 `{"visit"}` (cancelled).
    func deleteVisit(visitId: String, startMs: Int64) async throws -> Response {
        let now = options.clock()
        let visit = try await store.cancelVisit(visitId: visitId, startMs: startMs, now: now, window: window(now: now))
        return .json(.object(["visit": visit.seedRecord]))
    }

    /// `GET /v1/planner/day?date=YYYY-MM-DD&timeZone=ZONE`.
    func day(_ request: Request) async throws -> Response {
        let query = Self.query(request)
        guard let dateText = query["date"], let (y, m, d) = Instant.parseDate(dateText) else {
            throw APIError.badRequest("date must be a date, YYYY-MM-DD.", field: "date")
        }
        let zoneName = query["timeZone"].flatMap { $0.isEmpty ? nil : $0 } ?? "UTC"
        guard let zone = TimeZone(identifier: zoneName) else {
            throw APIError.badRequest("timeZone must be an IANA time zone such as Europe/Copenhagen.", field: "timeZone")
        }
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = zone
        guard let from = calendar.date(from: DateComponents(year: Int(y), month: Int(m), day: Int(d))),
              let to = calendar.date(byAdding: .day, value: 1, to: from) else {
            throw APIError.badRequest("date is outside the calendar.", field: "date")
        }
        let range = Int64(from.timeIntervalSince1970 * 1000)..<Int64(to.timeIntervalSince1970 * 1000)
        let washers = try await store.day(range: range)
        func instant(_ ms: Int64?) -> JSON { ms.map { .string(Instant.format($0)) } ?? .null }
        let items: [JSON] = washers.map { w in
            .object([
                "washerId": .string(w.washer.id), "name": .string(w.washer.name),
                "lastPosition": w.lastPosition?.json ?? .null,
                "visits": .array(w.visits.map { v in
                    .object(["visitId": .string(v.visitId), "startTimeUtc": .string(Instant.format(v.startMs)),
                             "name": .string(v.name), "address": .string(v.address), "state": .string(v.state.rawValue),
                             "startedAt": instant(v.startedMs), "finishedAt": instant(v.state == .done ? v.finishedMs : nil),
                             "timeUsedMinutes": v.state == .done ? .num(v.timeUsedMinutes) : .null,
                             "attachments": .int(Int64(v.attachments))])
                }),
            ])
        }
        return .json(.object(["date": .string(dateText), "timeZone": .string(zoneName), "washers": .array(items)]))
    }

    /// `GET /v1/planner/durations`: each task title's learned minutes (`Durations`).
    func durations() async throws -> Response {
        let visits = try await store.finishedVisits(limit: 5_000)
        let tasks = Durations.learn(from: visits)
        return .json(.object(["tasks": .array(tasks.map { t in
            .object(["title": .string(t.title), "samples": .int(Int64(t.samples)),
                     "medianMinutes": .double(t.median), "p80Minutes": .double(t.p80)])
        })]))
    }

    /// `GET /v1/planner/pushes?washerId=`.
    func pushes(_ request: Request) async throws -> Response {
        let washerId = Self.query(request)["washerId"].flatMap { $0.isEmpty ? nil : $0 }
        if let washerId, try await store.washer(id: washerId) == nil {
            throw APIError(.notFound, "No washer \(washerId.prefix(100)).")
        }
        let rows = try await store.pushes(washerId: washerId)
        return .json(.object(["pushes": .array(rows.map { p in
            .object(["id": .string(p.id), "clientId": .string(p.clientId), "platform": .string(p.platform),
                     "seq": .int(p.seq), "state": .string(p.state), "attempts": .int(p.attempts), "lastError": .str(p.lastError)])
        })]))
    }
}
