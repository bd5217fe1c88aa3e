import Foundation
import XCTest

/// A valid request for one operation, the status it must give on a prepared core, and checks
/// that tell its answer (and its effect on the core) from every other operation's.
struct OperationProbe {
    var request: String?
    var status: Int32 = 0
    /// Checks the reply of the named export, then the core it ran on; `method` labels failures.
    var check: (Reply, TestCore, String) -> Void
}

/// The probes of `ConventionTests`, one per operation of the header, and the core they run on.
enum OperationProbes {
    /// Sources that refuse at once: the refresh operations answer "unavailable", reason
    /// "refused", each naming its own URL.
    static let visitsSource = "http://127.0.0.1:1/visits.json"
    static let articlesSource = "http://127.0.0.1:1/articles.json"
    static let catalogSource = "http://127.0.0.1:1/catalog.json"
    static let patternsSource = "http://127.0.0.1:1/patterns/random"
    static let updatesSource = "http://127.0.0.1:1/visit-updates"
    /// Mads Kolding's visit on the example day (Todo in the sample).
    static let madsKey = "ec94deca-d66a-4d62-b049-72414870de00|1599729300000|0"
    /// The second of Mads Kolding's two visits on 2020-09-30, started on the prepared core: one
    /// change waits in its outbox.
    static let laterKey = "ec94deca-d66a-4d62-b049-72414870de00|1601457300000|1"

    /// Where the prepared cores keep their attachments (one directory per test process).
    static let attachmentsDirectory = FileManager.default.temporaryDirectory
        .appendingPathComponent("carfit-probes-\(ProcessInfo.processInfo.processIdentifier)").path

    static let config = """
        {"now": "2020-09-10T07:00:00Z", "timeZone": "Europe/Copenhagen", "hour24": true,
         "attachments": {"directory": "\(attachmentsDirectory)"},
         "sources": {"visits": "\(visitsSource)", "articles": "\(articlesSource)",
                     "catalog": "\(catalogSource)", "patterns": "\(patternsSource)",
                     "visitUpdates": "\(updatesSource)"}}
        """

