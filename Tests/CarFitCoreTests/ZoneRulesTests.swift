import Foundation
import XCTest
@testable import CarFitCore

/// The zone rules read from TZif files against Python's `zoneinfo` over the same directory
/// (`Fixtures/zone_oracle.py`): offsets at each transition and a second either side, the next
/// transition after each, the years 1 and 9999, the footer's far future, random instants.
final class ZoneRulesTests: XCTestCase {
    static let system = "/usr/share/zoneinfo"
    static let zones = ["Pacific/Apia", "Australia/Lord_Howe", "Europe/Dublin", "Asia/Kathmandu", "Pacific/Chatham",
                        "America/St_Johns", "Europe/Copenhagen", "America/Santiago", "Pacific/Kiritimati",
                        "America/New_York", "Africa/Casablanca", "Etc/GMT+12"]

    var directory = ""

    override func setUpWithError() throws {
        // A zoneinfo directory of its own: copies of the system's files, an alias inside it,
        // and the bad entries the reader must refuse.
        directory = NSTemporaryDirectory() + "carfit-zoneinfo-\(UUID().uuidString)"
        let fm = FileManager.default
        for zone in ZoneRulesTests.zones {
            let target = directory + "/" + zone
            try fm.createDirectory(atPath: (target as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
            try Data(contentsOf: URL(fileURLWithPath: ZoneRulesTests.system + "/" + zone)).write(to: URL(fileURLWithPath: target))
        }
        try fm.createDirectory(atPath: directory + "/Alias", withIntermediateDirectories: true)
        try fm.createSymbolicLink(atPath: directory + "/Alias/Home", withDestinationPath: "../Asia/Kathmandu")
        try fm.createSymbolicLink(atPath: directory + "/Alias/Away", withDestinationPath: ZoneRulesTests.system + "/Europe/Paris")
        try fm.createSymbolicLink(atPath: directory + "/Alias/Up", withDestinationPath: "../../" + (directory as NSString).lastPathComponent + "/Europe/Dublin")
        try Data("not a zone\n".utf8).write(to: URL(fileURLWithPath: directory + "/Text"))
        var truncated = try Data(contentsOf: URL(fileURLWithPath: ZoneRulesTests.system + "/Europe/Paris"))
        truncated = truncated.prefix(truncated.count / 2)
        try truncated.write(to: URL(fileURLWithPath: directory + "/Truncated"))
    }

    override func tearDownWithError() throws {
        try? FileManager.default.removeItem(atPath: directory)
    }

    /// The oracle's lines for `zones` read from `directory`.
    func oracle(_ zones: [String]) throws -> [[Substring]] {
        let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Fixtures/zone_oracle.py")
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", script.path, directory] + zones
        let pipe = Pipe()
        process.standardOutput = pipe
        try process.run()
        let data = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        XCTAssertEqual(process.terminationStatus, 0)
        return String(decoding: data, as: UTF8.self).split(separator: "\n").map { $0.split(separator: " ") }
    }

    func testOffsetsAndTransitionsAgreeWithPythonsZoneinfo() throws {
        let names = ZoneRulesTests.zones + ["Alias/Home", "Alias/Up"]
        let lines = try oracle(names)
        var rules: [String: ZoneRules] = [:]
        for name in names { rules[name] = try XCTUnwrap(ZoneInfo.rules(named: name, in: directory, files: FakeZoneFiles()), name) }
        var checked = (offsets: 0, transitions: 0)
        var failures = 0
        for line in lines where line.count == 4 && failures < 20 {
            let zone = String(line[1])
            guard let r = rules[zone], let a = Int64(line[2]), let b = Int64(line[3]) else {
                XCTFail("bad oracle line \(line)")
                continue
            }
            if line[0] == "offset" {
                checked.offsets += 1
                if r.offset(atSecond: a) != Int(b) {
                    failures += 1
                    XCTFail("\(zone) at \(a): \(r.offset(atSecond: a)), Python \(b)")
                }
            } else if line[0] == "next" {
                checked.transitions += 1
                if r.nextTransition(after: a) != b {
                    failures += 1
                    XCTFail("\(zone) after \(a): \(String(describing: r.nextTransition(after: a))), Python \(b)")
                }
            }
        }
        XCTAssertGreaterThan(checked.offsets, names.count * 2000)
        XCTAssertGreaterThan(checked.transitions, 500)
    }

    func testClocksOfTheSkippedAndOddZones() throws {
        // Samoa skipped 2011-12-30: 2011-12-29T23:59:59-10:00 is followed by 2011-12-31T00:00:00+14:00.
        let apia = try Clock(fakeZone: "Pacific/Apia", zoneinfo: directory)
        let skip = try XCTUnwrap(Instant(iso: "2011-12-30T10:00:00Z"))
        XCTAssertEqual(apia.localDate(Instant(milliseconds: skip.milliseconds - 1000))?.description, "2011-12-29")
        XCTAssertEqual(apia.localDate(skip)?.description, "2011-12-31")
        XCTAssertEqual(apia.zone.nextTransition(after: skip.seconds - 86_400), skip.seconds)
        // Dublin's winter time is the negative daylight saving of its rules: +00:00 in January.
        let dublin = try Clock(fakeZone: "Europe/Dublin", zoneinfo: directory)
        XCTAssertEqual(dublin.offsetSeconds(at: try XCTUnwrap(Instant(iso: "2030-01-15T12:00:00Z"))), 0)
        XCTAssertEqual(dublin.offsetSeconds(at: try XCTUnwrap(Instant(iso: "2030-07-15T12:00:00Z"))), 3600)
        let lordHowe = try Clock(fakeZone: "Australia/Lord_Howe", zoneinfo: directory)
        XCTAssertEqual(lordHowe.offsetSeconds(at: try XCTUnwrap(Instant(iso: "2500-01-15T12:00:00Z"))), 11 * 3600)
        XCTAssertEqual(lordHowe.offsetSeconds(at: try XCTUnwrap(Instant(iso: "2500-07-15T12:00:00Z"))), 10 * 3600 + 1800)
        XCTAssertEqual(try Clock(fakeZone: "Alias/Home", zoneinfo: directory).offsetSeconds(at: Instant(milliseconds: 0)), 19800)
    }

    func testBadZoneNamesAreInvalidTimeZones() throws {
        let bad = ["..", "../" + (directory as NSString).lastPathComponent + "/Europe/Dublin", "Europe/../Europe/Dublin",
                   ZoneRulesTests.system + "/Europe/Paris", "/Europe/Dublin", "Text", "Truncated",
                   "Europe", "Mars/Olympus", "", "Europe/Dublin\u{0}", String(repeating: "A", count: 1000)]
        for name in bad {
            XCTAssertNil(ZoneInfo.rules(named: name, in: directory, files: FakeZoneFiles()), name)
            XCTAssertThrowsError(try Clock(fakeZone: name, zoneinfo: directory), name) { error in
                XCTAssertEqual((error as? CarFitError)?.field, "timeZone", name)
            }
        }
        // UTC needs no file, also in a directory without one.
        XCTAssertEqual(ZoneInfo.rules(named: "UTC", in: directory, files: FakeZoneFiles()), .utc)
    }

    func testTheDomainReadsZonesOnlyThroughItsZoneFiles() throws {
        // The bytes come from the database handed in; the domain checks the name first.
        let files = FakeZoneFiles(defaultDirectory: "/nowhere")
        let bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: directory + "/Asia/Kathmandu")))
        files.files["/nowhere/Far/Away"] = bytes
        let clock = try Clock(zoneName: "Far/Away", zoneinfo: "/nowhere", files: files)
        XCTAssertEqual(clock.offsetSeconds(at: Instant(milliseconds: 0)), 19800)
        XCTAssertEqual(files.asked, ["/nowhere/Far/Away"])
        for name in ["../Far/Away", "/Far/Away", "Far/../Far/Away", "Far/Away\u{0}", ""] {
            XCTAssertNil(ZoneInfo.rules(named: name, in: "/nowhere", files: files), name)
        }
        XCTAssertEqual(files.asked.count, 1, "a name leaving the directory is not asked for")
        XCTAssertEqual(try Clock(zoneName: "UTC", zoneinfo: "/nowhere", files: files).zone, .utc)
        XCTAssertEqual(files.asked.count, 1, "UTC needs no file")
        // The config's default directory is what the caller says (the system's by default).
        XCTAssertEqual(CoreConfig(hour24: true, processors: 1).zoneinfo, ZoneRulesTests.system)
        XCTAssertEqual(CoreConfig(hour24: true, processors: 1, zoneinfo: "/nowhere").zoneinfo, "/nowhere")
    }

    /// A version 2 file whose 32-bit data are left empty (as some writers do), built by hand:
    /// type 0 at +00:30, a transition at 1,000,000 s to +01:00, the footer "<+01>-1".
    func testAVersion2FileWithEmpty32BitData() {
        func be(_ v: Int64, _ n: Int) -> [UInt8] { (0..<n).map { UInt8(truncatingIfNeeded: v >> (8 * (n - 1 - $0))) } }
        func header(_ counts: [Int64]) -> [UInt8] {
            Array("TZif2".utf8) + [UInt8](repeating: 0, count: 15) + counts.flatMap { be($0, 4) }
        }
        var bytes = header([0, 0, 0, 0, 0, 0])
        bytes += header([0, 0, 0, 1, 2, 4])       // isut, isstd, leap, time, type, char
        bytes += be(1_000_000, 8) + [1]
        bytes += be(1800, 4) + [0, 0] + be(3600, 4) + [0, 0]
        bytes += Array("ABC\0".utf8)
        bytes += Array("\n<+01>-1\n".utf8)
        let rules = ZoneRules(tzif: bytes)
        XCTAssertEqual(rules?.offset(atSecond: 999_999), 1800)
        XCTAssertEqual(rules?.offset(atSecond: 1_000_000), 3600)
        XCTAssertEqual(rules?.offset(atSecond: 9_000_000_000), 3600)
        XCTAssertEqual(rules?.nextTransition(after: 0), 1_000_000)
        XCTAssertNil(rules?.nextTransition(after: 1_000_000))
        XCTAssertNil(ZoneRules(tzif: Array(bytes.dropLast(1))))                 // no newline after the footer
        XCTAssertNil(ZoneRules(tzif: Array(bytes.dropLast(3)) + [0x0A]))       // "<+01>" has no offset
        XCTAssertNil(ZoneRules(tzif: Array(bytes.prefix(100))))
    }

    func testPosixRules() {
        let kathmandu = PosixTZRule("<+0545>-5:45")
        XCTAssertEqual(kathmandu?.standardOffset, 20_700)
        XCTAssertNil(kathmandu?.daylightOffset)
        let dublin = PosixTZRule("IST-1GMT0,M10.5.0,M3.5.0/1")
        XCTAssertEqual(dublin?.standardOffset, 3600)
        XCTAssertEqual(dublin?.daylightOffset, 0)
        let gaza = PosixTZRule("EET-2EEST,M3.4.4/50,M10.4.4/50")
        XCTAssertEqual(gaza?.start?.seconds, 50 * 3600)
        let negative = PosixTZRule("<-02>2<-01>,M3.5.0/-1,M10.5.0/0")
        XCTAssertEqual(negative?.start?.seconds, -3600)
        // Jn never counts February 29 (J60 is March 1 in every year); n does (59 is February 29 in 2024).
        let julian = PosixTZRule("AAA0BBB,J60/0,J300/0")
        XCTAssertEqual(julian?.offset(atSecond: 1_709_251_200), 3600)      // 2024-03-01T00:00Z
        XCTAssertEqual(julian?.offset(atSecond: 1_709_251_199), 0)
        let zeroBased = PosixTZRule("AAA0BBB,59/0,300/0")
        XCTAssertEqual(zeroBased?.offset(atSecond: 1_709_164_800), 3600)   // 2024-02-29T00:00Z
        XCTAssertEqual(zeroBased?.offset(atSecond: 1_709_164_799), 0)
        for bad in ["", "A", "AB1", "CET-1CEST", "CET-1CEST,M13.1.0,M10.5.0", "CET-1CEST,M3.6.0,M10.5.0", "<+05", "EST5EDT,M3.2.0/200,M11.1.0"] {
            XCTAssertNil(PosixTZRule(bad), bad)
        }
    }
}
