import Foundation
import CarFitCore
@testable import CarFitStore

/// Databases and rows for the store tests.
enum TestDatabase {
    /// A path for a database file in a fresh temporary directory, removed by `remove(_:)`.
    static func temporaryPath() throws -> String {
        let directory = FileManager.default.temporaryDirectory
            .appendingPathComponent("carfit-store-\(UUID().uuidString)", isDirectory: true)
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        return directory.appendingPathComponent("carfit.db").path
    }

    /// Removes the directory `temporaryPath()` made for `path`, with the database's WAL files.
    static func remove(_ path: String) {
        try? FileManager.default.removeItem(at: URL(fileURLWithPath: path).deletingLastPathComponent())
    }

    /// A visit named `name` starting `minutes` after 2020-09-10T00:00:00Z.
    static func visit(_ name: String, minutes: Int64 = 0) -> Visit {
        Visit(visitId: "v-\(name)", employeeId: "e1", start: Instant(milliseconds: 1_599_696_000_000 + minutes * 60_000),
              name: name, state: "ToDo", expectedTime: nil, tasks: "Wash", taskMinutes: 30,
              address: "Street 1", phone: nil, latitude: 55.7, longitude: 12.5)
    }

    /// Every stored visit's name, in start order.
    static func visitNames(_ db: Database) throws -> [String] {
        try VisitStore(db).visits(startingIn: Int64.min..<Int64.max).map(\.name)
    }

    /// A trigger that makes inserting the visit named `name` (its visitId `v-name`, as `visit`
    /// makes it) fail, as a full disk would.
    static func failInserting(visitNamed name: String, _ db: Database) throws {
        try db.execute("""
            CREATE TEMP TRIGGER fail_visit BEFORE INSERT ON visits WHEN NEW.visit_id = 'v-\(name)'
            BEGIN SELECT RAISE(ABORT, 'refused by the test'); END
            """)
    }

    /// The `(name, sql)` of every index on the visits table, as sqlite_master holds them.
    static func visitIndexes(_ db: Database) throws -> [[SQLValue]] {
        try db.query("SELECT name, sql FROM sqlite_master WHERE type = 'index' AND tbl_name = 'visits' ORDER BY name")
    }
}
