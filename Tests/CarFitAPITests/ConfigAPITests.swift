import CarFitSystem
import Foundation
import XCTest
import CarFitAPI
@testable import CarFitCore
import CarFitIO

/// The config document of `carfit_open` read into `CoreConfig`: defaults, every member checked,
/// unknown members refused with the nearest known name, the header naming every member.

final class ConfigTests: XCTestCase {
    func config(_ pairs: KeyValuePairs<String, JSON>) throws(CarFitError) -> CoreConfig {
        try CoreConfig(Fields(JSONObject(pairs)), localeHour24: true, processors: 4, zoneFiles: SystemZoneFiles())
    }

    func testImportThreadsDefaultToTheProcessorsUpToEight() throws {
        XCTAssertEqual(try config([:]).importThreads, 4)
        XCTAssertEqual(try CoreConfig(Fields(JSONObject()), localeHour24: true, processors: 16, zoneFiles: SystemZoneFiles()).importThreads, 8)
        XCTAssertEqual(try CoreConfig(Fields(JSONObject()), localeHour24: false, processors: 1, zoneFiles: SystemZoneFiles()).importThreads, 1)
        XCTAssertFalse(try CoreConfig(Fields(JSONObject()), localeHour24: false, processors: 1, zoneFiles: SystemZoneFiles()).hour24)
        XCTAssertEqual(try config(["importThreads": 0]).importThreads, 0)
    }

    func testImportThreadsOutOfRangeOrNotACountAreRefused() {
        for value: JSON in [-1, 65, 1.5, "2", true] {
            XCTAssertThrowsError(try config(["importThreads": value]), "\(value)") { error in
                XCTAssertEqual((error as? CarFitError)?.status, .invalid, "\(value)")
                XCTAssertEqual((error as? CarFitError)?.field, "importThreads", "\(value)")
            }
        }
        XCTAssertEqual(try config(["importThreads": 64]).importThreads, 64)
    }

    func testDefaults() throws {
        let c = try config([:])
        XCTAssertEqual(c.database, ":memory:")
        XCTAssertEqual(c.timeZone, "UTC")
        XCTAssertEqual(c.firstWeekday, .monday)
        XCTAssertEqual(c.http, CoreConfig.HTTP())
        XCTAssertEqual(c.http.timeoutMs, 10_000)
        XCTAssertEqual(c.http.totalTimeoutMs, 120_000)
        XCTAssertEqual(c.http.maxBodyBytes, 268_435_456)
        XCTAssertEqual(c.http.minBytesPerSecond, 1024)
        XCTAssertEqual(c.sources, CoreConfig.Sources())
        XCTAssertEqual(c.images, CoreConfig.Images())
        XCTAssertNil(c.now)
        XCTAssertTrue(c.hour24)
    }

    func testTheLocaleAndTheCurrency() throws {
        let plain = try config(["currency": "DKK"])
        XCTAssertNil(plain.locale)
        XCTAssertFalse(plain.display.isLocalized)
        let danish = try config(["locale": "da_dk", "currency": "DKK"])
        XCTAssertEqual(danish.locale, .da)
        XCTAssertEqual(danish.currency, .dkk)
        XCTAssertFalse(danish.hour24Given)
        XCTAssertEqual(try config(["locale": "en-US"]).firstWeekday, .sunday)
        XCTAssertEqual(try config(["locale": "en-US", "firstWeekday": "monday"]).firstWeekday, .monday)
        XCTAssertEqual(try config(["firstWeekday": "sunday", "locale": "de"]).firstWeekday, .sunday)
        XCTAssertTrue(try config(["locale": "sv", "hour24": false]).hour24Given)
        let locale = try XCTUnwrap(refusal(["locale": "fr-FR"]))
        XCTAssertEqual(locale.status, .invalid)
        XCTAssertEqual(locale.field, "locale")
        XCTAssertEqual(locale.message, "locale \"fr-FR\" is not supported: use one of en, en-US, en-GB, da, da-DK, nb, nb-NO, "
                       + "no, sv, sv-SE, de, de-DE (case-insensitive, \"-\" or \"_\").")
        XCTAssertEqual(refusal(["locale": 7])?.field, "locale")
        for code: JSON in ["CHF", "dkk", "", 1] {
            XCTAssertEqual(refusal(["currency": code])?.field, "currency", "\(code)")
        }
    }

