import AsyncHTTPClient
import Foundation
import XCTest
@testable import PlannerServer

/// The executable itself: its commands, its one line, its signals, several processes on one database.
final class CommandTests: XCTestCase, @unchecked Sendable {
    override func setUp() async throws {
        try XCTSkipUnless(ServerProcess.available, "build the server first (swift build --package-path server)")
    }

    func testBadFlagsAndDatabasesExit2WithOneLine() throws {
        let dir = try temporaryDirectory()
        let cases: [([String], [String: String])] = [
            (["serve", "--bogus", "1"], ["CARFIT_PLANNER_ADMIN_TOKEN": adminToken]),
            (["serve", "--port"], ["CARFIT_PLANNER_ADMIN_TOKEN": adminToken]),
            (["serve", "--port", "70000"], ["CARFIT_PLANNER_ADMIN_TOKEN": adminToken]),
            (["serve", "--database", "sqlite:\(dir)/x.sqlite"], [:]),
            (["serve", "--database", "sqlite:\(dir)/x.sqlite"], ["CARFIT_PLANNER_ADMIN_TOKEN": "short"]),
            (["serve", "--database", "mysql://x"], ["CARFIT_PLANNER_ADMIN_TOKEN": adminToken]),
            (["serve", "--database", "postgres://u:hunter2secret@127.0.0.1:1/db", "--files", dir], ["CARFIT_PLANNER_ADMIN_TOKEN": adminToken]),
            (["serve", "--database", "postgres://u:hunter2secret@127.0.0.1:1/db"], ["CARFIT_PLANNER_ADMIN_TOKEN": adminToken]),
            (["serve", "--database", "sqlite:/nonexistent/dir/x.sqlite", "--files", dir], ["CARFIT_PLANNER_ADMIN_TOKEN": adminToken]),
            (["washer", "add", "--database", "sqlite:\(dir)/x.sqlite"], [:]),
            (["washer", "add", "--name", "Ada"], [:]),
            (["washer", "add", "--database", "postgres://u:hunter2secret@127.0.0.1:1/db", "--name", "Ada"], [:]),
            (["washer", "token", "--database", "sqlite:\(dir)/x.sqlite", "--washer"], [:]),
            (["washer", "token", "--database", "sqlite:\(dir)/x.sqlite", "--whom", "x"], [:]),
        ]
        for (arguments, env) in cases {
            let (status, out, err) = try ServerProcess.run(arguments, environment: env)
            XCTAssertEqual(status, 2, "\(arguments)")
            XCTAssertEqual(out, "", "\(arguments)")
            XCTAssertEqual(err.split(separator: "\n").count, 1, "\(arguments): \(err)")
            XCTAssertTrue(err.hasPrefix("carfit-planner: "), err)
            XCTAssertFalse(err.contains("hunter2secret"), "the password stays out of errors")
        }
        let (unknown, _, _) = try ServerProcess.run(["washer", "token", "--database", "sqlite:\(dir)/y.sqlite", "--washer", "nobody"])
        XCTAssertEqual(unknown, 1)
    }

