/// Where pushes go: `serve --push-config FILE`, a JSON document
/// `{"fcm": {"serviceAccountFile", "baseUrl"?}, "apns": {"keyFile", "keyId", "teamId", "bundleId", "baseUrl"?, "caFile"?}}`;
/// either service may be absent (its pushes stay queued).
public struct PushConfig: Sendable {
    public init() {}

    /// Reads and checks the file; a missing file or a bad member throws `PushConfigError`.
    public static func load(path: String) throws -> PushConfig {
        PushConfig()
    }

    /// The platforms this configuration can deliver to (`"fcm"`, `"apns"`).
    public var platforms: Set<String> { [] }
}

public struct PushConfigError: Error, CustomStringConvertible {
    public var description: String
    public init(_ description: String) { self.description = description }
}

/// Delivers the queue's pushes: claims due ones, sends them, records the outcome.
public final class PushDeliverer: Sendable {
    public init(config: PushConfig, queue: any PushQueue) {}

    /// Runs until the calling task is cancelled.
    public func run() async {}
}
