import Foundation
import XCTest

/// The call shape, statuses, error documents and lifecycle every operation shares.
final class ConventionTests: ABITestCase {
    /// "MAJOR.MINOR.PATCH" from the header's macros, checked against its CARFIT_VERSION text.
    static func headerVersion() throws -> String {
        let header = try Repo.text("include/carfit.h")
        func macro(_ name: String) -> String? {
            header.split(separator: "\n").lazy.compactMap { line -> String? in
                let fields = line.split(separator: " ")
                return fields.count == 3 && fields[0] == "#define" && fields[1] == name ? String(fields[2]) : nil
            }.first
        }
        let parts = try ["MAJOR", "MINOR", "PATCH"].map { try XCTUnwrap(macro("CARFIT_VERSION_\($0)")) }
        let version = parts.joined(separator: ".")
        XCTAssertEqual(macro("CARFIT_VERSION"), "\"\(version)\"")
        return version
    }

    func testVersionMatchesHeaderMacros() throws {
        let version = try Self.headerVersion()
        XCTAssertEqual(lib.versionFn().map { String(cString: $0) }, version)
        // Static: the same pointer every time.
        XCTAssertEqual(lib.versionFn(), lib.versionFn())
    }

    /// The header's status macros (`#define CARFIT_NOT_FOUND 3`), the one written list of the
    /// statuses: name (lowercased) by value.
    static func headerStatuses() throws -> [Int: String] {
        var found: [Int: String] = [:]
        for line in try Repo.text("include/carfit.h").split(separator: "\n") {
            let fields = line.split(separator: " ", omittingEmptySubsequences: true)
            guard fields.count >= 3, fields[0] == "#define", fields[1].hasPrefix("CARFIT_"),
                  !fields[1].hasPrefix("CARFIT_VERSION"), let value = Int(fields[2]) else { continue }
            found[value] = fields[1].dropFirst("CARFIT_".count).lowercased()
        }
        return found
    }

    func testStatusNames() throws {
        let statuses = try Self.headerStatuses()
        XCTAssertEqual(statuses[0], "ok")
        XCTAssertEqual(statuses[3], "not_found")
        let expected = try (0..<statuses.count).map { try XCTUnwrap(statuses[$0], "the status values have a gap at \($0)") }
        for (value, name) in expected.enumerated() {
            XCTAssertEqual(lib.statusNameFn(Int32(value)).map { String(cString: $0) }, name)
        }
        for value: Int32 in [-1, Int32(expected.count), 100, Int32.max, Int32.min] {
            XCTAssertEqual(lib.statusNameFn(value).map { String(cString: $0) }, "unknown")
        }
    }

    func testOpenResponseAndDefaults() throws {
        var core: OpaquePointer?
        var response: UnsafeMutablePointer<CChar>?
        XCTAssertEqual(lib.openFn(nil, &core, &response), 0)
        let reply = Reply(0, lib.take(response))
        XCTAssertEqual(reply.object["version"] as? String, try Self.headerVersion())
        XCTAssertEqual(reply.object["database"] as? String, ":memory:")
        XCTAssertNotNil(core)
        lib.closeFn(core)

        // "" is {} too, and a NULL response pointer is allowed.
        XCTAssertEqual(lib.openFn("", &core, nil), 0)
        lib.closeFn(core)
    }

