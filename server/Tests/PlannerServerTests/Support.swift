import Foundation
import Hummingbird
import HummingbirdTesting
import Logging
import XCTest
@testable import PlannerServer

/// A clock the tests move.
final class TestClock: @unchecked Sendable {
    private let lock = NSLock()
    private var value: Int64
    init(_ iso: String) { value = Instant.parse(iso) ?? 0 }
    var now: Int64 {
        get { lock.withLock { value } }
        set { lock.withLock { value = newValue } }
    }
}

/// A temporary directory removed at the end of the test.
func temporaryDirectory() throws -> String {
    let path = NSTemporaryDirectory() + "planner-test-" + UUID().uuidString
    try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    return path
}

/// The repository's root (for the sample data).
let repositoryRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent().deletingLastPathComponent()

/// The sample's records (`examples/data/carfit.json`).
func sampleRecords() throws -> [[String: JSON]] {
    let data = try Data(contentsOf: repositoryRoot.appendingPathComponent("examples/data/carfit.json"))
    let records = JSON.parse(Array(data))?["data"]?.arrayValue ?? []
    return records.compactMap(\.objectValue)
}

enum Backend: String, CaseIterable {
    case sqlite
    case postgres
}

/// A fresh store on a backend: SQLite in a temporary file, or a new database of the test
/// cluster (`PostgresCluster`).
func makeStore(_ backend: Backend) async throws -> SQLPlannerStore {
    switch backend {
    case .sqlite:
        let dir = try temporaryDirectory()
        return try await DatabaseURL.sqlite(path: dir + "/planner.sqlite").open()
    case .postgres:
        let url = try PostgresCluster.shared.newDatabase()
        return try await DatabaseURL.postgres(url: url).open(logger: PlannerCommand.quietLogger)
    }
}

/// The planner's token the tests use.
let adminToken = "planner-admin-token-0123456789abcdefghijkl"

/// A server in process: a store, a clock, a files directory and the API over them.
struct Harness {
    let store: SQLPlannerStore
    let clock: TestClock
    let files: String

    static func make(_ backend: Backend = .sqlite, now: String = "2026-03-02T08:00:00Z") async throws -> Harness {
        Harness(store: try await makeStore(backend), clock: TestClock(now), files: try temporaryDirectory())
    }

    var app: some ApplicationProtocol {
        let clock = clock
        var options = PlannerOptions(adminToken: adminToken, filesDirectory: files, clock: { clock.now })
        options.maxUploadBytes = 64 << 20
        var logger = Logger(label: "test")
        logger.logLevel = .critical
        return Application(responder: PlannerResponder(store: store, options: options), logger: logger)
    }

    /// A washer and their token.
    func washer(_ name: String = "Ada") async throws -> (Washer, String) {
        let token = PlannerCommand.newToken()
        let washer = try await store.addWasher(id: UUID().uuidString.lowercased(), name: name,
                                               tokenHash: PlannerResponder.hash(token), now: clock.now)
        return (washer, token)
    }

    /// A visit of the sample given to `washer` at `start`.
    func visit(_ visitId: String, washer: Washer, start: String, index: Int = 0) async throws -> VisitRow {
        var record = try sampleRecords()[index]
        for key in PlannerResponder.keyMembers { record[key] = nil }
        let row = VisitRow(visitId: visitId, startMs: Instant.parse(start) ?? 0, washerId: washer.id, record: record, state: .todo)
        let now = clock.now
        return try await store.createVisit(row, now: now, window: (now - 7 * 86_400_000)...(now + 35 * 86_400_000))
    }
}

func auth(_ token: String, _ more: HTTPFields = [:]) -> HTTPFields {
    var fields = more
    fields[.authorization] = "Bearer \(token)"
    return fields
}

func jsonHeaders(_ token: String) -> HTTPFields {
    auth(token, [.contentType: "application/json"])
}

func body(_ value: JSON) -> ByteBuffer { ByteBuffer(string: value.text) }
func body(_ text: String) -> ByteBuffer { ByteBuffer(string: text) }

extension TestResponse {
    var json: JSON { JSON.parse(body.readableBytesView) ?? .null }
    var text: String { String(buffer: body) }
}

/// Shorthand for building request documents.
func obj(_ members: [String: JSON]) -> JSON { .object(members) }

func mutation(_ id: String, visit: String?, start: String, state: String, at: String,
              timeUsed: Int64? = nil, reason: String? = nil) -> JSON {
    obj(["mutationId": .string(id), "visitId": .str(visit), "startTimeUtc": .string(start), "state": .string(state),
         "at": .string(at), "timeUsedMinutes": .num(timeUsed), "reason": .str(reason)])
}

