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

    /// Every code point on its own (U+0000..U+10FFFF but the surrogates): its key by the library
    /// against its key by Python's unicodedata, computed now by the generator's `--keys` (from
    /// unicodedata, not from the table). The table is of one Unicode version: a Python of another
    /// version fails here, as the staleness test does, until the table is generated again.
    func testEveryCodePointAgreesWithUnicodedata() throws {
        let script = NameOrderTests.root.appendingPathComponent("scripts/gen-unicode-tables").path
        let (status, output) = try run(["python3", script, "--keys"])
        XCTAssertEqual(status, 0)
        var lines = output.split(separator: "\n")[...]
        let version = lines.popFirst().map(String.init) ?? ""
        XCTAssertEqual(version, "unicode \(NameFoldingTable.unicodeVersion)",
                       "this Python's unicodedata is of another Unicode version than the table")
        var expected: [UInt32: [UInt32]] = [:]
        for line in lines {
            let parts = line.split(separator: "\t", omittingEmptySubsequences: false)
            guard parts.count == 2, let cp = UInt32(parts[0], radix: 16) else { XCTFail("bad line \(line)"); continue }
            expected[cp] = parts[1].split(separator: " ").compactMap { UInt32($0, radix: 16) }
        }
        XCTAssertGreaterThan(expected.count, 19_000)
        var checked = 0
        var failures = 0
        for v in UInt32(0)...0x10FFFF where failures < 20 {
            guard let scalar = Unicode.Scalar(v) else { continue }      // the surrogates
            var text = String.UnicodeScalarView()
            text.append(scalar)
            let key = SortKey.key(String(text))
            let want = expected[v] ?? [v]
            checked += 1
            if key != want {
                failures += 1
                XCTFail("U+\(String(v, radix: 16)): \(key.map { String($0, radix: 16) }), unicodedata \(want.map { String($0, radix: 16) })")
            }
        }
        XCTAssertEqual(checked, 0x110000 - 0x800)
    }

    /// Characters the Swift runtime knows but the table's Unicode version does not are their own keys.
    func testCharactersNewerThanTheTableAreTheirOwnKeys() {
        let parts = NameFoldingTable.unicodeVersion.split(separator: ".").compactMap { Int($0) }
        guard parts.count >= 2 else { return XCTFail("version \(NameFoldingTable.unicodeVersion)") }
        var newer = 0
        for v in UInt32(0x80)...0x10FFFF {
            guard let scalar = Unicode.Scalar(v), let age = scalar.properties.age,
                  (age.major, age.minor) > (parts[0], parts[1]) else { continue }
            newer += 1
            var text = String.UnicodeScalarView()
            text.append(scalar)
            XCTAssertEqual(SortKey.key(String(text)), [v])
        }
        print("code points newer than Unicode \(NameFoldingTable.unicodeVersion) in the Swift runtime: \(newer)")
    }

    func testCompatibilityAndSingletonSigns() {
        XCTAssertEqual(SortKey.fold("\u{2126}mega"), "ωmega")          // OHM SIGN
        XCTAssertEqual(SortKey.fold("\u{212A}elvin"), "kelvin")        // KELVIN SIGN
        XCTAssertEqual(SortKey.fold("\u{212B}ngstr\u{F6}m"), "angstrom") // ANGSTROM SIGN
        XCTAssertTrue(SortKey.less("\u{212B}ngstr\u{F6}m", "Zola"))
        XCTAssertTrue(SortKey.less("\u{212A}elvin", "Lima"))
        XCTAssertTrue(SortKey.less("\u{2126}mega", "\u{0E01}"))        // before Thai
        XCTAssertEqual(SortKey.key("\u{AC01}"), [0x1100, 0x1161, 0x11A8])
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
        XCTAssertEqual(checked, 10_000)
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

    /// NFKD's canonical order of the marks a key keeps (U+302E class 224, U+1D165 216, U+1D16D
    /// 226): by class within a run, a character of class 0 (a removed one too) ending the run.
    func testKeptMarksAreInCanonicalOrder() {
        XCTAssertEqual(SortKey.key("x\u{1D16D}\u{302E}"), [0x78, 0x302E, 0x1D16D])
        XCTAssertTrue(SortKey.less("x\u{1D16D}\u{302E}", "x\u{302F}"))
        XCTAssertEqual(SortKey.key("a\u{302E}\u{0301}\u{1D165}"), [0x61, 0x1D165, 0x302E])   // U+0301 removed, in the run
        XCTAssertEqual(SortKey.key("a\u{302E}\u{0E31}\u{1D165}"), [0x61, 0x302E, 0x1D165])   // U+0E31 (class 0) ends it
        XCTAssertEqual(SortKey.key("\u{1D160}\u{302E}"), [0x1D158, 0x1D165, 0x1D16E, 0x302E])
        XCTAssertEqual(SortKey.key("A\u{302F}\u{1D1BB}\u{302E}"), [0x61, 0x302F, 0x1D1B9, 0x1D165, 0x302E])
    }
}
