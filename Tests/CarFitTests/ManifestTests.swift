@testable import CarFit
import Foundation
import XCTest
#if canImport(Glibc)
import Glibc
#endif

/// The operation manifest against everything that must agree with it: the header's
/// declarations, the built library's exports, `carfit_call`'s dispatch and the fuzzer's list.
final class ManifestTests: XCTestCase {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    func text(_ path: String) throws -> String {
        try String(contentsOf: ManifestTests.root.appendingPathComponent(path), encoding: .utf8)
    }

    func testEntriesAreWellFormedAndNamedAlike() {
        var methods = Set<String>()
        var symbols = Set<String>()
        for operation in Manifest.operations {
            XCTAssertTrue(operation.isWellFormed, "\(operation.symbol): its locking does not fit its body")
            XCTAssertTrue(symbols.insert(operation.symbol).inserted, "\(operation.symbol) is listed twice")
            // What the request takes is the schema's: a generated description and generated checks.
            XCTAssertFalse(operation.request?.isEmpty ?? true, "\(operation.symbol) has no request description in the schema")
            XCTAssertNotNil(RequestTypes.members[operation.symbol], "\(operation.symbol) has no request checks in the schema")
            if let method = operation.method {
                XCTAssertTrue(methods.insert(method).inserted, "\(method) is listed twice")
                XCTAssertEqual(operation.symbol, "carfit_" + method.replacingOccurrences(of: ".", with: "_"))
                XCTAssertNotEqual(operation.output, .binary, method)
            } else {
                XCTAssertEqual(operation.output, .binary, "\(operation.symbol) has no method name but answers JSON text")
            }
        }
        XCTAssertEqual(Manifest.table.count, methods.count)
    }

    /// Every `carfit_*` operation the header declares, in the header's order, with the method
    /// name its comment gives (nil for the one without), is the manifest, in the manifest's order.
    func testManifestIsTheHeadersOperations() throws {
        let header = try text("include/carfit.h")
        let declaration = try NSRegularExpression(pattern: #"^int (carfit_[a-z0-9_]+)\(carfit_core \*core, const char \*request,"#,
                                                  options: [.anchorsMatchLines])
        let whole = NSRange(header.startIndex..., in: header)
        let declared = declaration.matches(in: header, range: whole).compactMap { match in
            Range(match.range(at: 1), in: header).map { String(header[$0]) }
        }
        XCTAssertEqual(declared, Manifest.operations.map(\.symbol))

        let standard = try NSRegularExpression(
            pattern: #"^int (carfit_[a-z0-9_]+)\(carfit_core \*core, const char \*request, char \*\*response\);"#,
            options: [.anchorsMatchLines])
        let standardSymbols = Set(standard.matches(in: header, range: whole).compactMap { match in
            Range(match.range(at: 1), in: header).map { String(header[$0]) }
        })
        XCTAssertEqual(standardSymbols, Set(Manifest.operations.filter { $0.method != nil }.map(\.symbol)))

        let note = try NSRegularExpression(pattern: #"^(?:/\*| \*) (carfit_[a-z0-9_]+) \(method "([a-z0-9_.]+)"\)"#,
                                           options: [.anchorsMatchLines])
        var noted: [String: String] = [:]
        for match in note.matches(in: header, range: whole) {
            guard let symbol = Range(match.range(at: 1), in: header), let method = Range(match.range(at: 2), in: header) else { continue }
            noted[String(header[symbol])] = String(header[method])
        }
        for operation in Manifest.operations {
            XCTAssertEqual(noted[operation.symbol], operation.method, operation.symbol)
        }
    }

    func testFuzzMethodListIsTheManifest() throws {
        let listed = try text("fuzz/methods.txt").split(separator: "\n").map(String.init)
            .filter { !$0.isEmpty && !$0.hasPrefix("#") }
        XCTAssertEqual(listed, listed.sorted(), "fuzz/methods.txt is kept sorted: a seed picks a method by its index")
        XCTAssertEqual(Set(listed), Set(Manifest.table.keys))
        XCTAssertEqual(listed.count, Manifest.table.count)
    }

    /// Each symbol is exported by the built library, and the named export and `carfit_call`
    /// give the same answer on cores in the same state, while no two methods answer alike: an
    /// export wired to another operation would answer differently from `carfit_call`.
    func testEveryExportReachesItsOperation() throws {
        let library = try BuiltLibrary()
        for operation in Manifest.operations {
            XCTAssertNotNil(dlsym(library.handle, operation.symbol), "\(operation.symbol) is not exported by \(library.path)")
        }
        let named = try library.open()
        let called = try library.open()
        defer {
            library.close(named)
            library.close(called)
        }
        var answers: [String: String] = [:]
        for step in try ManifestTests.steps() {
            let direct = try library.named(step.method, named, step.request)
            let byName = library.call(step.method, called, step.request)
            XCTAssertEqual(direct.status, byName.status, step.method)
            // Each database makes its own random clientId: the rest of the answer is the same.
            XCTAssertEqual(ManifestTests.withoutClientId(direct.text), ManifestTests.withoutClientId(byName.text), step.method)
            guard step.compared else { continue }
            XCTAssertNil(answers[step.method], "\(step.method) is asked twice")
            if let same = answers.first(where: { $0.value == direct.text }) {
                XCTFail("\(step.method) and \(same.key) answer alike: \(direct.text.prefix(200))")
            }
            answers[step.method] = direct.text
        }
        XCTAssertEqual(Set(answers.keys), Set(Manifest.table.keys))
    }

