import Foundation
import XCTest
@testable import CarFitCore

/// The name order's keys against Python's unicodedata (NFKD, nonspacing marks removed,
/// casefold), and the generated table against its generator.
final class NameOrderTests: XCTestCase {
    static let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Fixtures")
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    func run(_ arguments: [String]) throws -> (status: Int32, output: String) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = arguments
        let pipe = Pipe()
        process.standardOutput = pipe
        try process.run()
        let data = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (process.terminationStatus, String(decoding: data, as: UTF8.self))
    }

    func testTheGeneratedTableIsCurrent() throws {
        let script = NameOrderTests.root.appendingPathComponent("scripts/gen-unicode-tables").path
        XCTAssertEqual(try run(["python3", script, "--check"]).status, 0,
                       "Sources/CarFitCore/Text/NameFoldingTable.swift is stale: run scripts/gen-unicode-tables")
    }

    func testKeysAgreeWithUnicodedata() throws {
        let (status, output) = try run(["python3", NameOrderTests.fixtures.appendingPathComponent("name_keys.py").path])
        XCTAssertEqual(status, 0)
        var checked = 0
        var failures = 0
        for line in output.split(separator: "\n") where failures < 20 {
            let parts = line.split(separator: "\t", omittingEmptySubsequences: false)
            guard parts.count == 2 else { XCTFail("bad line \(line)"); continue }
            let scalars = parts[0].split(separator: " ").compactMap { UInt32($0, radix: 16).flatMap(Unicode.Scalar.init) }
            var text = String.UnicodeScalarView()
            text.append(contentsOf: scalars)
            let expected = parts[1].split(separator: " ").compactMap { UInt32($0, radix: 16) }
            checked += 1
            if SortKey.key(String(text)) != expected {
                failures += 1
                XCTFail("key of \(parts[0]): \(SortKey.key(String(text)).map { String($0, radix: 16) }), Python \(parts[1])")
            }
        }
        XCTAssertGreaterThan(checked, 8_000)
    }

    func testOrderByKeyThenCodePoints() {
        XCTAssertTrue(SortKey.less("Ålborg", "alpine"))
        XCTAssertTrue(SortKey.less("Etienne", "Étienne"))      // equal keys: E (U+0045) before É (U+00C9)
        XCTAssertTrue(SortKey.less("étienne", "Zola"))
        XCTAssertTrue(SortKey.less("Oz", "Ø"))                  // Ø keeps its own code point, after z
        XCTAssertTrue(SortKey.less("Strasse", "Straße"))        // equal keys (strasse): s (U+0073) before ß (U+00DF)
        XCTAssertFalse(SortKey.less("Straße", "Strasse"))
        XCTAssertEqual(SortKey.key("ΣΟΦΊΑ"), SortKey.key("σοφια"))
        XCTAssertEqual(SortKey.fold("Ёлка"), "елка")
        XCTAssertEqual(SortKey.fold("中文"), "中文")
    }
}
