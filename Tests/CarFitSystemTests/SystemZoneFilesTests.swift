import CarFitCore
import CarFitSystem
import Foundation
import XCTest

/// What the layer below hands the domain: the system's zone files (links that lead out of the
/// directory refused), the monotonic clock and the kernel's random bits.
final class SystemZoneFilesTests: XCTestCase {
    static let system = "/usr/share/zoneinfo"
    var directory = ""

    override func setUpWithError() throws {
        directory = NSTemporaryDirectory() + "carfit-zonefiles-\(UUID().uuidString)"
        let fm = FileManager.default
        try fm.createDirectory(atPath: directory + "/Asia", withIntermediateDirectories: true)
        try Data(contentsOf: URL(fileURLWithPath: SystemZoneFilesTests.system + "/Asia/Kathmandu"))
            .write(to: URL(fileURLWithPath: directory + "/Asia/Kathmandu"))
        try fm.createDirectory(atPath: directory + "/Alias", withIntermediateDirectories: true)
        try fm.createSymbolicLink(atPath: directory + "/Alias/Home", withDestinationPath: "../Asia/Kathmandu")
        try fm.createSymbolicLink(atPath: directory + "/Alias/Away", withDestinationPath: SystemZoneFilesTests.system + "/Europe/Paris")
        try fm.createSymbolicLink(atPath: directory + "/Alias/Up",
                                  withDestinationPath: "../../" + (directory as NSString).lastPathComponent + "/Asia/Kathmandu")
    }

    override func tearDownWithError() throws {
        try? FileManager.default.removeItem(atPath: directory)
    }

    func testFilesAreReadWithinTheDirectoryOnly() throws {
        let files = SystemZoneFiles()
        let kathmandu = try [UInt8](Data(contentsOf: URL(fileURLWithPath: directory + "/Asia/Kathmandu")))
        XCTAssertEqual(files.contents(of: "Asia/Kathmandu", in: directory, maxBytes: 1 << 20), kathmandu)
        XCTAssertEqual(files.contents(of: "Alias/Home", in: directory, maxBytes: 1 << 20), kathmandu)
        XCTAssertEqual(files.contents(of: "Alias/Up", in: directory, maxBytes: 1 << 20), kathmandu)
        XCTAssertNil(files.contents(of: "Alias/Away", in: directory, maxBytes: 1 << 20), "a link leading out")
        XCTAssertNil(files.contents(of: "Asia/Kathmandu", in: directory, maxBytes: kathmandu.count - 1), "too large")
        XCTAssertNil(files.contents(of: "Asia", in: directory, maxBytes: 1 << 20), "a directory")
        XCTAssertNil(files.contents(of: "../" + (directory as NSString).lastPathComponent + "/Asia/Kathmandu", in: directory,
                                    maxBytes: 1 << 20))
        XCTAssertNil(files.contents(of: "Asia/None", in: directory, maxBytes: 1 << 20))
        XCTAssertNil(ZoneInfo.rules(named: "Alias/Away", in: directory, files: files))
        XCTAssertThrowsError(try Clock(zoneName: "Alias/Away", zoneinfo: directory)) { error in
            XCTAssertEqual((error as? CarFitError)?.field, "timeZone")
        }
        XCTAssertEqual(try Clock(zoneName: "Alias/Home", zoneinfo: directory).offsetSeconds(at: Instant(milliseconds: 0)), 19800)
    }

    func testDirectoriesAndTheDefault() {
        let files = SystemZoneFiles()
        XCTAssertTrue(files.isDirectory(directory))
        XCTAssertFalse(files.isDirectory(directory + "/Asia/Kathmandu"))
        XCTAssertFalse(files.isDirectory(directory + "/none"))
        XCTAssertFalse(files.isDirectory(""))
        // $TZDIR when set, else the system's directory.
        XCTAssertEqual(files.defaultDirectory,
                       ProcessInfo.processInfo.environment["TZDIR"].flatMap { $0.isEmpty ? nil : $0 } ?? SystemZoneFilesTests.system)
    }

    func testTheMonotonicClockNeverGoesBack() {
        let clock = SystemMonotonicClock()
        var last = clock.nanoseconds()
        XCTAssertGreaterThan(last, 0)
        for _ in 0..<10_000 {
            let now = clock.nanoseconds()
            XCTAssertGreaterThanOrEqual(now, last)
            last = now
        }
    }

    func testKernelRandomBitsVary() {
        var random = KernelRandom()
        let draws = (0..<64).map { _ in random.next() }
        XCTAssertEqual(Set(draws).count, 64)
        // Every bit position is set in some draw and clear in another.
        let ored = draws.reduce(UInt64(0)) { $0 | $1 }
        let anded = draws.reduce(UInt64.max) { $0 & $1 }
        XCTAssertEqual(ored, .max)
        XCTAssertEqual(anded, 0)
        XCTAssertEqual(UUIDv4.make(using: &random).count, 36)
    }
}