/// A throwaway PostgreSQL 15 cluster for the test process: made in a temporary directory owned
/// by the `postgres` user (when run as root), started on a free port, stopped when the process
/// exits. Each test gets a database of its own.
final class PostgresCluster: @unchecked Sendable {
    static let shared = PostgresCluster()
    static let bin = "/usr/lib/postgresql/15/bin"

    private let lock = NSLock()
    private var started: (dir: String, port: Int)?
    private var failure: String?

    /// Whether the cluster can run here (PostgreSQL 15 installed).
    static var available: Bool { FileManager.default.isExecutableFile(atPath: bin + "/initdb") }

    /// Runs a command to its end (posix_spawn and waitpid, its output through a temporary
    /// file: a server it starts may keep the output open); its output.
    @discardableResult
    static func run(_ arguments: [String], asPostgres: Bool) throws -> String {
        let argv = (asPostgres && getuid() == 0 ? ["/usr/sbin/runuser", "-u", "postgres", "--"] : []) + arguments
        let log = NSTemporaryDirectory() + "planner-cmd-" + UUID().uuidString
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, log, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        posix_spawn_file_actions_adddup2(&actions, 1, 2)
        var cArgs = argv.map { strdup($0) } + [nil]
        defer { for p in cArgs { free(p) } }
        var pid: pid_t = 0
        let rc = posix_spawn(&pid, argv[0], &actions, nil, &cArgs, environ)
        guard rc == 0 else { throw StoreError("cannot run \(argv[0]): errno \(rc)") }
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
        let output = (try? String(contentsOfFile: log, encoding: .utf8)) ?? ""
        try? FileManager.default.removeItem(atPath: log)
        // Exited normally with status 0.
        guard status & 0x7F == 0, (status >> 8) & 0xFF == 0 else {
            throw StoreError("\(arguments.first ?? "") failed: \(output.suffix(400))")
        }
        return output
    }

    static func freePort() -> Int {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(fd) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = 0
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafePointer(to: &address) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, length) } }
        _ = withUnsafeMutablePointer(to: &address) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) } }
        return Int(UInt16(bigEndian: address.sin_port))
    }

    /// Starts the cluster once; its directory and port.
    func start() throws -> (dir: String, port: Int) {
        try lock.withLock {
            if let started { return started }
            if let failure { throw StoreError(failure) }
            do {
                guard Self.available else { throw StoreError("PostgreSQL 15 is not installed (apt-get install -y postgresql)") }
                let dir = "/tmp/planner-pg-" + UUID().uuidString.prefix(8)
                try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
                if getuid() == 0 { try Self.run(["/bin/chown", "postgres:postgres", dir], asPostgres: false) }
                try Self.run([Self.bin + "/initdb", "-D", dir + "/data", "-U", "postgres", "-A", "trust", "--no-sync"], asPostgres: true)
                let port = Self.freePort()
                try Self.run([Self.bin + "/pg_ctl", "-D", dir + "/data", "-l", dir + "/log", "-w", "-o",
                              "-p \(port) -k \(dir) -c listen_addresses=127.0.0.1 -c fsync=off -c max_connections=200", "start"],
                             asPostgres: true)
                started = (dir, port)
                PostgresCluster.stopAtExit = (dir, port)
                atexit {
                    if let (dir, _) = PostgresCluster.stopAtExit {
                        _ = try? PostgresCluster.run([PostgresCluster.bin + "/pg_ctl", "-D", dir + "/data", "-m", "immediate", "stop"],
                                                     asPostgres: true)
                        try? FileManager.default.removeItem(atPath: dir)
                    }
                }
                return (dir, port)
            } catch {
                failure = "\(error)"
                throw error
            }
        }
    }

    nonisolated(unsafe) static var stopAtExit: (String, Int)?

    /// A new empty database; its URL.
    func newDatabase() throws -> String {
        let (dir, port) = try start()
        let name = "planner_" + UUID().uuidString.replacingOccurrences(of: "-", with: "").prefix(12).lowercased()
        try Self.run(["/usr/bin/psql", "-h", dir, "-p", "\(port)", "-U", "postgres", "-d", "postgres", "-q",
                      "-c", "CREATE DATABASE \(name)"], asPostgres: false)
        return "postgres://postgres:secret@127.0.0.1:\(port)/\(name)"
    }
}

/// `XCTAssertEqual` of an awaited value.
func assertEqual<T: Equatable>(_ a: @autoclosure () async throws -> T, _ b: @autoclosure () throws -> T, _ message: String = "",
                               file: StaticString = #filePath, line: UInt = #line) async throws {
    let x = try await a()
    let y = try b()
    XCTAssertEqual(x, y, message, file: file, line: line)
}

/// `XCTAssertNil` of an awaited value.
func assertNil<T>(_ a: @autoclosure () async throws -> T?, _ message: String = "",
                  file: StaticString = #filePath, line: UInt = #line) async throws {
    let x = try await a()
    XCTAssertNil(x, message, file: file, line: line)
}