    func testEveryFieldIsChecked() {
        let cases: [(KeyValuePairs<String, JSON>, String)] = [
            (["now": "yesterday"], "now"), (["timeZone": "Nowhere/Land"], "timeZone"), (["hour24": 1], "hour24"),
            (["firstWeekday": "Monday"], "firstWeekday"), (["sources": .obj(["visits": "file:///etc/passwd"])], "sources.visits"),
            (["http": .obj(["timeoutMs": 600_001])], "http.timeoutMs"), (["images": .obj(["diskBytes": "1"])], "images.diskBytes"),
            (["images": .obj(["concurrency": 65])], "images.concurrency"), (["database": 1], "database"),
            (["maxRequestBytes": 0], "maxRequestBytes"), (["images": 3], "images"),
            (["sources": .obj(["catalog": "ftp://example.com/c"])], "sources.catalog"),
            (["sources": .obj(["patterns": "not a url"])], "sources.patterns"),
            (["sources": .obj(["visitUpdates": 7])], "sources.visitUpdates"),
            (["http": .obj(["totalTimeoutMs": 0])], "http.totalTimeoutMs"),
            (["http": .obj(["totalTimeoutMs": 3_600_001])], "http.totalTimeoutMs"),
            (["http": .obj(["maxBodyBytes": 0])], "http.maxBodyBytes"),
            (["http": .obj(["maxBodyBytes": .int(1 << 40 + 1)])], "http.maxBodyBytes"),
            (["http": .obj(["minBytesPerSecond": -1])], "http.minBytesPerSecond"),
            (["http": .obj(["minBytesPerSecond": "1024"])], "http.minBytesPerSecond"),
            (["http": .obj(["minBytesPerSecond": "fast"])], "http.minBytesPerSecond"),
            (["http": .obj(["minBytesPerSecond": 1.5])], "http.minBytesPerSecond"),
            (["http": .obj(["minBytesPerSecond": true])], "http.minBytesPerSecond"),
            (["http": .obj(["minBytesPerSecond": .int(1 << 41)])], "http.minBytesPerSecond"),
        ]
        for (pairs, field) in cases {
            XCTAssertThrowsError(try config(pairs)) { error in
                XCTAssertEqual((error as? CarFitError)?.field, field)
                XCTAssertEqual((error as? CarFitError)?.status, .invalid)
            }
        }
    }

    func testEverySourceAndLimitIsRead() throws {
        let c = try config([
            "sources": .obj(["visits": "http://h/v", "articles": "https://h/a", "catalog": "https://h/c",
                             "patterns": "http://h/p", "visitUpdates": "https://h/u"]),
            "http": .obj(["timeoutMs": 5, "totalTimeoutMs": 3_600_000, "maxBodyBytes": .int(1 << 40), "minBytesPerSecond": 0]),
        ])
        XCTAssertEqual(c.sources.visits, "http://h/v")
        XCTAssertEqual(c.sources.articles, "https://h/a")
        XCTAssertEqual(c.sources.catalog, "https://h/c")
        XCTAssertEqual(c.sources.patterns, "http://h/p")
        XCTAssertEqual(c.sources.visitUpdates, "https://h/u")
        XCTAssertEqual(c.http.timeoutMs, 5)
        XCTAssertEqual(c.timeoutMs, 5)
        XCTAssertEqual(c.http.totalTimeoutMs, 3_600_000)
        XCTAssertEqual(c.http.maxBodyBytes, 1 << 40)
        XCTAssertEqual(c.http.minBytesPerSecond, 0)
    }

    func refusal(_ pairs: KeyValuePairs<String, JSON>) -> CarFitError? {
        do {
            _ = try config(pairs)
            return nil
        } catch {
            return error
        }
    }