    func testServeWasherTokensAndGracefulStop() async throws {
        let dir = try temporaryDirectory()
        let database = "sqlite:\(dir)/planner.sqlite"
        let (status, out, _) = try ServerProcess.run(["washer", "add", "--database", database, "--name", "Ada"])
        XCTAssertEqual(status, 0)
        let added = try XCTUnwrap(JSON.parse(out))
        let token = try XCTUnwrap(added["token"]?.stringValue)
        XCTAssertGreaterThanOrEqual(token.count, 32)
        XCTAssertEqual(added["name"], "Ada")
        let washerId = try XCTUnwrap(added["washerId"]?.stringValue)
        // Only the token's hash is kept.
        let stored = try Data(contentsOf: URL(fileURLWithPath: "\(dir)/planner.sqlite"))
        XCTAssertNil(stored.range(of: Data(token.utf8)))

        let (server, line) = try ServerProcess.serve(["--database", database])
        defer { server.kill() }
        XCTAssertEqual(line, "listening on http://127.0.0.1:\(server.port)")
        XCTAssertTrue(FileManager.default.fileExists(atPath: "\(dir)/planner-files"), "files beside the database by default")
        let ok = try await Client.send(.GET, server.url + "/v1/visits", token: token)
        XCTAssertEqual(ok.status, 200)
        XCTAssertEqual(ok.json["data"], [])

        let (again, newOut, _) = try ServerProcess.run(["washer", "token", "--database", database, "--washer", washerId])
        XCTAssertEqual(again, 0)
        let newToken = try XCTUnwrap(JSON.parse(newOut)?["token"]?.stringValue)
        XCTAssertEqual(JSON.parse(newOut)?["washerId"], .string(washerId))
        try await assertEqual(await Client.send(.GET, server.url + "/v1/visits", token: token).status, 401, "the old token is revoked")
        try await assertEqual(await Client.send(.GET, server.url + "/v1/visits", token: newToken).status, 200)

        let started = Date()
        server.signal(SIGTERM)
        XCTAssertEqual(server.waitExit(seconds: 10), 0)
        XCTAssertLessThan(Date().timeIntervalSince(started), 10)
        let rest = String(decoding: server.stdout.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        XCTAssertEqual(rest, "", "one line only on standard output")
        do {
            _ = try await Client.send(.GET, server.url + "/v1/visits", token: newToken)
            XCTFail("a stopped server answered")
        } catch {}
    }

    /// Two processes on one database behave as one server: resends through either apply once,
    /// and pushes count without a gap.
    func twoProcesses(database: String, files: String) async throws {
        let (_, out, _) = try ServerProcess.run(["washer", "add", "--database", database, "--name", "Ada"])
        let added = try XCTUnwrap(JSON.parse(out))
        let token = try XCTUnwrap(added["token"]?.stringValue)
        let washerId = try XCTUnwrap(added["washerId"]?.stringValue)
        let (a, _) = try ServerProcess.serve(["--database", database, "--files", files])
        defer { a.kill() }
        let (b, _) = try ServerProcess.serve(["--database", database, "--files", files])
        defer { b.kill() }
        _ = try await Client.send(.POST, a.url + "/v1/devices", token: token, json: ["clientId": "phone", "platform": "fcm", "token": "t"])
        let now = Date().timeIntervalSince1970
        var record = try sampleRecords()[0]
        record["homeBobEmployeeId"] = .string(washerId)
        record["visitState"] = "ToDo"
        let starts = (0..<10).map { Instant.format(Int64(now * 1000) / 60_000 * 60_000 + Int64($0) * 3_600_000) }
        try await withThrowingTaskGroup(of: Void.self) { group in
            for (i, start) in starts.enumerated() {
                var r = record
                r["visitId"] = .string("v\(i)")
                r["startTimeUtc"] = .string(start)
                let server = i % 2 == 0 ? a : b
                group.addTask {
                    let created = try await Client.send(.POST, server.url + "/v1/planner/visits", token: adminToken, json: .object(r))
                    XCTAssertEqual(created.status, 201)
                }
            }
            try await group.waitForAll()
        }
        let mutations: JSON = .array(starts.enumerated().map { i, start in
            mutation("m\(i)", visit: "v\(i)", start: start, state: "InProgress", at: start)
        })
        let results = try await withThrowingTaskGroup(of: JSON.self) { group in
            for i in 0..<8 {
                let server = i % 2 == 0 ? a : b
                group.addTask {
                    try await Client.send(.POST, server.url + "/v1/visit-updates", token: token,
                                          json: ["clientId": "phone", "mutations": mutations]).json
                }
            }
            var all: [JSON] = []
            for try await r in group { all.append(r) }
            return all
        }
        for r in results {
            XCTAssertEqual(r["applied"]?.arrayValue?.count, 10, "\(r)")
            XCTAssertEqual(r["rejected"], [])
        }
        let snapshot = try await Client.send(.GET, b.url + "/v1/visits", token: token)
        XCTAssertEqual(snapshot.json["data"]?.arrayValue?.compactMap { $0["visitState"]?.stringValue },
                       Array(repeating: "InProgress", count: 10))
        let pushes = try await Client.send(.GET, a.url + "/v1/planner/pushes?washerId=\(washerId)", token: adminToken)
        XCTAssertEqual(pushes.json["pushes"]?.arrayValue?.compactMap { $0["seq"]?.intValue }.sorted(), Array(1...10))
    }

    func testTwoProcessesOnSQLite() async throws {
        let dir = try temporaryDirectory()
        try await twoProcesses(database: "sqlite:\(dir)/planner.sqlite", files: dir + "/files")
    }

    func testTwoProcessesOnPostgres() async throws {
        try XCTSkipUnless(PostgresCluster.available, "PostgreSQL 15 is not installed")
        let dir = try temporaryDirectory()
        try await twoProcesses(database: try PostgresCluster.shared.newDatabase(), files: dir)
    }
}
