import Crypto
import Foundation
import Hummingbird
import Logging
import PlannerPush
import ServiceLifecycle

/// `carfit-planner serve | washer add | washer token`: each prints a one-line error to standard
/// error and exits 2 on a bad flag or a database it cannot open.
public enum PlannerCommand {
    public static let usage = """
        usage: carfit-planner serve [--database URL] [--host H] [--port N] [--files DIR] [--push-config FILE]
               carfit-planner washer add --database URL --name NAME
               carfit-planner washer token --database URL --washer ID
        """

    struct Failure: Error {
        var message: String
        var code: Int32 = 2
    }

    /// Runs the command; its exit status.
    public static func main(_ arguments: [String]) async -> Int32 {
        do {
            let first = arguments.first ?? ""
            let second = arguments.count > 1 ? arguments[1] : ""
            if first == "serve" {
                try await serve(Array(arguments.dropFirst()))
            } else if first == "washer" && second == "add" {
                try await washerAdd(Array(arguments.dropFirst(2)))
            } else if first == "washer" && second == "token" {
                try await washerToken(Array(arguments.dropFirst(2)))
            } else {
                throw Failure(message: "unknown command (serve, washer add, washer token)")
            }
            return 0
        } catch let failure as Failure {
            FileHandle.standardError.write(Data("carfit-planner: \(failure.message)\n".utf8))
            return failure.code
        } catch {
            FileHandle.standardError.write(Data("carfit-planner: \(DatabaseURL.safe(error))\n".utf8))
            return 1
        }
    }

    /// `--name value` pairs; a flag not in `known`, a flag without a value or a repeated one fails.
    static func flags(_ arguments: [String], known: Set<String>) throws -> [String: String] {
        var out: [String: String] = [:]
        var i = 0
        while i < arguments.count {
            let flag = arguments[i]
            guard flag.hasPrefix("--"), known.contains(String(flag.dropFirst(2))) else {
                throw Failure(message: "unknown flag \(flag.prefix(60)) (\(known.sorted().map { "--" + $0 }.joined(separator: ", ")))")
            }
            guard i + 1 < arguments.count else { throw Failure(message: "\(flag) needs a value") }
            guard out[String(flag.dropFirst(2))] == nil else { throw Failure(message: "\(flag) is given twice") }
            out[String(flag.dropFirst(2))] = arguments[i + 1]
            i += 2
        }
        return out
    }

    static func database(_ text: String?) throws -> DatabaseURL {
        guard let text else { throw Failure(message: "--database URL is needed (sqlite:PATH or postgres://user:password@host:port/name)") }
        guard let url = DatabaseURL(text) else {
            throw Failure(message: "--database must be sqlite:PATH or postgres://user:password@host:port/name")
        }
        return url
    }

    static func open(_ url: DatabaseURL) async throws -> SQLPlannerStore {
        do {
            return try await url.open(logger: quietLogger)
        } catch {
            throw Failure(message: DatabaseURL.safe(error))
        }
    }

    static var quietLogger: Logger {
        var logger = Logger(label: "carfit-planner")
        logger.logLevel = .warning
        return logger
    }

    /// A new bearer token: 32 random bytes, base64url (43 characters).
    static func newToken() -> String {
        var generator = SystemRandomNumberGenerator()
        let bytes = (0..<32).map { _ in UInt8.random(in: 0...255, using: &generator) }
        return Data(bytes).base64EncodedString().replacingOccurrences(of: "+", with: "-")
            .replacingOccurrences(of: "/", with: "_").replacingOccurrences(of: "=", with: "")
    }

    static func printWasher(_ washer: Washer, token: String) {
        let line = JSON.object(["washerId": .string(washer.id), "name": .string(washer.name), "token": .string(token)]).text
        FileHandle.standardOutput.write(Data((line + "\n").utf8))
    }

    static func washerAdd(_ arguments: [String]) async throws {
        let f = try flags(arguments, known: ["database", "name"])
        let url = try database(f["database"])
        guard let name = f["name"]?.trimmingCharacters(in: .whitespacesAndNewlines), !name.isEmpty, name.count <= 200 else {
            throw Failure(message: "--name NAME is needed (1 to 200 characters)")
        }
        let store = try await open(url)
        defer { Task { await store.close() } }
        let token = newToken()
        let washer = try await store.addWasher(id: UUID().uuidString.lowercased(), name: name,
                                               tokenHash: PlannerResponder.hash(token), now: Int64(Date().timeIntervalSince1970 * 1000))
        printWasher(washer, token: token)
        await store.close()
    }

