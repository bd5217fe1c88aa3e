/// A push waiting in the store's queue, as the delivery worker sees it.
public struct QueuedPush: Sendable, Equatable {
    /// The push's UUID (the payload's `id`).
    public var id: String
    /// The device's clientId.
    public var clientId: String
    public var washerId: String
    /// `"fcm"` or `"apns"`.
    public var platform: String
    /// The device token the push goes to.
    public var deviceToken: String
    /// 1, 2, 3 … per device.
    public var seq: Int64
    /// Requests made for it so far (failures included).
    public var attempts: Int

    public init(id: String, clientId: String, washerId: String, platform: String,
                deviceToken: String, seq: Int64, attempts: Int) {
        self.id = id
        self.clientId = clientId
        self.washerId = washerId
        self.platform = platform
        self.deviceToken = deviceToken
        self.seq = seq
        self.attempts = attempts
    }

    /// The payload's `carfit` member as compact JSON text.
    public var carfitJSON: String {
        "{\"v\":1,\"id\":\"\(id)\",\"kind\":\"visits\",\"seq\":\(seq)}"
    }
}

/// The store's side of push delivery. Every method is one transaction; no state that
/// correctness depends on lives in the delivering process.
public protocol PushQueue: Sendable {
    /// Leases up to `limit` due pushes of the given platforms until `now + leaseMillis`: for each
    /// device only its lowest queued `seq` (in order per device), and only one whose `notBefore`
    /// (and lease) has passed. A lease that a killed process held expires, so another takes it.
    func claimDue(platforms: Set<String>, now: Int64, limit: Int, leaseMillis: Int64) async throws -> [QueuedPush]
    /// Delivered: state `sent`, `attempts` as given.
    func markSent(id: String, attempts: Int) async throws
    /// Failed for now: stays queued, not tried again before `notBefore` (milliseconds since the epoch).
    func markRetry(id: String, attempts: Int, notBefore: Int64, lastError: String) async throws
    /// Refused for good (any other 4xx): state `dropped`; the device's later pushes go on.
    func markDropped(id: String, attempts: Int, lastError: String) async throws
    /// A dead token: the device is unregistered (its token becomes null) and every push queued
    /// for it, this one included, is `dropped` with `lastError`.
    func dropDevice(pushId: String, attempts: Int, lastError: String) async throws
}
