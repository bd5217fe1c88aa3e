import Foundation
@testable import CarFitCore

/// A monotonic clock the test moves by hand.
final class FakeMonotonicClock: MonotonicClock, @unchecked Sendable {
    var now: Int64 = 1_000_000_000
    func nanoseconds() -> Int64 { now }
}

/// A time zone database for the domain's tests: files given as bytes, or read from a directory
/// with Foundation (links followed, no check of where they lead: that is the system's loader's
/// work, tested with it). It records the names asked for.
final class FakeZoneFiles: ZoneFiles, @unchecked Sendable {
    var files: [String: [UInt8]] = [:]
    var directories: Set<String> = []
    var asked: [String] = []
    let defaultDirectory: String

    init(defaultDirectory: String = ZoneInfo.systemDirectory) {
        self.defaultDirectory = defaultDirectory
    }

    func isDirectory(_ path: String) -> Bool {
        if directories.contains(path) { return true }
        var isDir: ObjCBool = false
        return FileManager.default.fileExists(atPath: path, isDirectory: &isDir) && isDir.boolValue
    }

    func contents(of name: String, in directory: String, maxBytes: Int) -> [UInt8]? {
        asked.append(directory + "/" + name)
        if let bytes = files[directory + "/" + name] { return bytes.count <= maxBytes ? bytes : nil }
        guard let data = try? Data(contentsOf: URL(fileURLWithPath: directory + "/" + name)), data.count <= maxBytes
        else { return nil }
        return [UInt8](data)
    }
}

extension Clock {
    /// A clock in zone `fakeZone` read through a `FakeZoneFiles` (the system's zoneinfo by default).
    init(fakeZone: String, zoneinfo: String = ZoneInfo.systemDirectory, fixedNow: Instant? = nil,
         hour24: Bool = true) throws(CarFitError) {
        try self.init(zoneName: fakeZone, zoneinfo: zoneinfo, files: FakeZoneFiles(), fixedNow: fixedNow, hour24: hour24)
    }
}