    /// A core on the example day with every sample document of examples/data imported, two
    /// employees (Ada Lovelace, PIN 4821, logged in; Grace Hopper, PIN 7777), one order placed
    /// (product 104 x 1) and product 104 x 2 in Ada's cart, and one visit of 2020-09-30 started
    /// (one change in the outbox).
    static func preparedCore(_ lib: Library) throws -> TestCore {
        let core = try TestCore(lib, config: config)
        let steps: [(String, String)] = [
            ("visits.import", try sample("carfit.json")),
            ("transactions.import", try sample("transactions.json")),
            ("catalog.import", try sample("catalog.json")),
            ("articles.import", try sample("articles.json")),
            ("patterns.import", try sample("patterns.json")),
            ("employees.create", #"{"pin": "4821", "firstName": "Ada", "lastName": "Lovelace", "email": "ada@example.com", "hiredOn": "2024-03-01"}"#),
            ("employees.create", #"{"pin": "7777", "firstName": "Grace", "lastName": "Hopper", "email": "grace@example.com", "hiredOn": "2024-04-01"}"#),
            ("session.login", #"{"pin": "4821"}"#),
            ("cart.add", #"{"productId": 104}"#),
            ("cart.checkout", "{}"),
            ("cart.add", #"{"productId": 104, "quantity": 2}"#),
            ("visits.set_state", #"{"key": "\#(laterKey)", "state": "InProgress"}"#),
        ]
        for (method, request) in steps {
            let reply = core.call(method, request)
            guard reply.status == 0 else {
                throw NSError(domain: "setup \(method)", code: Int(reply.status), userInfo: ["response": reply.text ?? ""])
            }
        }
        return core
    }

    static func sample(_ name: String) throws -> String {
        try String(contentsOf: Repo.fixtures.appendingPathComponent(name), encoding: .utf8)
    }

    static func all() throws -> [String: OperationProbe] {
        [
            // Visits
            "visits.import": OperationProbe(request: try sample("carfit.json")) { r, core, m in
                XCTAssertEqual(r.int("imported"), 7, m)
                XCTAssertEqual(r.list("rejected").count, 0, m)
                XCTAssertEqual(r.object.keys.sorted(), ["changes", "imported", "rejected"], m)
                XCTAssertEqual(r.list("changes").count, 0, m)
                XCTAssertEqual(core.call("visits.list", #"{"dates": ["2020-09-10"]}"#).list("days").first?.list("visits").count, 3, m)
            },
            "visits.list": OperationProbe(request: #"{"dates": ["2020-09-10"]}"#) { r, _, m in
                let days = r.list("days")
                XCTAssertEqual(days.map { $0.string("date") }, ["2020-09-10"], m)
                XCTAssertEqual(days.first?.list("visits").map { $0.string("name") },
                               ["Tone Holtermann", "Kenn Jørgensen", "Mads Kolding"], m)
                XCTAssertEqual(r.dict("summary").int("distanceMeters"), 978, m)
            },
            "visits.refresh": OperationProbe(request: "{}", status: 6) { r, core, m in
                XCTAssertEqual(r.error["reason"] as? String, "refused", m)
                XCTAssertEqual(r.error["url"] as? String, visitsSource, m)
                // The stored visits are kept.
                XCTAssertEqual(core.call("visits.list", #"{"dates": ["2020-09-10"]}"#).list("days").first?.list("visits").count, 3, m)
            },
            "visits.set_state": OperationProbe(request: #"{"key": "\#(madsKey)", "state": "InProgress"}"#) { r, core, m in
                let card = r.dict("visit")
                XCTAssertEqual(card.string("key"), madsKey, m)
                XCTAssertEqual(card.string("state"), "InProgress", m)
                XCTAssertEqual(card.string("stateColor"), "#F5C709", m)
                XCTAssertEqual(card.object["pending"] as? Bool, true, m)
                XCTAssertEqual(core.call("sync.status", "{}").int("pending"), 2, m)
            },
            "visits.acknowledge": OperationProbe(request: #"{"key": "\#(madsKey)"}"#, status: 4) { r, core, m in
                // No update of this visit was rejected: nothing to acknowledge, nothing changed.
                XCTAssertEqual(r.field, "key", m)
                XCTAssertEqual(core.call("sync.status", "{}").int("pending"), 1, m)
            },
            "sync.push": OperationProbe(request: "{}", status: 6) { r, core, m in
                XCTAssertEqual(r.error["reason"] as? String, "refused", m)
                let status = core.call("sync.status", "{}")
                XCTAssertEqual(status.int("consecutiveFailures"), 1, m)
                XCTAssertEqual(status.int("pending"), 1, m)
            },
            "visits.attach": OperationProbe(request: #"{"key": "\#(madsKey)", "kind": "note", "text": "Gate code 1234"}"#) { r, core, m in
                let attachment = r.dict("attachment")
                XCTAssertEqual(attachment.string("kind"), "note", m)
                XCTAssertEqual(attachment.int("bytes"), 14, m)
                XCTAssertEqual(attachment.string("contentType"), "text/plain; charset=utf-8", m)
                XCTAssertEqual(attachment.object["uploaded"] as? Bool, false, m)
                let listed = core.call("visits.attachments", #"{"key": "\#(madsKey)"}"#).list("attachments")
                XCTAssertEqual(listed.map { $0.string("id") }, [attachment.string("id")], m)
            },
            "visits.attachments": OperationProbe(request: #"{"key": "\#(madsKey)"}"#) { r, _, m in
                XCTAssertEqual(r.list("attachments").count, 0, m)
                XCTAssertEqual(r.object.keys.sorted(), ["attachments"], m)
            },
            "visits.detach": OperationProbe(request: #"{"id": "00000000-0000-4000-8000-000000000000"}"#, status: 3) { r, _, m in
                XCTAssertEqual(r.field, "id", m)
            },
            "sync.status": OperationProbe(request: "{}") { r, _, m in
                XCTAssertEqual(r.int("pending"), 1, m)
                XCTAssertEqual(r.int("consecutiveFailures"), 0, m)
                XCTAssertEqual(r.string("clientId")?.count, 36, m)
                XCTAssertEqual(r.list("rejected").count, 0, m)
            },
            "location.report": OperationProbe(
                request: #"{"latitude": 55.7, "longitude": 12.5, "accuracyMeters": 10, "at": "2020-09-10T07:00:00Z"}"#) { r, core, m in
                XCTAssertEqual(r.object["stored"] as? Bool, true, m)
                XCTAssertEqual(r.strings("arrived"), [], m)
                XCTAssertEqual(r.dict("position").string("at"), "2020-09-10T07:00:00Z", m)
                XCTAssertEqual(core.call("location.status", "{}").dict("trail").int("pending"), 1, m)
            },
            "location.status": OperationProbe(request: "{}") { r, _, m in
                XCTAssertTrue(r.object["position"] is NSNull, m)
                XCTAssertEqual(r.dict("trail").int("stored"), 0, m)
                XCTAssertTrue(r.object["lastPushAt"] is NSNull, m)
            },
            "push.receive": OperationProbe(
                request: #"{"refresh": false, "payload": {"carfit": {"v": 1, "id": "m", "kind": "message", "title": "T", "body": "B"}}}"#) { r, core, m in
                XCTAssertEqual(r.object["duplicate"] as? Bool, false, m)
                XCTAssertEqual(r.list("notifications").first?.string("id"), "message:m", m)
                XCTAssertEqual(core.call("push.status", "{}").int("received"), 1, m)
            },
            "push.register": OperationProbe(request: #"{"platform": "apns", "token": "t0k"}"#) { r, _, m in
                XCTAssertEqual(r.dict("device").string("platform"), "apns", m)
                XCTAssertEqual(r.dict("device").object["pending"] as? Bool, true, m)
            },
            "push.status": OperationProbe(request: "{}") { r, _, m in
                XCTAssertTrue(r.object["device"] is NSNull, m)
                XCTAssertTrue(r.object["lastSeq"] is NSNull, m)
                XCTAssertEqual(r.int("received"), 0, m)
            },
            // Reminders and report
            "reminders.list": OperationProbe(request: #"{"date": "2020-09-10"}"#) { r, _, m in
                XCTAssertEqual(r.string("date"), "2020-09-10", m)
                XCTAssertFalse(r.list("reminders").isEmpty, m)
                XCTAssertEqual(r.list("reminders").first?.string("title"), "Time to leave", m)
            },
            "report.day": OperationProbe(request: #"{"date": "2020-09-30"}"#) { r, _, m in
                XCTAssertEqual(r.string("date"), "2020-09-30", m)
                let started = r.list("visits").first { $0.string("key") == OperationProbes.laterKey }
                XCTAssertNotNil(started?.string("startedAt"), m)
            },
            "report.durations": OperationProbe(request: "{}") { r, _, m in
                XCTAssertEqual(r.list("tasks").count, 0, m)
            },
            "visits.plan": OperationProbe(request: #"{"date": "2020-09-10"}"#) { r, _, m in
                XCTAssertEqual(r.string("date"), "2020-09-10", m)
                XCTAssertEqual(r.string("startTime"), "10:40", m)
                XCTAssertEqual(r.list("stops").first?.string("name"), "Kenn Jørgensen", m)
                XCTAssertEqual(r.list("skipped").map { $0.string("name") }, ["Tone Holtermann"], m)
            },
            // Calendar
            "calendar.get": OperationProbe(request: "{}") { r, _, m in
                XCTAssertEqual([r.int("year"), r.int("month")], [2020, 9], m)
                XCTAssertEqual(r.strings("selected"), ["2020-09-10"], m)
            },
            "calendar.next": OperationProbe(request: "{}") { r, core, m in
                XCTAssertEqual([r.int("year"), r.int("month")], [2020, 10], m)
                XCTAssertEqual(core.call("calendar.get", nil).int("month"), 10, m)
            },
            "calendar.previous": OperationProbe(request: "{}") { r, core, m in
                XCTAssertEqual([r.int("year"), r.int("month")], [2020, 8], m)
                XCTAssertEqual(core.call("calendar.get", nil).int("month"), 8, m)
            },
            "calendar.select": OperationProbe(request: #"{"date": "2020-09-11", "mode": "toggle"}"#) { r, core, m in
                XCTAssertEqual(r.strings("selected"), ["2020-09-10", "2020-09-11"], m)
                XCTAssertEqual(core.call("calendar.get", nil).strings("selected"), ["2020-09-10", "2020-09-11"], m)
            },
            "calendar.month": OperationProbe(request: #"{"year": 2020, "month": 2}"#) { r, core, m in
                XCTAssertEqual([r.int("year"), r.int("month")], [2020, 2], m)
                XCTAssertEqual(r.list("days").count, 29, m)
                // Without changing the displayed month.
                XCTAssertEqual(core.call("calendar.get", nil).int("month"), 9, m)
            },
            // Employees and session
            "employees.create": OperationProbe(request: #"{"pin": "5555", "firstName": "Alan", "lastName": "Turing"}"#) { r, core, m in
                XCTAssertEqual(r.dict("employee").int("id"), 3, m)
                XCTAssertEqual(r.dict("employee").string("hiredOn"), "2020-09-10", m)
                XCTAssertEqual(core.call("employees.list", nil).list("employees").map { $0.string("lastName") },
                               ["Hopper", "Lovelace", "Turing"], m)
            },
            "employees.list": OperationProbe(request: "{}") { r, _, m in
                let employees = r.list("employees")
                XCTAssertEqual(employees.map { $0.string("lastName") }, ["Hopper", "Lovelace"], m)
                XCTAssertEqual(employees.map { $0.int("cartQuantity") }, [0, 2], m)
            },
            "employees.recover_pin": OperationProbe(request: #"{"email": " GRACE@example.com "}"#) { r, _, m in
                XCTAssertEqual(r.object as? [String: String], ["pin": "7777", "firstName": "Grace", "lastName": "Hopper"], m)
            },
            "session.login": OperationProbe(request: #"{"pin": "7777"}"#) { r, core, m in
                XCTAssertEqual(r.dict("employee").string("firstName"), "Grace", m)
                XCTAssertEqual(core.call("session.get", nil).dict("employee").string("firstName"), "Grace", m)
            },
            "session.logout": OperationProbe(request: "{}") { r, core, m in
                XCTAssertTrue(r.object["employee"] is NSNull, m)
                XCTAssertEqual(core.call("cart.get", nil).status, 5, m)
            },
            "session.get": OperationProbe(request: "{}") { r, _, m in
                XCTAssertEqual(r.dict("employee").string("firstName"), "Ada", m)
                XCTAssertEqual(r.dict("employee").string("pin"), "4821", m)
            },
            // Catalog and cart
            "catalog.import": OperationProbe(request: #"{"products": [{"id": 900, "name": "House Red", "category": "Red Wines", "price": "9.50"}]}"#) { r, core, m in
                XCTAssertEqual(r.int("imported"), 1, m)
                XCTAssertEqual(r.object.keys.sorted(), ["imported", "rejected"], m)
                XCTAssertEqual(core.call("catalog.product", #"{"id": 900}"#).dict("product").string("name"), "House Red", m)
            },
            "catalog.refresh": OperationProbe(request: "{}", status: 6) { r, core, m in
                XCTAssertEqual(r.error["reason"] as? String, "refused", m)
                XCTAssertEqual(r.error["url"] as? String, catalogSource, m)
                XCTAssertEqual(core.call("catalog.product", #"{"id": 101}"#).dict("product").int("id"), 101, m)
                XCTAssertEqual(core.call("sources.status", nil).dict("sources").dict("catalog").int("consecutiveFailures"), 1, m)
            },
            "catalog.list": OperationProbe(request: #"{"category": "Red Wines"}"#) { r, _, m in
                XCTAssertEqual(r.strings("categories").count, 5, m)
                XCTAssertEqual(r.list("products").map { $0.int("id") }, [101, 110, 102, 108], m)
            },
            "catalog.product": OperationProbe(request: #"{"id": "107"}"#) { r, _, m in
                let product = r.dict("product")
                XCTAssertEqual(product.int("id"), 107, m)
                XCTAssertEqual(product.string("name"), "alpine Grüner Veltliner 2022", m)
                XCTAssertNotNil(product.object["hasDescription"] as? Bool, m)
            },
            "cart.add": OperationProbe(request: #"{"productId": 107, "quantity": 3}"#) { r, core, m in
                XCTAssertEqual(r.cartLines, [[104, 2], [107, 3]], m)
                XCTAssertEqual(r.dict("cart").int("totalQuantity"), 5, m)
                XCTAssertEqual(core.call("cart.get", nil).cartLines, [[104, 2], [107, 3]], m)
            },
            "cart.update": OperationProbe(request: #"{"productId": 104, "quantity": 5}"#) { r, core, m in
                XCTAssertEqual(r.cartLines, [[104, 5]], m)
                XCTAssertEqual(core.call("cart.get", nil).cartLines, [[104, 5]], m)
            },
            "cart.remove": OperationProbe(request: #"{"productId": 104}"#) { r, core, m in
                XCTAssertEqual(r.cartLines, [], m)
                XCTAssertEqual(r.dict("cart").int("totalQuantity"), 0, m)
                XCTAssertNil(r.object["order"], m)
                XCTAssertEqual(core.call("cart.orders", nil).list("orders").count, 1, m)
            },
            "cart.get": OperationProbe(request: "{}") { r, _, m in
                XCTAssertEqual(r.cartLines, [[104, 2]], m)
                XCTAssertEqual(r.object.keys.sorted(), ["cart"], m)
            },
            "cart.checkout": OperationProbe(request: "{}") { r, core, m in
                XCTAssertEqual(r.dict("order").int("totalQuantity"), 2, m)
                XCTAssertEqual(r.string("message"), "Thank you for your order!", m)
                XCTAssertEqual(r.cartLines, [], m)
                XCTAssertEqual(core.call("cart.orders", nil).list("orders").map { $0.int("totalQuantity") }, [2, 1], m)
            },
            "cart.orders": OperationProbe(request: "{}") { r, _, m in
                let orders = r.list("orders")
                XCTAssertEqual(orders.map { $0.int("totalQuantity") }, [1], m)
                XCTAssertEqual(orders.first?.string("placedAt"), "2020-09-10T07:00:00Z", m)
            },
            // Transactions and insights
            "transactions.import": OperationProbe(request: """
                {"transactions": [{"id": "new-1", "category": "Travel", "amount": "12.50", "date": "2021-05-01"},
                                  {"id": "new-2", "category": "travel", "amount": 0.5, "date": "2021-05-02"}]}
                """) { r, core, m in
                XCTAssertEqual(r.int("imported"), 2, m)
                XCTAssertEqual(r.object.keys.sorted(), ["imported", "rejected"], m)
                XCTAssertEqual(core.call("insights.get", nil).int("count"), 15, m)
            },
            "transactions.list": OperationProbe(request: #"{"category": "Food"}"#) { r, _, m in
                XCTAssertEqual(r.string("category"), "food", m)
                XCTAssertEqual(r.int("count"), 5, m)
                XCTAssertEqual(r.double("sum"), 74.28, m)
                XCTAssertEqual(r.list("transactions").map { $0.int("id") }, [11, 7, 9, 3, 4], m)
            },
            "transactions.pin": OperationProbe(request: #"{"id": 11, "pinned": false}"#) { r, core, m in
                XCTAssertEqual(r.dict("transaction").int("id"), 11, m)
                XCTAssertEqual(r.dict("transaction").object["pinned"] as? Bool, false, m)
                XCTAssertEqual(core.call("insights.get", nil).int("count"), 12, m)
            },
            "insights.get": OperationProbe(request: "{}") { r, _, m in
                XCTAssertEqual(r.double("total"), 472.08, m)
                XCTAssertEqual(r.int("count"), 13, m)
                XCTAssertEqual(r.list("categories").first?.string("category"), "food", m)
                XCTAssertEqual(r.list("categories").first?.double("share"), 0.1573, m)
            },
            // Articles
            "articles.import": OperationProbe(request: #"{"content": [{"id": 1, "title": "One", "dateTime": "25.05.2018 14:13"}]}"#) { r, core, m in
                XCTAssertEqual(r.int("imported"), 1, m)
                XCTAssertEqual(r.string("updatedAt"), "2020-09-10T07:00:00Z", m)
                XCTAssertEqual(core.call("articles.list", nil).list("articles").map { $0.string("title") }, ["One"], m)
            },
            "articles.refresh": OperationProbe(request: "{}", status: 6) { r, core, m in
                XCTAssertEqual(r.error["reason"] as? String, "refused", m)
                XCTAssertEqual(r.error["url"] as? String, articlesSource, m)
                XCTAssertEqual(core.call("articles.list", nil).list("articles").count, 9, m)
            },
            "articles.list": OperationProbe(request: "{}") { r, _, m in
                XCTAssertEqual(r.list("articles").count, 9, m)
                XCTAssertEqual(r.list("articles").first?.int("id"), 119302, m)
                XCTAssertEqual(r.string("updatedAt"), "2020-09-10T07:00:00Z", m)
            },
            "articles.format_date": OperationProbe(request: #"{"date": "2020-03-16T12:34:00Z"}"#) { r, _, m in
                XCTAssertEqual(r.object as? [String: String], ["text": "16 March, 13:34"], m)
            },
            // Patterns, carousel and images
            "patterns.import": OperationProbe(request: #"[{"imageUrl": "http://127.0.0.1:1/new.png", "colors": ["112233"]}]"#) { r, core, m in
                XCTAssertEqual(r.int("imported"), 1, m)
                XCTAssertEqual(r.int("pool"), 13, m)
                let tile = core.call("carousel.generate", #"{"rows": 1, "columns": 13}"#).list("rows").first?.list("tiles").last
                XCTAssertEqual(tile?.string("imageUrl"), "http://127.0.0.1:1/new.png", m)
                XCTAssertEqual(tile?.string("color"), "#112233", m)
            },
            "carousel.generate": OperationProbe(request: #"{"rows": 1, "columns": 2, "seed": 7}"#) { r, _, m in
                let tiles = r.list("rows").first?.list("tiles") ?? []
                XCTAssertEqual(r.list("rows").count, 1, m)
                XCTAssertEqual(tiles.map { $0.string("id") }, ["r0c0", "r0c1"], m)
                XCTAssertEqual(tiles.map { $0.string("title") }, ["Copper Fjord", "Golden Ribbon"], m)
                XCTAssertEqual(tiles.last?.string("color"), "#3779B1", m)
            },
            "images.prefetch": OperationProbe(request: #"{"urls": ["http://127.0.0.1:1/a.png", "http://127.0.0.1:1/b.png", "http://127.0.0.1:1/a.png"], "priority": "low"}"#) { r, _, m in
                XCTAssertEqual(r.object as? [String: Int], ["queued": 2], m)
            },
            "images.cancel": OperationProbe(request: #"{"urls": ["http://127.0.0.1:1/a.png"]}"#) { r, _, m in
                XCTAssertEqual(r.object as? [String: Int], ["cancelled": 0], m)
            },
            "patterns.refresh": OperationProbe(request: #"{"count": 3}"#, status: 6) { r, core, m in
                XCTAssertEqual(r.error["reason"] as? String, "refused", m)
                XCTAssertEqual(r.error["url"] as? String, patternsSource, m)
                XCTAssertEqual(core.call("carousel.generate", #"{"rows": 1, "columns": 1}"#).list("rows").count, 1, m)
            },
            "sources.status": OperationProbe(request: "{}") { r, _, m in
                XCTAssertEqual(r.object["offline"] as? Bool, false, m)
                XCTAssertEqual(r.dict("sources").object.keys.sorted(), ["articles", "catalog", "patterns", "visits"], m)
                XCTAssertEqual(r.dict("sources").dict("visits").string("url"), visitsSource, m)
                XCTAssertNil(r.dict("sources").dict("visits").string("lastAttemptAt"), m)
            },
            "images.stats": OperationProbe(request: "{}") { r, _, m in
                XCTAssertEqual(r.object.keys.sorted(), ["disk", "memory", "prefetch", "requests"], m)
                XCTAssertEqual(r.dict("memory").int("limit"), 33_554_432, m)
                XCTAssertEqual(r.dict("requests").int("network"), 0, m)
            },

            // Auth
            "auth.set": OperationProbe(request: #"{"token": "probe-token-42"}"#) { r, core, m in
                XCTAssertEqual(r.dict("auth").object["token"] as? Bool, true, m)
                XCTAssertEqual(r.dict("auth").string("scheme"), "Bearer", m)
                XCTAssertFalse(r.text?.contains("probe-token-42") ?? true, m)
                XCTAssertEqual(core.call("auth.status", nil).dict("auth").object["token"] as? Bool, true, m)
            },
            "auth.status": OperationProbe(request: "{}") { r, _, m in
                XCTAssertEqual(r.dict("auth").object["token"] as? Bool, false, m)
                XCTAssertEqual(r.dict("auth").object["required"] as? Bool, false, m)
                XCTAssertTrue(r.dict("auth").object["scheme"] is NSNull, m)
            },

            // Events
            "events.wait": OperationProbe(request: #"{"after": 0, "timeoutMs": 0}"#) { r, _, m in
                let events = r.list("events")
                // The preparation's commits and login, numbered from 1; the first is the visits import.
                XCTAssertEqual(events.first?.int("seq"), 1, m)
                XCTAssertEqual(events.first?.string("kind"), "changed", m)
                XCTAssertEqual(events.first?.strings("areas"), ["visits", "calendar"], m)
                XCTAssertEqual(events.map { $0.int("seq") ?? 0 }, Array(1...events.count), m)
                XCTAssertEqual(r.int("last"), events.count, m)
            },

            // Storage: the prepared core is in memory, with no files to encrypt.
            "storage.rekey": OperationProbe(request: #"{"key": null}"#, status: 2) { r, _, m in
                XCTAssertEqual(r.field, "key", m)
                XCTAssertTrue(r.text?.contains("in-memory database") ?? false, m)
            },
        ]
    }
}

/// Readers of decoded JSON for the probes' checks.
extension Reply {
    func int(_ key: String) -> Int? { (object[key] as? NSNumber)?.intValue }
    func double(_ key: String) -> Double? { (object[key] as? NSNumber)?.doubleValue }
    func string(_ key: String) -> String? { object[key] as? String }
    func strings(_ key: String) -> [String] { object[key] as? [String] ?? [] }
    func dict(_ key: String) -> Reply { Reply(object: object[key] as? [String: Any] ?? [:]) }
    func list(_ key: String) -> [Reply] { (object[key] as? [[String: Any]] ?? []).map { Reply(object: $0) } }

    /// The cart's lines as [product id, quantity].
    var cartLines: [[Int]] {
        dict("cart").list("lines").map { [$0.int("productId") ?? -1, $0.int("quantity") ?? -1] }
    }

    /// A JSON object read as a reply, to use the readers on nested objects.
    init(object: [String: Any]) {
        self.status = 0
        self.text = nil
        self.object = object
    }
}
