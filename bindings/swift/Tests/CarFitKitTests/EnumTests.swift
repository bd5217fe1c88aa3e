import CarFitKit
import Foundation
import Testing

/// The closed values of the contract are Swift enums, nested in the struct of their member
/// (`Month.FirstWeekday`, `CalendarSelectRequest.Mode`), through the built library both ways.
@Suite struct EnumTests {
    /// calendar.get's firstWeekday decodes to the enum the configuration names, and encodes back
    /// to the library's own text.
    @Test func aResponseEnumDecodesAndEncodes() async throws {
        for (configured, expected) in [("sunday", Month.FirstWeekday.sunday), ("monday", .monday)] {
            let config = #"{"now": "2020-09-10T07:00:00Z", "timeZone": "Europe/Copenhagen", "database": ":memory:", "#
                + #""firstWeekday": "\#(configured)"}"#
            let core = try Core(configJSON: config)
            let month = try await core.calendarGet(CalendarGetRequest())
            #expect(month.firstWeekday == expected)
            // The library's JSON and the struct's encoding say the same value.
            let raw = try await core.call("calendar.get", "{}")
            let fromLibrary = try JSONDecoder().decode([String: JSONValue].self, from: Data(raw.utf8))
            #expect(fromLibrary["firstWeekday"] == .string(configured))
            let encoded = try JSONDecoder().decode([String: JSONValue].self, from: JSONEncoder().encode(month))
            #expect(encoded["firstWeekday"] == .string(configured))
            #expect(try JSONDecoder().decode(CalendarGetResponse.self, from: JSONEncoder().encode(month)) == month)
        }
    }

    /// An attachment's kind and content type (a MIME type with a parameter) decode to their cases.
    @Test func attachmentKindAndContentType() async throws {
        let server = try FileServer()
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let core = try Core(configJSON: dayConfig(database: directory.appendingPathComponent("day.db").path,
                                                  sources: ["visits": server.url("visits.json")]))
        _ = try await core.visitsImport(try resource("carfit.json", as: VisitsImportRequest.self))
        let list = try await core.visitsList(VisitsListRequest(dates: ["2020-09-10"]))
        let key = try #require(list.days.first?.visits.first?.key)
        let attached = try await core.visitsAttach(VisitsAttachRequest(key: key, kind: .note, text: "Ring twice"))
        #expect(attached.attachment.kind == .note)
        #expect(attached.attachment.contentType == .textPlainCharsetUtf8)
        #expect(Attachment.ContentType.textPlainCharsetUtf8.rawValue == "text/plain; charset=utf-8")
        let listed = try await core.visitsAttachments(VisitsAttachmentsRequest(key: key))
        #expect(listed.attachments.map(\.kind) == [.note])
        #expect(listed.attachments.map(\.contentType) == [.textPlainCharsetUtf8])
    }

    /// calendar.select's mode is sent as its raw value: "toggle" adds a day and removes it again.
    @Test func aRequestEnumIsSent() async throws {
        let request = CalendarSelectRequest(date: "2020-09-12", mode: .toggle)
        let sent = try JSONDecoder().decode([String: JSONValue].self, from: JSONEncoder().encode(request))
        #expect(sent["mode"] == .string("toggle"))
        let core = try Core(configJSON: dayConfig())
        _ = try await core.calendarSelect(CalendarSelectRequest(date: "2020-09-11", mode: .single))
        let added = try await core.calendarSelect(request)
        #expect(added.selected == ["2020-09-11", "2020-09-12"])
        let removed = try await core.calendarSelect(CalendarSelectRequest(date: "2020-09-11", mode: .toggle))
        #expect(removed.selected == ["2020-09-12"])
        let single = try await core.calendarSelect(CalendarSelectRequest(date: "2020-09-14"))
        #expect(single.selected == ["2020-09-14"])
    }

    /// Every case's raw value is the contract's value, and a set-state request takes a card's
    /// VisitState as well as its own State.
    @Test func casesAndConversions() throws {
        #expect(CalendarSelectRequest.Mode.allCases.map(\.rawValue) == ["single", "toggle"])
        #expect(CatalogListRequest.Sort.allCases.map(\.rawValue) == ["name", "-name", "none"])
        #expect(VisitsSetStateRequest.State.allCases.allSatisfy { VisitsSetStateRequest.State(VisitState($0)) == $0 })
        #expect(VisitState.allCases.allSatisfy { VisitsSetStateRequest.State($0).rawValue == $0.rawValue })
        let next: VisitState = .rejected
        #expect(VisitsSetStateRequest(key: "k", state: next, reason: "Closed").state == .rejected)
        #expect(VisitsSetStateRequest(key: "k", state: .done).state == .done)
        #expect(Event.Source.Status(rawValue: "not_modified") == .notModified)
        #expect(throws: DecodingError.self) {
            try JSONDecoder().decode(CalendarSelectRequest.self, from: Data(#"{"date": "2020-09-10", "mode": "all"}"#.utf8))
        }
    }
}
