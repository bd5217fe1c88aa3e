import Foundation
import XCTest

/// Every parsing case of nst/JSONTestSuite through several entry points: the library must
/// never crash, never accept an `n_` file, and accept every `y_` object.
final class JSONTestSuiteTests: ABITestCase {
    static let directory = Repo.root.appendingPathComponent("Tests/CarFitABITests/Fixtures/JSONTestSuite/test_parsing")

    func cases() throws -> [(name: String, bytes: [UInt8])] {
        let names = try FileManager.default.contentsOfDirectory(atPath: Self.directory.path).sorted()
        return try names.filter { $0.hasSuffix(".json") }.map {
            ($0, [UInt8](try Data(contentsOf: Self.directory.appendingPathComponent($0))))
        }
    }

    /// The bytes as a C string (a C host cannot pass past a NUL byte either).
    func withCString<T>(_ bytes: [UInt8], _ body: (UnsafePointer<CChar>) -> T) -> T {
        let terminated = bytes + [0]
        return terminated.withUnsafeBufferPointer { buf in
            buf.baseAddress!.withMemoryRebound(to: CChar.self, capacity: terminated.count) { body($0) }
        }
    }

    /// Two documented departures from "accept every y_ object": an empty text is `{}` by the header
    /// (NULL or "" means {}), and strings may not contain U+0000 (the header refuses
    /// embedded NULs), so `\u0000` is `bad_json`.
    static func isEmpty(_ bytes: [UInt8]) -> Bool { bytes.isEmpty }
    static func hasEscapedNUL(_ bytes: [UInt8]) -> Bool {
        String(decoding: bytes, as: UTF8.self).contains("\\u0000")
    }

    func testCorpusIsPresent() throws {
        let all = try cases()
        XCTAssertEqual(all.count, 318)
        XCTAssertEqual(all.filter { $0.name.hasPrefix("n_") }.count, 188)
    }

    func testEveryCaseThroughOperations() throws {
        let core = try TestCore(lib)
        var accepted: [String] = []
        for (name, bytes) in try cases() {
            for method in ["visits.list", "calendar.select", "visits.import", "calendar.month"] {
                var response: UnsafeMutablePointer<CChar>?
                let status = withCString(bytes) { lib.callFn(core.handle, method, $0, &response) }
                let reply = Reply(status, lib.take(response))
                XCTAssertTrue((0...9).contains(status), "\(name) via \(method): status \(status)")
                XCTAssertNotNil(reply.text, "\(name) via \(method): no response")
                if status != 0 {
                    XCTAssertEqual(reply.code, lib.statusNameFn(status).map { String(cString: $0) }, "\(name) via \(method)")
                }
                if Self.isEmpty(bytes) {
                    XCTAssertEqual(status == 1, false, "\(name): an empty request is {}")
                    continue
                }
                if Self.hasEscapedNUL(bytes) {
                    XCTAssertEqual(status, 1, "\(name) via \(method): U+0000 in a string")
                    continue
                }
                if name.hasPrefix("n_") && status == 0 { accepted.append("\(name) via \(method)") }
                let isObject = bytes.first { ![0x20, 0x09, 0x0A, 0x0D].contains($0) } == UInt8(ascii: "{")
                if name.hasPrefix("y_") {
                    // Valid JSON: an object is never bad_json; anything else is.
                    XCTAssertEqual(status == 1, !isObject, "\(name) via \(method): status \(status)")
                }
            }
        }
        XCTAssertEqual(accepted, [], "n_ cases answered ok")
        // The core still works after all of that.
        XCTAssertEqual(core.call("calendar.get", nil).status, 0)
    }

    func testEveryCaseAsConfig() throws {
        for (name, bytes) in try cases() {
            var core: OpaquePointer?
            var response: UnsafeMutablePointer<CChar>?
            let status = withCString(bytes) { lib.openFn($0, &core, &response) }
            _ = lib.take(response)
            if name.hasPrefix("n_") && !Self.isEmpty(bytes) {
                XCTAssertNotEqual(status, 0, name)
                XCTAssertNil(core, name)
            }
            lib.closeFn(core)
        }
    }

    func testEveryCaseAsVisitRecord() throws {
        // Each case embedded as the single record of an import: imported, or rejected (the
        // document then changes nothing: invalid with the rejection), never a crash.
        let core = try TestCore(lib)
        for (name, bytes) in try cases() where name.hasPrefix("y_") && !Self.hasEscapedNUL(bytes) {
            let document = Array(#"{"data": ["#.utf8) + bytes + Array("]}".utf8)
            var response: UnsafeMutablePointer<CChar>?
            let status = withCString(document) { core.lib.callFn(core.handle, "visits.import", $0, &response) }
            let reply = Reply(status, lib.take(response))
            if status == 0 {
                XCTAssertEqual((reply.object["rejected"] as? [Any])?.count, 0, name)
            } else {
                XCTAssertEqual(status, 2, name)
                XCTAssertEqual(reply.field, "data", name)
                XCTAssertEqual((reply.error["rejected"] as? [Any])?.count, 1, name)
            }
        }
    }
}
