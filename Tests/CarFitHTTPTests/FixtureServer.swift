import Foundation
import XCTest

/// The loopback fixture server (`Tests/servers/http_fixture.py`), started once per test process
/// as a child with its standard input on a pipe: when this process ends, the pipe closes and
/// the server stops by itself.
final class FixtureServer: @unchecked Sendable {
    /// The repository's root, found from this file's path.
    static let root: URL = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent()

    static let shared: Result<FixtureServer, FixtureError> = {
        do {
            return .success(try FixtureServer())
        } catch let error as FixtureError {
            return .failure(error)
        } catch {
            return .failure(FixtureError(description: "the fixture server could not start: \(error)"))
        }
    }()

    struct FixtureError: Error, CustomStringConvertible { var description: String }

    let port: Int
    private let process: Process
    private let input: Pipe

    private init() throws {
        let script = FixtureServer.root.appendingPathComponent("Tests/servers/http_fixture.py").path
        process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", script, "--port", "0", "--watch-stdin", "--idle", "300",
                             "--max-endless", String(1 << 30)]
        input = Pipe()
        let output = Pipe()
        process.standardInput = input
        process.standardOutput = output
        try process.run()
        // The first line of its output is the port.
        var line: [UInt8] = []
        let reader = output.fileHandleForReading
        while line.last != 0x0A {
            let byte = reader.readData(ofLength: 1)
            guard let value = byte.first else { break }
            line.append(value)
        }
        guard let port = Int(String(decoding: line, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)) else {
            process.terminate()
            throw FixtureError(description: "the fixture server did not print its port")
        }
        self.port = port
    }

    /// The server for a test, or a skip-free failure saying why there is none.
    static func get() throws -> FixtureServer {
        switch shared {
        case .success(let server): return server
        case .failure(let error): throw error
        }
    }

    func url(_ path: String) -> String { "http://127.0.0.1:\(port)\(path)" }

    /// The bytes of a sample file as the server serves them.
    static func sample(_ name: String) throws -> [UInt8] {
        [UInt8](try Data(contentsOf: root.appendingPathComponent("examples/data/\(name)")))
    }
}

/// Peak resident memory of this process, from /proc/self/status, and its reset.
enum PeakMemory {
    /// VmHWM in bytes, or nil when it cannot be read.
    static func current() -> Int? {
        guard let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8) else { return nil }
        for line in status.split(separator: "\n") where line.hasPrefix("VmHWM:") {
            let digits = line.filter(\.isNumber)
            return Int(digits).map { $0 * 1024 }
        }
        return nil
    }

    /// Sets the peak back to the present resident size ("5" to /proc/self/clear_refs); false
    /// when the kernel does not allow it.
    static func reset() -> Bool {
        guard let handle = FileHandle(forWritingAtPath: "/proc/self/clear_refs") else { return false }
        defer { try? handle.close() }
        do {
            try handle.write(contentsOf: Data("5".utf8))
            return true
        } catch {
            return false
        }
    }
}