    func testUnknownMembersAreRefusedWithTheNearestKnownName() throws {
        let cases: [(KeyValuePairs<String, JSON>, String, String)] = [
            (["timezone": "Europe/Copenhagen"], "timezone", "Unknown config member timezone: did you mean timeZone?"),
            (["TIMEZONE": "UTC"], "TIMEZONE", "Unknown config member TIMEZONE: did you mean timeZone?"),
            (["hour_24": true], "hour_24", "Unknown config member hour_24: did you mean hour24?"),
            (["databse": ":memory:"], "databse", "Unknown config member databse: did you mean database?"),
            (["importThread": 2], "importThread", "Unknown config member importThread: did you mean importThreads?"),
            (["sources": .obj(["vists": "http://h/v"])], "sources.vists",
             "Unknown config member sources.vists: did you mean sources.visits?"),
            (["sources": .obj(["visitupdates": "http://h/u"])], "sources.visitupdates",
             "Unknown config member sources.visitupdates: did you mean sources.visitUpdates?"),
            (["http": .obj(["timeout": 5])], "http.timeout", "Unknown config member http.timeout: did you mean http.timeoutMs?"),
            (["http": .obj(["maxbodybytes": 5])], "http.maxbodybytes",
             "Unknown config member http.maxbodybytes: did you mean http.maxBodyBytes?"),
            (["images": .obj(["dir": "/tmp"])], "images.dir",
             "Unknown config member images.dir: images takes directory, memoryBytes, diskBytes, concurrency."),
            (["images": .obj(["concurency": 2])], "images.concurency",
             "Unknown config member images.concurency: did you mean images.concurrency?"),
            (["colour": "red"], "colour", "Unknown config member colour: the config takes database, now, timeZone, "
             + "hour24, firstWeekday, locale, currency, sources, http, images, maxRequestBytes, importThreads, auth, road, attachments, report, "
             + "reminders, zoneinfo, encryption."),
        ]
        for (pairs, field, message) in cases {
            let error = try XCTUnwrap(refusal(pairs), field)
            XCTAssertEqual(error.status, .invalid, field)
            XCTAssertEqual(error.field, field)
            XCTAssertEqual(error.message, message)
        }
    }

    func testTheFirstUnknownMemberIsNamedBeforeAnyValueIsChecked() throws {
        let error = try XCTUnwrap(refusal(["now": "yesterday", "tz": "UTC", "timezone": "UTC"]))
        XCTAssertEqual(error.field, "tz")
        let inner = try XCTUnwrap(refusal(["sources": .obj(["visits": "not a url", "artciles": "http://h/a"])]))
        XCTAssertEqual(inner.field, "sources.artciles")
        XCTAssertEqual(inner.message, "Unknown config member sources.artciles: did you mean sources.articles?")
    }

    func testAnUnprintableOrHugeNameIsShownShortAndPlain() throws {
        let huge = String(repeating: "x", count: 100_000)
        let error = try XCTUnwrap(refusal([huge: 1]))
        XCTAssertEqual(error.field, huge)
        XCTAssertLessThan(error.message.count, 400)
        XCTAssertTrue(error.message.hasPrefix("Unknown config member " + String(repeating: "x", count: 64) + "…:"))
        let control = try XCTUnwrap(refusal(["now\u{0}\n": 1]))
        XCTAssertEqual(control.message, "Unknown config member now??: did you mean now?")
    }

    func testEveryKnownMemberIsAccepted() throws {
        XCTAssertNoThrow(try config([
            "database": ":memory:", "now": "2020-09-10T07:00:00Z", "timeZone": "UTC", "hour24": true,
            "firstWeekday": "sunday", "sources": .obj(["visits": "http://h/v"]), "http": .obj(["timeoutMs": 5]),
            "images": .obj(["concurrency": 2]), "maxRequestBytes": 1024, "importThreads": 0,
        ]))
        // A null member reads as absent, but its name must still be known.
        XCTAssertEqual(refusal(["timezone": .null])?.field, "timezone")
    }