    /// A response text with any `"clientId":"<uuid>"` member's value blanked.
    static func withoutClientId(_ text: String) -> String {
        text.replacingOccurrences(of: #""clientId":"[0-9a-f-]{36}""#, with: #""clientId":"""#, options: .regularExpression)
    }

    struct Step {
        var method: String
        var request: String
        /// False for a step that only sets the state up for the next ones.
        var compared = true
    }

    /// One request per method, in an order where each answer tells its operation apart.
    static func steps() throws -> [Step] {
        func data(_ name: String) throws -> String {
            try String(contentsOf: root.appendingPathComponent("examples/data/\(name)"), encoding: .utf8)
        }
        return [
            Step(method: "visits.import", request: try data("carfit.json")),
            Step(method: "visits.list", request: #"{"dates": ["2020-09-10"]}"#),
            Step(method: "visits.refresh", request: "{}"),
            Step(method: "visits.plan", request: #"{"date": "2020-09-10"}"#),
            Step(method: "visits.set_state",
                 request: #"{"key": "ec94deca-d66a-4d62-b049-72414870de00|1599729300000|0", "state": "InProgress"}"#),
            Step(method: "visits.acknowledge",
                 request: #"{"key": "ec94deca-d66a-4d62-b049-72414870de00|1599729300000|0"}"#),
            Step(method: "sync.push", request: "{}"),
            Step(method: "sync.status", request: "{}"),
            Step(method: "location.report", request: #"{"latitude": 55.7, "longitude": 12.5, "accuracyMeters": 10}"#),
            Step(method: "location.status", request: "{}"),
            Step(method: "push.receive",
                 request: #"{"refresh": false, "payload": {"carfit": {"v": 1, "id": "m1", "kind": "message", "title": "T", "body": "B"}}}"#),
            Step(method: "push.register", request: #"{"platform": "fcm", "token": "abc"}"#),
            Step(method: "push.status", request: "{}"),
            Step(method: "visits.attach",
                 request: #"{"key": "ec94deca-d66a-4d62-b049-72414870de00|1599729300000|0", "kind": "note", "text": "Hi"}"#),
            Step(method: "visits.attachments", request: #"{"key": "ec94deca-d66a-4d62-b049-72414870de00|1599729300000|0"}"#),
            Step(method: "visits.detach", request: #"{"id": "00000000-0000-4000-8000-000000000000"}"#),
            Step(method: "reminders.list", request: #"{"date": "2020-09-10"}"#),
            Step(method: "report.day", request: #"{"date": "2020-09-10"}"#),
            Step(method: "report.durations", request: "{}"),
            Step(method: "calendar.get", request: "{}"),
            Step(method: "calendar.next", request: "{}"),
            Step(method: "calendar.select", request: #"{"date": "2020-12-05"}"#),
            Step(method: "calendar.previous", request: "{}"),
            Step(method: "calendar.month", request: #"{"year": 2021, "month": 1}"#),
            Step(method: "employees.create", request: #"{"pin": "4821", "firstName": "Ada", "lastName": "Lovelace"}"#,
                 compared: false),
            Step(method: "employees.create",
                 request: #"{"pin": "1234", "firstName": "Bob", "lastName": "Builder", "email": "bob@example.com"}"#),
            Step(method: "employees.list", request: "{}"),
            Step(method: "employees.recover_pin", request: #"{"email": "bob@example.com"}"#),
            Step(method: "session.login", request: #"{"pin": "0000"}"#),
            Step(method: "session.login", request: #"{"pin": "4821"}"#, compared: false),
            Step(method: "session.get", request: "{}"),
            Step(method: "catalog.import", request: try data("catalog.json")),
            Step(method: "catalog.refresh", request: "{}"),
            Step(method: "catalog.list", request: "{}"),
            Step(method: "catalog.product", request: #"{"id": 101}"#),
            Step(method: "cart.add", request: #"{"productId": 101, "quantity": 2}"#),
            Step(method: "cart.add", request: #"{"productId": 102}"#, compared: false),
            Step(method: "cart.get", request: "{}"),
            Step(method: "cart.update", request: #"{"productId": 101, "quantity": 5}"#),
            Step(method: "cart.remove", request: #"{"productId": 102}"#),
            Step(method: "cart.checkout", request: "{}"),
            Step(method: "cart.orders", request: "{}"),
            Step(method: "session.logout", request: "{}"),
            Step(method: "transactions.import", request: try data("transactions.json")),
            Step(method: "transactions.list", request: "{}"),
            Step(method: "transactions.pin", request: #"{"id": 1, "pinned": false}"#),
            Step(method: "insights.get", request: "{}"),
            Step(method: "articles.import", request: try data("articles.json")),
            Step(method: "articles.refresh", request: "{}"),
            Step(method: "articles.list", request: "{}"),
            Step(method: "articles.format_date", request: #"{"date": "2018-05-25T14:13:00Z"}"#),
            Step(method: "patterns.import", request: try data("patterns.json")),
            Step(method: "patterns.refresh", request: "{}"),
            Step(method: "carousel.generate", request: #"{"rows": 1, "columns": 2, "seed": 7}"#),
            Step(method: "images.prefetch", request: #"{"urls": []}"#),
            Step(method: "images.cancel", request: #"{"urls": []}"#),
            Step(method: "images.stats", request: "{}"),
            Step(method: "sources.status", request: "{}"),
            Step(method: "auth.status", request: "{}"),
            Step(method: "auth.set", request: #"{"token": "manifest-token"}"#),
            Step(method: "events.wait", request: #"{"after": 1, "timeoutMs": 0}"#),
            Step(method: "storage.rekey", request: #"{"key": null}"#),
        ]
    }
}
