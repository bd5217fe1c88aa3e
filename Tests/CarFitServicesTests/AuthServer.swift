import CarFitHTTP
import CarFitIO
import CarFitCore
import Foundation
import XCTest

/// The loopback planner of `Tests/servers/auth_server.py`: two origins (ports) that record the
/// `Authorization` header of every request, started once per test process as a child with its
/// standard input on a pipe (it stops when this process ends).
final class AuthServer: @unchecked Sendable {
    static let root: URL = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent()

    static let shared: Result<AuthServer, ServerError> = {
        do {
            return .success(try AuthServer())
        } catch let error as ServerError {
            return .failure(error)
        } catch {
            return .failure(ServerError(description: "the auth server could not start: \(error)"))
        }
    }()

    struct ServerError: Error, CustomStringConvertible { var description: String }

    /// One request as the server saw it.
    struct Seen: Equatable {
        var port: Int
        var method: String
        var path: String
        var authorization: String?
    }

    let ports: [Int]
    private let process: Process
    private let input: Pipe
    private let client = CurlClient(limits: HTTPLimits(timeoutMs: 5000, totalTimeoutMs: 10_000))

    private init() throws {
        process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", AuthServer.root.appendingPathComponent("Tests/servers/auth_server.py").path,
                             "--watch-stdin"]
        input = Pipe()
        let output = Pipe()
        process.standardInput = input
        process.standardOutput = output
        try process.run()
        var line: [UInt8] = []
        let reader = output.fileHandleForReading
        while line.last != 0x0A {
            guard let value = reader.readData(ofLength: 1).first else { break }
            line.append(value)
        }
        let ports = String(decoding: line, as: UTF8.self).split(separator: " ")
            .compactMap { Int($0.trimmingCharacters(in: .whitespacesAndNewlines)) }
        guard ports.count == 2 else {
            process.terminate()
            throw ServerError(description: "the auth server did not print its ports")
        }
        self.ports = ports
    }

    static func get() throws -> AuthServer {
        switch shared {
        case .success(let server): return server
        case .failure(let error): throw error
        }
    }

    /// A URL on origin 0 (the planner's) or 1 (another).
    func url(_ origin: Int, _ path: String) -> String { "http://127.0.0.1:\(ports[origin])\(path)" }

    /// Forgets the recorded requests and sets the token `/token/` paths want.
    func reset(token: String? = nil) throws {
        let body = JSON.obj(["clear": true, "token": token.map(JSON.string) ?? .null]).encodedBytes()
        _ = try client.fetch(.postJSON(url(0, "/_control"), body: body))
    }

    /// The requests recorded since the last `reset`, oldest first.
    func requests() throws -> [Seen] {
        let answer = try client.fetch(.get(url(0, "/_requests")))
        guard case .success(let json) = JanssonParser.parse(bytes: answer.body),
              case .array(let list)? = json.objectValue?["requests"] else { throw ServerError(description: "bad /_requests") }
        return list.compactMap { item in
            guard let o = item.objectValue, case .int(let port)? = o["port"], case .string(let method)? = o["method"],
                  case .string(let path)? = o["path"] else { return nil }
            var authorization: String?
            if case .string(let value)? = o["authorization"] { authorization = value }
            return Seen(port: Int(port), method: method, path: path, authorization: authorization)
        }
    }
}