    /// The header documents exactly the members the config reader knows: the top-level ones in
    /// its table, in order, and every member of `sources`, `http` and `images` by name.
    func testTheHeaderDocumentsEveryKnownMember() throws {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
        let header = try String(contentsOf: root.appendingPathComponent("include/carfit.h"), encoding: .utf8)
        let start = try XCTUnwrap(header.range(of: "carfit_open — open a core."))
        let end = try XCTUnwrap(header.range(of: "int carfit_open(", range: start.upperBound..<header.endIndex))
        let block = String(header[start.upperBound..<end.lowerBound])
        let table = try NSRegularExpression(pattern: #"^ \* {12}"(\w+)""#, options: [.anchorsMatchLines])
        let documented = table.matches(in: block, range: NSRange(block.startIndex..., in: block)).compactMap { match in
            Range(match.range(at: 1), in: block).map { String(block[$0]) }
        }
        XCTAssertEqual(documented, ConfigMembers.root)
        for member in ConfigMembers.sources + ConfigMembers.http + ConfigMembers.images + ConfigMembers.auth + ConfigMembers.road + ConfigMembers.attachments
                + ConfigMembers.report + ConfigMembers.reminders + ConfigMembers.encryption {
            XCTAssertTrue(block.contains("\"\(member)\""), "carfit_open's comment does not name \(member)")
        }
    }
}

/// `auth.origins`: who receives the planner's token.
final class AuthConfigTests: XCTestCase {
    func read(_ pairs: KeyValuePairs<String, JSON>) throws(CarFitError) -> CoreConfig {
        try CoreConfig(Fields(JSONObject(pairs)), localeHour24: true, processors: 2, zoneFiles: SystemZoneFiles())
    }

    func testOriginsAreReadWithTheirPortsMadeExplicit() throws {
        let config = try read(["auth": .obj(["origins": .array(["https://Planner.Example:8443", "http://127.0.0.1",
                                                                "HTTPS://planner.example/", "http://[::1]:8080"])])])
        XCTAssertEqual(config.auth.origins?.map(\.description),
                       ["https://planner.example:8443", "http://127.0.0.1:80", "https://planner.example:443", "http://[::1]:8080"])
        XCTAssertNil(try read([:]).auth.origins)
        XCTAssertEqual(try read(["auth": .obj(["origins": .array([])])]).auth.origins, [])
    }

    func testAnythingButAnOriginIsRefusedWithItsPath() {
        let bad: [JSON] = ["ftp://h", "https://", "https://h/path", "https://h?q", "https://user@h", "https://h:0",
                           "https://h:65536", "https://h:", "h:80", "https://h h", "https://[zz]", 8443, .null]
        for value in bad {
            do throws(CarFitError) {
                _ = try read(["auth": .obj(["origins": .array(["https://ok.example", value])])])
                XCTFail("accepted \(value)")
            } catch {
                XCTAssertEqual(error.status, .invalid, "\(value)")
                XCTAssertEqual(error.field, "auth.origins[1]", "\(value)")
            }
        }
        for (pairs, field): (KeyValuePairs<String, JSON>, String) in [
            (["auth": .obj(["origins": "https://h"])], "auth.origins"),
            (["auth": .obj(["orgins": .array([])])], "auth.orgins"),
            (["auth": "https://h"], "auth"),
        ] {
            do throws(CarFitError) {
                _ = try read(pairs)
                XCTFail("accepted \(pairs)")
            } catch {
                XCTAssertEqual(error.status, .invalid)
                XCTAssertEqual(error.field, field)
            }
        }
    }
}

/// `zoneinfo` and `timeZone`: a directory of zone files, and a zone named in it.
final class ZoneConfigTests: XCTestCase {
    static let system = "/usr/share/zoneinfo"
    var directory = ""

    override func setUpWithError() throws {
        directory = NSTemporaryDirectory() + "carfit-config-zoneinfo-\(UUID().uuidString)"
        let fm = FileManager.default
        try fm.createDirectory(atPath: directory + "/Asia", withIntermediateDirectories: true)
        try Data(contentsOf: URL(fileURLWithPath: ZoneConfigTests.system + "/Asia/Kathmandu"))
            .write(to: URL(fileURLWithPath: directory + "/Asia/Kathmandu"))
        try fm.createDirectory(atPath: directory + "/Alias", withIntermediateDirectories: true)
        try fm.createSymbolicLink(atPath: directory + "/Alias/Home", withDestinationPath: "../Asia/Kathmandu")
        try Data("not a zone\n".utf8).write(to: URL(fileURLWithPath: directory + "/Text"))
    }

    override func tearDownWithError() throws {
        try? FileManager.default.removeItem(atPath: directory)
    }