    func testOpenRefusesBadConfigAndLeavesCoreNull() {
        let cases: [(String, Int32, String?)] = [
            (#"{"timeZone": "Mars/Olympus"}"#, 2, "timeZone"),
            (#"{"timeZone": 5}"#, 2, "timeZone"),
            (#"{"timeZone": "../../../etc/passwd"}"#, 2, "timeZone"),
            (#"{"timeZone": "/usr/share/zoneinfo/Europe/Paris"}"#, 2, "timeZone"),
            (#"{"timeZone": "Europe", "zoneinfo": "/usr/share/zoneinfo"}"#, 2, "timeZone"),
            (#"{"zoneinfo": "/nonexistent-zoneinfo"}"#, 2, "zoneinfo"),
            (#"{"zoneinfo": "/etc/passwd", "timeZone": "UTC"}"#, 2, "zoneinfo"),
            (#"{"now": "2020-02-30T00:00:00Z"}"#, 2, "now"),
            (#"{"hour24": "yes"}"#, 2, "hour24"),
            (#"{"firstWeekday": "friday"}"#, 2, "firstWeekday"),
            (#"{"sources": {"visits": "ftp://example.com/x"}}"#, 2, "sources.visits"),
            (#"{"sources": {"articles": "not a url"}}"#, 2, "sources.articles"),
            (#"{"sources": []}"#, 2, "sources"),
            (#"{"http": {"timeoutMs": 0}}"#, 2, "http.timeoutMs"),
            (#"{"http": {"timeoutMs": 1.5}}"#, 2, "http.timeoutMs"),
            (#"{"images": {"memoryBytes": -1}}"#, 2, "images.memoryBytes"),
            (#"{"images": {"concurrency": 0}}"#, 2, "images.concurrency"),
            (#"{"images": {"directory": ""}}"#, 2, "images.directory"),
            (#"{"database": ""}"#, 2, "database"),
            (#"{"database": "/nonexistent-dir/x/y.db"}"#, 7, "database"),
            (#"{"database": "/"}"#, 7, "database"),
            (#"{"timeZone": "#, 1, nil),
            ("[1, 2]", 1, nil),
        ]
        for (config, status, field) in cases {
            var core = OpaquePointer(bitPattern: 0x10)
            var response: UnsafeMutablePointer<CChar>?
            let got = lib.openFn(config, &core, &response)
            let reply = Reply(got, lib.take(response))
            XCTAssertEqual(got, status, config)
            XCTAssertNil(core, config)
            XCTAssertEqual(reply.field, field, config)
            XCTAssertEqual(reply.code, lib.statusNameFn(status).map { String(cString: $0) }, config)
            XCTAssertFalse((reply.error["message"] as? String ?? "").isEmpty, config)
        }
    }

    func testOpenWithNullCorePointerIsMisuse() {
        var response: UnsafeMutablePointer<CChar>?
        let status = lib.openFn("{}", nil, &response)
        XCTAssertEqual(status, 8)
        XCTAssertEqual(Reply(status, lib.take(response)).code, "misuse")
    }

    /// A file without SQLite's header may be an encrypted database: without a key it is
    /// unauthorized (reason key_required), and left as it is.
    func testNotADatabaseFileNeedsAKey() throws {
        let path = NSTemporaryDirectory() + "carfit-notadb-\(UUID().uuidString)"
        try Data(repeating: 0x41, count: 4096).write(to: URL(fileURLWithPath: path))
        defer { try? FileManager.default.removeItem(atPath: path) }
        var core: OpaquePointer?
        var response: UnsafeMutablePointer<CChar>?
        let status = lib.openFn(#"{"database": "\#(path)"}"#, &core, &response)
        let reply = Reply(status, lib.take(response))
        XCTAssertEqual(status, 5)
        XCTAssertEqual(reply.field, "encryption")
        XCTAssertTrue(reply.text?.contains("key_required") ?? false)
        XCTAssertNil(core)
        // The file is untouched.
        XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: path)), Data(repeating: 0x41, count: 4096))
    }

    func testNullCoreNullRequestNullResponse() throws {
        // NULL core: misuse with a document.
        var response: UnsafeMutablePointer<CChar>?
        let status = lib.callFn(nil, "calendar.get", nil, &response)
        XCTAssertEqual(status, 8)
        XCTAssertEqual(Reply(status, lib.take(response)).code, "misuse")
        XCTAssertEqual(lib.operation("carfit_visits_list")?(nil, nil, nil), 8)

        let core = try TestCore(lib)
        // NULL and "" requests mean {}.
        XCTAssertEqual(core.call("calendar.get", nil).status, 0)
        XCTAssertEqual(core.call("calendar.get", "").status, 0)
        // A NULL response pointer: the status alone.
        XCTAssertEqual(lib.callFn(core.handle, "calendar.get", nil, nil), 0)
        XCTAssertEqual(lib.callFn(core.handle, "calendar.select", "{}", nil), 2)
        // NULL method.
        var r2: UnsafeMutablePointer<CChar>?
        let s2 = lib.callFn(core.handle, nil, nil, &r2)
        XCTAssertEqual(s2, 8)
        XCTAssertEqual(Reply(s2, lib.take(r2)).field, "method")
        // Close and free accept NULL.
        lib.closeFn(nil)
        lib.freeFn(nil)
    }

    func testUnknownMethodsAreMisuse() throws {
        let core = try TestCore(lib)
        for method in ["", "visits", "visits.", ".list", "Visits.List", "visits.list ", "carfit_visits_list",
                       "images.data", "visits.list\u{0}x", "ü.ß"] {
            let reply = core.call(method, "{}")
            if method == "visits.list\u{0}x" {
                // The C string ends at the NUL: this is "visits.list".
                XCTAssertEqual(reply.status, 0)
                continue
            }
            XCTAssertEqual(reply.status, 8, method)
            XCTAssertEqual(reply.code, "misuse", method)
            XCTAssertEqual(reply.field, "method", method)
        }
    }

    func testClosedCoreIsMisuseAndCloseIsIdempotent() throws {
        var core: OpaquePointer?
        XCTAssertEqual(lib.openFn(nil, &core, nil), 0)
        lib.closeFn(core)
        var response: UnsafeMutablePointer<CChar>?
        let status = lib.callFn(core, "calendar.get", nil, &response)
        XCTAssertEqual(status, 8)
        XCTAssertEqual(Reply(status, lib.take(response)).code, "misuse")
        lib.closeFn(core)
        // A made-up handle is not a core either.
        XCTAssertEqual(lib.callFn(OpaquePointer(bitPattern: 0xdead0), "calendar.get", nil, nil), 8)
    }

    func testBadJSONCarriesPosition() throws {
        let core = try TestCore(lib)
        let reply = core.call("visits.list", "{\n  \"dates\": [\"2020-09-10\",,]\n}")
        XCTAssertEqual(reply.status, 1)
        XCTAssertEqual(reply.code, "bad_json")
        XCTAssertEqual(reply.error["line"] as? Int, 2)
        XCTAssertNotNil(reply.error["column"] as? Int)
        XCTAssertNotNil(reply.error["position"] as? Int)
        for text in ["[]", "1", "\"x\"", "null", "true", "{} {}", "{\"a\":1}x", "\u{FEFF}{}"] {
            XCTAssertEqual(core.call("calendar.get", text).status, 1, text)
        }
    }

    func testHostileRequests() throws {
        let core = try TestCore(lib)
        // Nesting past jansson's limit of 2048.
        XCTAssertEqual(core.call("visits.list", String(repeating: "[", count: 100_000)).status, 1)
        let deep = String(repeating: "{\"a\":", count: 3000) + "1" + String(repeating: "}", count: 3000)
        XCTAssertEqual(core.call("visits.list", deep).status, 1)
        let ok = String(repeating: "{\"a\":", count: 2000) + "1" + String(repeating: "}", count: 2000)
        XCTAssertEqual(core.call("visits.list", ok).status, 0)
        // Huge numbers.
        XCTAssertEqual(core.call("calendar.month", #"{"year": 1e400, "month": 1}"#).status, 1)
        XCTAssertEqual(core.call("calendar.month", #"{"year": 123456789012345678901234567890, "month": 1}"#).status, 1)
        XCTAssertEqual(core.call("calendar.month", #"{"year": 1e300, "month": 1}"#).field, "year")
        XCTAssertEqual(core.call("calendar.month", #"{"year": -9223372036854775808, "month": 1}"#).field, "year")
        // Invalid UTF-8 inside a string.
        let bad: [UInt8] = Array(#"{"date": ""#.utf8) + [0xFF, 0xFE] + Array(#""}"#.utf8) + [0]
        let badReply = bad.withUnsafeBufferPointer { buf in
            buf.baseAddress!.withMemoryRebound(to: CChar.self, capacity: buf.count) { core.call("calendar.select", raw: UnsafePointer($0)) }
        }
        XCTAssertEqual(badReply.status, 1)
        // Escaped NUL in a string is refused by the parser.
        XCTAssertEqual(core.call("calendar.select", #"{"date": "2020\u0000-01-01"}"#).status, 1)
    }

    func testRequestSizeLimit() throws {
        let core = try TestCore(lib, config: #"{"maxRequestBytes": 64}"#)
        XCTAssertEqual(core.call("calendar.get", "{}").status, 0)
        let big = #"{"dates": [""# + String(repeating: "x", count: 100) + #""]}"#
        let reply = core.call("visits.list", big)
        XCTAssertEqual(reply.status, 2)
        XCTAssertEqual(reply.code, "invalid")
    }

    /// Every operation declared in the header is exported; each one, sent a valid request on a
    /// core set up so that it can succeed, gives the answer only that operation gives (checked on
    /// the reply and, where the operation changes something, by a later call); and the named
    /// export and carfit_call answer identically on identical cores.
    func testEveryOperationAnswersItsOwnValidRequest() throws {
        let header = try Repo.text("include/carfit.h")
        let pattern = try NSRegularExpression(pattern: #"^int (carfit_([a-z]+)_([a-z_]+))\(carfit_core \*core, const char \*request, char \*\*response\);"#,
                                              options: [.anchorsMatchLines])
        var declared: [String: String] = [:]
        for match in pattern.matches(in: header, range: NSRange(header.startIndex..., in: header)) {
            guard let symbolRange = Range(match.range(at: 1), in: header),
                  let areaRange = Range(match.range(at: 2), in: header),
                  let verbRange = Range(match.range(at: 3), in: header) else { continue }
            declared["\(header[areaRange]).\(header[verbRange])"] = String(header[symbolRange])
        }
        let probes = try OperationProbes.all()
        // Exact: every operation of the header has a probe and every probe an operation.
        XCTAssertEqual(declared.keys.sorted(), probes.keys.sorted())
        XCTAssertEqual(declared.count, 59)

        for (method, symbol) in declared.sorted(by: { $0.key < $1.key }) {
            guard let probe = probes[method] else { continue }
            XCTAssertNotNil(lib.operation(symbol), "\(symbol) is declared but not exported")
            let a = try OperationProbes.preparedCore(lib)
            let b = try OperationProbes.preparedCore(lib)
            let named = a.export(symbol, probe.request)
            let called = b.call(method, probe.request)
            XCTAssertEqual(named.status, probe.status, "\(symbol): \(named.text ?? "no response")")
            XCTAssertEqual(named.status, called.status, method)
            // Each database makes its own random clientId: the rest of the answer is the same.
            XCTAssertEqual(named.text.map(Self.withoutClientId), called.text.map(Self.withoutClientId), method)
            probe.check(named, a, method)
        }
    }

    /// A response text with any `"clientId":"<uuid>"` member's value blanked.
    static func withoutClientId(_ text: String) -> String {
        // New attachments' ids are random too.
        text.replacingOccurrences(of: #""clientId":"[0-9a-f-]{36}""#, with: #""clientId":"""#, options: .regularExpression)
            .replacingOccurrences(of: #"\{"attachment":\{"id":"[0-9a-f-]{36}""#, with: #"{"attachment":{"id":"""#,
                                  options: .regularExpression)
    }

    func testConcurrentCallsOnOneCore() throws {
        let core = try TestCore(lib)
        let data = try String(contentsOf: Repo.fixtures.appendingPathComponent("carfit.json"), encoding: .utf8)
        XCTAssertEqual(core.call("visits.import", data).status, 0)
        let failures = LockedCounter()
        DispatchQueue.concurrentPerform(iterations: 8) { worker in
            for i in 0..<248 { // 62 of each kind: next and previous cancel out
                let r: Reply
                switch i % 4 {
                case 0: r = core.call("calendar.next", nil)
                case 1: r = core.call("visits.list", #"{"dates": ["2020-09-10", "2020-09-11"]}"#)
                case 2: r = core.call("calendar.previous", nil)
                default: r = core.call("calendar.month", #"{"year": \#(2000 + worker), "month": 2}"#)
                }
                if r.status != 0 { failures.add() }
            }
        }
        XCTAssertEqual(failures.value, 0)
        // Net navigation is zero: the displayed month is still September 2020.
        let state = core.call("calendar.get", nil).object
        XCTAssertEqual(state["year"] as? Int, 2020)
        XCTAssertEqual(state["month"] as? Int, 9)
    }
}

final class LockedCounter: @unchecked Sendable {
    private let lock = NSLock()
    private var count = 0
    func add() { lock.lock(); count += 1; lock.unlock() }
    var value: Int { lock.lock(); defer { lock.unlock() }; return count }
}