    static func washerToken(_ arguments: [String]) async throws {
        let f = try flags(arguments, known: ["database", "washer"])
        let url = try database(f["database"])
        guard let id = f["washer"], !id.isEmpty else { throw Failure(message: "--washer ID is needed") }
        let store = try await open(url)
        let token = newToken()
        let washer = try await store.replaceToken(washerId: id, tokenHash: PlannerResponder.hash(token))
        await store.close()
        guard let washer else { throw Failure(message: "no washer \(id.prefix(100))", code: 1) }
        printWasher(washer, token: token)
    }

    static func serve(_ arguments: [String]) async throws {
        let f = try flags(arguments, known: ["database", "host", "port", "files", "push-config"])
        let url = try database(f["database"] ?? "sqlite:planner.sqlite")
        let host = f["host"] ?? "127.0.0.1"
        guard let port = Int(f["port"] ?? "8090"), (0...65_535).contains(port) else {
            throw Failure(message: "--port must be a number from 0 to 65535")
        }
        guard let files = f["files"] ?? url.defaultFiles else {
            throw Failure(message: "--files DIR is needed with PostgreSQL (where attachments are kept, shared by every server)")
        }
        guard let admin = ProcessInfo.processInfo.environment["CARFIT_PLANNER_ADMIN_TOKEN"], admin.count >= 32 else {
            throw Failure(message: "CARFIT_PLANNER_ADMIN_TOKEN must hold the planner's token (at least 32 characters)")
        }
        guard admin.utf8.allSatisfy({ $0 >= 0x21 && $0 <= 0x7E }) else {
            throw Failure(message: "CARFIT_PLANNER_ADMIN_TOKEN must be printable ASCII without spaces")
        }
        var pushConfig: PushConfig?
        if let path = f["push-config"] {
            do {
                pushConfig = try PushConfig.load(path: path)
            } catch {
                throw Failure(message: "--push-config: \(error)")
            }
        }
        do {
            try FileManager.default.createDirectory(atPath: files, withIntermediateDirectories: true)
        } catch {
            throw Failure(message: "cannot make the files directory \(files)")
        }
        removeLeftovers(in: files)
        let store = try await open(url)
        let options = PlannerOptions(adminToken: admin, filesDirectory: files)
        let logger = quietLogger
        let app = Application(
            responder: PlannerResponder(store: store, options: options),
            configuration: .init(address: .hostname(host, port: port), serverName: nil),
            onServerRunning: { channel in
                let bound = channel.localAddress?.port ?? port
                FileHandle.standardOutput.write(Data("listening on http://\(host):\(bound)\n".utf8))
            },
            logger: logger)
        var services: [any Service] = []
        if let pushConfig {
            services.append(DeliveryService(deliverer: PushDeliverer(config: pushConfig, queue: store)))
        }
        services.append(app)
        var config = ServiceGroupConfiguration(services: services, gracefulShutdownSignals: [.sigterm, .sigint], logger: logger)
        config.maximumGracefulShutdownDuration = .seconds(8)
        config.maximumCancellationDuration = .seconds(1)
        do {
            try await ServiceGroup(configuration: config).run()
        } catch {
            await store.close()
            throw Failure(message: "the server stopped: \(DatabaseURL.safe(error))", code: 1)
        }
        await store.close()
    }

    /// Temporary upload files a killed process left behind.
    static func removeLeftovers(in directory: String) {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? []
        for name in names where name.hasPrefix(".upload-") {
            try? FileManager.default.removeItem(atPath: (directory as NSString).appendingPathComponent(name))
        }
    }
}

/// The push delivery as a service beside the HTTP server: it stops when the server shuts down.
struct DeliveryService: Service {
    let deliverer: PushDeliverer

    func run() async throws {
        await cancelWhenGracefulShutdown {
            await deliverer.run()
        }
    }
}