    func read(_ pairs: KeyValuePairs<String, JSON>) throws(CarFitError) -> CoreConfig {
        try CoreConfig(Fields(JSONObject(pairs)), localeHour24: true, processors: 1, zoneFiles: SystemZoneFiles())
    }

    func testBadZoneNamesAreInvalidTimeZones() {
        for name in ["..", "Text", "Mars/Olympus", "/Asia/Kathmandu", "Asia", "", "Asia/Kathmandu\u{0}",
                     String(repeating: "A", count: 1000)] {
            do throws(CarFitError) {
                _ = try read(["zoneinfo": .string(directory), "timeZone": .string(name)])
                XCTFail("accepted \(name)")
            } catch {
                XCTAssertEqual(error.status, .invalid, name)
                XCTAssertEqual(error.field, "timeZone", name)
            }
        }
    }

    func testZoneinfoMustNameADirectory() throws {
        for dir in [directory + "/Text", directory + "/none", ""] {
            do throws(CarFitError) {
                _ = try read(["zoneinfo": .string(dir)])
                XCTFail("accepted \(dir)")
            } catch {
                XCTAssertEqual(error.status, .invalid, dir)
                XCTAssertEqual(error.field, "zoneinfo", dir)
            }
        }
        let config = try read(["zoneinfo": .string(directory), "timeZone": "Alias/Home"])
        XCTAssertEqual(config.zoneinfo, directory)
        XCTAssertEqual(try config.clock(hostNow: { Instant(milliseconds: 0) }).offsetSeconds(at: Instant(milliseconds: 0)), 19800)
    }
}

/// The config's `road` member.
final class RoadConfigTests: XCTestCase {
    func config(_ pairs: KeyValuePairs<String, JSON>) throws(CarFitError) -> CoreConfig {
        try CoreConfig(Fields(JSONObject(pairs)), localeHour24: true, processors: 1, zoneFiles: SystemZoneFiles())
    }

    func testRoadConfigDefaultsAndMembers() throws {
        let defaults = try config([:]).road
        XCTAssertEqual(defaults.arrivalRadiusMeters, 75)
        XCTAssertEqual(defaults.dwellSeconds, 60)
        XCTAssertEqual(defaults.maxAccuracyMeters, 100)
        XCTAssertEqual(defaults.minDistanceMeters, 20)
        XCTAssertEqual(defaults.minIntervalSeconds, 300)
        XCTAssertFalse(defaults.autoStart)
        XCTAssertEqual(defaults.trailDays, 7)
        let road = try config(["road": .obj(["arrivalRadiusMeters": 50, "dwellSeconds": 30, "maxAccuracyMeters": 20.5,
                                             "minDistanceMeters": 10, "minIntervalSeconds": 60, "autoStart": true,
                                             "trailDays": 2])]).road
        XCTAssertEqual(road.arrivalRadiusMeters, 50)
        XCTAssertEqual(road.dwellSeconds, 30)
        XCTAssertEqual(road.maxAccuracyMeters, 20.5)
        XCTAssertTrue(road.autoStart)
        XCTAssertEqual(road.trailDays, 2)
        XCTAssertEqual(try config(["sources": .obj(["locations": "http://127.0.0.1:9/p"])]).sources.locations, "http://127.0.0.1:9/p")
    }

    func testRoadConfigIsStrict() {
        func field(_ pairs: KeyValuePairs<String, JSON>) -> String? {
            do { _ = try config(pairs); return nil } catch { return error.field }
        }
        XCTAssertEqual(field(["road": .obj(["dwelSeconds": 5])]), "road.dwelSeconds")
        XCTAssertEqual(field(["road": .obj(["dwellSeconds": -1])]), "road.dwellSeconds")
        XCTAssertEqual(field(["road": .obj(["autoStart": "yes"])]), "road.autoStart")
        XCTAssertEqual(field(["road": .obj(["arrivalRadiusMeters": 0])]), "road.arrivalRadiusMeters")
        XCTAssertEqual(field(["road": 3]), "road")
        XCTAssertEqual(field(["sources": .obj(["locations": "ftp://x/y"])]), "sources.locations")
    }
}
