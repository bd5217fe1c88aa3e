import CarFitKit
import Foundation
import Testing

/// The repository's example data (examples/data), read where it is: the visits document
/// (`carfit.json`), the catalog, transactions, articles and patterns.
let resources = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    .appendingPathComponent("../../../../examples/data").standardizedFileURL

/// The example day: 2020-09-10 in Copenhagen, 24h, by a fixed clock.
func dayConfig(database: String = ":memory:", sources: [String: String] = [:]) -> String {
    var config: [String: Any] = ["now": "2020-09-10T07:00:00Z", "timeZone": "Europe/Copenhagen", "hour24": true,
                                 "database": database]
    if !sources.isEmpty { config["sources"] = sources }
    let data = (try? JSONSerialization.data(withJSONObject: config)) ?? Data("{}".utf8)
    return String(decoding: data, as: UTF8.self)
}

func resource<T: Decodable>(_ name: String, as type: T.Type) throws -> T {
    try JSONDecoder().decode(type, from: Data(contentsOf: resources.appendingPathComponent(name)))
}

/// A new empty directory under the system's temporary directory.
func temporaryDirectory() throws -> URL {
    let url = FileManager.default.temporaryDirectory.appendingPathComponent("carfitkit-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    return url
}

/// A 1×1 PNG image.
let pngBytes = Data(base64Encoded:
    "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==") ?? Data()

/// python3's http.server on a loopback port, serving a directory with the visits file (and an image).
final class FileServer {
    let process = Process()
    let directory: URL
    private(set) var port = 0

    init() throws {
        directory = try temporaryDirectory()
        try FileManager.default.copyItem(at: resources.appendingPathComponent("carfit.json"),
                                         to: directory.appendingPathComponent("visits.json"))
        try pngBytes.write(to: directory.appendingPathComponent("dot.png"))
        let pipe = Pipe()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", "-u", "-m", "http.server", "0", "--bind", "127.0.0.1",
                             "--directory", directory.path]
        process.standardOutput = pipe
        process.standardError = FileHandle.nullDevice
        try process.run()
        // "Serving HTTP on 127.0.0.1 port 40123 (http://127.0.0.1:40123/) ..."
        var text = ""
        let handle = pipe.fileHandleForReading
        while port == 0 {
            let chunk = handle.availableData
            if chunk.isEmpty { break }
            text += String(decoding: chunk, as: UTF8.self)
            if let range = text.range(of: #"port (\d+)"#, options: .regularExpression),
               let value = Int(text[range].dropFirst(5)) {
                port = value
            }
        }
        if port == 0 {
            process.terminate()
            throw CarFitError(status: .unavailable, message: "the test server did not start: \(text)")
        }
    }

    func url(_ name: String) -> String { "http://127.0.0.1:\(port)/\(name)" }

    deinit {
        // SIGKILL: Foundation's terminate() and waitUntilExit() can leave the server running here.
        if process.isRunning { kill(process.processIdentifier, SIGKILL) }
        try? FileManager.default.removeItem(at: directory)
    }
}

/// A loopback port nothing listens on (bound, then closed).
func refusedPort() -> Int {
    let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    defer { close(fd) }
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_addr.s_addr = inet_addr("127.0.0.1")
    address.sin_port = 0
    var length = socklen_t(MemoryLayout<sockaddr_in>.size)
    _ = withUnsafeMutablePointer(to: &address) {
        $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { pointer in
            bind(fd, pointer, length)
            return getsockname(fd, pointer, &length)
        }
    }
    return Int(UInt16(bigEndian: address.sin_port))
}

/// Waits (up to `seconds`) until `condition` holds.
@MainActor
func eventually(_ seconds: Double = 5, _ condition: @MainActor () -> Bool) async -> Bool {
    let end = Date().addingTimeInterval(seconds)
    while Date() < end {
        if condition() { return true }
        try? await Task.sleep(nanoseconds: 20_000_000)
    }
    return condition()
}

/// The error a call threw, or nil when it succeeded.
func failure<T>(_ work: () async throws -> T) async -> CarFitError? {
    do {
        _ = try await work()
        return nil
    } catch let error as CarFitError {
        return error
    } catch {
        Issue.record("not a CarFitError: \(error)")
        return nil
    }
}
