import AsyncHTTPClient
import Foundation
import NIOCore
import NIOHTTP1
#if canImport(Glibc)
import Glibc
#endif
import XCTest
@testable import PlannerServer

/// The built `carfit-planner` executable run as a child process.
final class ServerProcess: @unchecked Sendable {
    static let binary = repositoryRoot.appendingPathComponent("server/.build/debug/carfit-planner").path

    static var available: Bool { FileManager.default.isExecutableFile(atPath: binary) }

    let process = Process()
    let stdout = Pipe()
    let stderr = Pipe()
    private(set) var port = 0

    /// Runs the command to its end; (exit status, standard output, standard error).
    static func run(_ arguments: [String], environment: [String: String] = [:]) throws -> (Int32, String, String) {
        let p = ServerProcess(arguments, environment: environment)
        try p.process.run()
        let out = p.stdout.fileHandleForReading.readDataToEndOfFile()
        let err = p.stderr.fileHandleForReading.readDataToEndOfFile()
        p.process.waitUntilExit()
        return (p.process.terminationStatus, String(decoding: out, as: UTF8.self), String(decoding: err, as: UTF8.self))
    }

    init(_ arguments: [String], environment: [String: String] = [:]) {
        process.executableURL = URL(fileURLWithPath: Self.binary)
        process.arguments = arguments
        var env = ProcessInfo.processInfo.environment
        env["CARFIT_PLANNER_ADMIN_TOKEN"] = nil
        for (k, v) in environment { env[k] = v }
        process.environment = env
        process.standardOutput = stdout
        process.standardError = stderr
    }

    /// Starts `serve` and waits for its one line; the line.
    static func serve(_ arguments: [String], admin: String = adminToken) throws -> (ServerProcess, String) {
        let p = ServerProcess(["serve", "--port", "0"] + arguments, environment: ["CARFIT_PLANNER_ADMIN_TOKEN": admin])
        try p.process.run()
        var line = Data()
        let handle = p.stdout.fileHandleForReading
        let deadline = Date().addingTimeInterval(30)
        while Date() < deadline {
            let byte = handle.readData(ofLength: 1)
            if byte.isEmpty || byte == Data("\n".utf8) { break }
            line.append(byte)
        }
        let text = String(decoding: line, as: UTF8.self)
        guard let port = text.split(separator: ":").last.flatMap({ Int($0) }) else {
            p.kill()
            throw StoreError("serve did not start: \(text) \(String(decoding: p.stderr.fileHandleForReading.availableData, as: UTF8.self))")
        }
        p.port = port
        return (p, text)
    }

    var url: String { "http://127.0.0.1:\(port)" }

    func signal(_ signal: Int32) { _ = Glibc.kill(process.processIdentifier, signal) }

    func kill() {
        if process.isRunning { signal(SIGKILL) }
        process.waitUntilExit()
    }

    /// Waits up to `seconds` for the process to end; its status, or nil if it still runs.
    func waitExit(seconds: Double) -> Int32? {
        let deadline = Date().addingTimeInterval(seconds)
        while process.isRunning && Date() < deadline { usleep(20_000) }
        return process.isRunning ? nil : process.terminationStatus
    }
}

/// A small HTTP client for the tests against a running server.
struct Client {
    static let http = HTTPClient(eventLoopGroupProvider: .singleton)

    static func send(_ method: HTTPMethod, _ url: String, token: String?, json: JSON? = nil,
                     headers: [(String, String)] = []) async throws -> (status: Int, json: JSON, headers: HTTPHeaders) {
        var request = HTTPClientRequest(url: url)
        request.method = method
        if let token { request.headers.add(name: "Authorization", value: "Bearer \(token)") }
        for (k, v) in headers { request.headers.add(name: k, value: v) }
        if let json {
            request.headers.add(name: "Content-Type", value: "application/json")
            request.body = .bytes(ByteBuffer(string: json.text))
        }
        let response = try await http.execute(request, timeout: .seconds(30))
        let body = try await response.body.collect(upTo: 16 << 20)
        return (Int(response.status.code), JSON.parse(body.readableBytesView) ?? .null, response.headers)
    }
}
