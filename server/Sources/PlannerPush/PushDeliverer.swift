import AsyncHTTPClient
import Foundation
import NIOCore
import NIOSSL

/// How the delivery paces itself.
public struct PushDeliveryOptions: Sendable {
    /// Pushes claimed (and sent at once) per round; this bounds the requests in flight.
    public var batchSize: Int = 32
    /// How long a claim holds a push: another process takes it over once this has passed
    /// (after a kill -9). Longer than the two requests a push may take.
    public var leaseMillis: Int64 = 45_000
    /// The pause after a round that found nothing due.
    public var idleMillis: Int64 = 1_000
    /// The pause after the queue itself failed (the database was unreachable).
    public var queueFailureMillis: Int64 = 5_000
    /// Each request's time limit (the OAuth token request's and the push's).
    public var requestTimeoutMillis: Int64 = 15_000
    /// How long a new connection may take (TCP and TLS), failed attempts retried within it.
    public var connectTimeoutMillis: Int64 = 10_000

    public init() {}
}

/// Delivers the queue's pushes: claims due ones, sends them, records the outcome.
///
/// Each round claims up to `batchSize` due pushes (at most one per device, its lowest `seq`),
/// sends them concurrently and records each outcome before the next round, so a device's pushes
/// go out in `seq` order. A push is sent, retried later (network failure, 429, 5xx: 1 s doubling
/// to 5 minutes, ±20%, or the service's longer `Retry-After`), dropped (any other 4xx) or, for a
/// dead token, drops its device's queue.
public final class PushDeliverer: Sendable {
    let config: PushConfig
    let queue: any PushQueue
    let clock: PushClock
    let options: PushDeliveryOptions
    let jitter: @Sendable () -> Double
    let log: @Sendable (String) -> Void

    public convenience init(config: PushConfig, queue: any PushQueue) {
        self.init(config: config, queue: queue, clock: .system)
    }

    /// - Parameters:
    ///   - jitter: the backoff's factor, 0.8 … 1.2 (random by default).
    ///   - log: one line per failure and per dropped push (never a token or a key); standard error by default.
    public init(config: PushConfig, queue: any PushQueue, clock: PushClock,
                options: PushDeliveryOptions = PushDeliveryOptions(),
                jitter: @escaping @Sendable () -> Double = { Double.random(in: 0.8...1.2) },
                log: @escaping @Sendable (String) -> Void = { PushDeliverer.standardError($0) }) {
        self.config = config
        self.queue = queue
        self.clock = clock
        self.options = options
        self.jitter = jitter
        self.log = log
    }

    public static func standardError(_ line: String) {
        FileHandle.standardError.write(Data((line + "\n").utf8))
    }

    /// Runs until the calling task is cancelled.
    public func run() async {
        let transport = PushTransport(config: config, clock: clock, options: options)
        while !Task.isCancelled {
            let pause: Int64
            switch await deliverDue(transport) {
            case .success(let count): pause = count == 0 ? options.idleMillis : 0
            case .failure: pause = options.queueFailureMillis
            }
            if pause > 0 {
                do { try await clock.sleep(pause) } catch { break }
            }
        }
        await transport.shutdown()
    }

    /// One round: claims the due pushes, sends them and records the outcomes. The number claimed,
    /// or the queue's failure to claim.
    func deliverDue(_ transport: PushTransport) async -> Result<Int, any Error> {
        let platforms = transport.platforms
        guard !platforms.isEmpty else { return .success(0) }
        let pushes: [QueuedPush]
        do {
            pushes = try await queue.claimDue(platforms: platforms, now: clock.now(),
                                              limit: max(1, options.batchSize), leaseMillis: options.leaseMillis)
        } catch {
            log("push delivery: claiming due pushes failed: \(error)")
            return .failure(error)
        }
        await withTaskGroup(of: Void.self) { group in
            for push in pushes {
                group.addTask { await self.deliver(push, transport) }
            }
        }
        return .success(pushes.count)
    }

    func deliver(_ push: QueuedPush, _ transport: PushTransport) async {
        guard let outcome = await transport.send(push) else { return }
        // Stopped mid-request: the lease runs out and the push is taken again.
        if Task.isCancelled { return }
        let attempts = push.attempts < Int.max ? push.attempts + 1 : Int.max
        do {
            switch outcome {
            case .sent:
                try await queue.markSent(id: push.id, attempts: attempts)
            case .retry(let error, let retryAfter):
                let delay = RetryPolicy.delayMillis(attempts: attempts, jitter: jitter(), retryAfterMillis: retryAfter)
                try await queue.markRetry(id: push.id, attempts: attempts, notBefore: clock.now() + delay, lastError: error)
                log("push \(push.id) (\(push.platform)): \(error); retried in \(delay) ms")
            case .deadToken(let error):
                try await queue.dropDevice(pushId: push.id, attempts: attempts, lastError: error)
                log("push \(push.id) (\(push.platform)): \(error); the device is unregistered")
            case .refused(let error):
                try await queue.markDropped(id: push.id, attempts: attempts, lastError: error)
                log("push \(push.id) (\(push.platform)): \(error); dropped")
            }
        } catch {
            // The lease runs out and the push is sent again: at least once.
            log("push \(push.id): recording the outcome failed: \(error)")
        }
    }
}

/// The HTTP clients of the configured services; shut down when delivery stops.
final class PushTransport: Sendable {
    let fcm: FCMSender?
    let apns: APNsSender?
    private let clients: [HTTPClient]

    init(config: PushConfig, clock: PushClock, options: PushDeliveryOptions) {
        let timeout = TimeAmount.milliseconds(max(1, options.requestTimeoutMillis))
        var clients: [HTTPClient] = []
        func client(trust: [NIOSSLCertificate]) -> HTTPClient {
            var configuration = HTTPClient.Configuration()
            var tls = TLSConfiguration.makeClientConfiguration()
            if !trust.isEmpty { tls.additionalTrustRoots = [.certificates(trust)] }
            configuration.tlsConfiguration = tls
            configuration.redirectConfiguration = .disallow
            configuration.timeout = .init(connect: .milliseconds(max(1, options.connectTimeoutMillis)), read: timeout)
            configuration.httpVersion = .automatic
            let made = HTTPClient(eventLoopGroup: HTTPClient.defaultEventLoopGroup, configuration: configuration)
            clients.append(made)
            return made
        }
        fcm = config.fcm.map { FCMSender(config: $0, client: client(trust: []), clock: clock, timeout: timeout) }
        apns = config.apns.map { APNsSender(config: $0, client: client(trust: $0.extraTrustRoots), clock: clock, timeout: timeout) }
        self.clients = clients
    }

    var platforms: Set<String> {
        var set = Set<String>()
        if fcm != nil { set.insert("fcm") }
        if apns != nil { set.insert("apns") }
        return set
    }

    /// The outcome of one request for the push; nil when its service is not configured.
    func send(_ push: QueuedPush) async -> PushOutcome? {
        switch push.platform {
        case "fcm": return await fcm?.send(push)
        case "apns": return await apns?.send(push)
        default: return nil
        }
    }

    func shutdown() async {
        for client in clients {
            try? await client.shutdown()
        }
    }
}
