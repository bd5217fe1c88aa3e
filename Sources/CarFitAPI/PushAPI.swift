import CarFitCore
import CarFitIO
import CarFitServices
import CarFitStore

/// The planner's pushes: `push.receive`, `push.register` and `push.status`.
public enum PushAPI {
    /// `push.receive`: the push read (`PushReceiveRequest`), received (`PushService.receive`,
    /// with `refreshVisits` for the refresh it asks for) and answered (`PushReceiptAnswer`).
    public static func receive(_ service: PushService, _ request: Fields, lock: some Serializer,
                               refreshVisits: () throws(CarFitError) -> [VisitChange]) throws(CarFitError) -> JSON {
        let r = try PushReceiveRequest(request)
        let receipt = try service.receive(r.message, refresh: r.refresh, hour24: service.clock.hour24, lock: lock,
                                          refreshVisits: refreshVisits)
        return PushReceiptAnswer(receipt: receipt).json
    }

    /// `push.register`: `{"platform", "token"}` or `{"token": null}`; answers the device.
    public static func register(_ service: PushService, _ request: Fields) throws(CarFitError) -> JSON {
        let r = try PushRegisterRequest(request)
        return .obj(["device": DeviceAnswer(device: try service.register(platform: r.platform, token: r.token)).json])
    }

    /// `push.status`: `{"device", "lastSeq", "received"}`.
    public static func status(_ service: PushService) throws(CarFitError) -> JSON {
        let status = try service.status()
        return .obj(["device": DeviceAnswer(device: status.device).json, "lastSeq": status.lastSeq.map { .int($0) } ?? .null,
                     "received": .int(Int64(status.received))])
    }
}

/// `push.receive`: `{"payload": object, "refresh": bool (default true)}`. The payload's
/// `carfit` member (an object, or a string holding one) read into a `PushMessage`; the payload
/// written as compact JSON is at most `PushMessage.maxPayloadBytes`. Each refusal is `invalid`
/// naming the member (`payload`, `payload.carfit`, `payload.carfit.kind`, …).
public struct PushReceiveRequest: APIRequest {
    public var message: PushMessage
    public var refresh: Bool

    public init(_ f: Fields) throws(CarFitError) {
        refresh = try f.bool("refresh") ?? true
        guard let payload = try f.object("payload") else { throw .invalid("payload", "payload is required: the push as received.") }
        let size = JSON.object(payload.object).encodedBytes().count
        guard size <= PushMessage.maxPayloadBytes else {
            throw .invalid("payload", "payload is \(size) bytes as compact JSON; a push carries at most \(PushMessage.maxPayloadBytes).")
        }
        let c: Fields
        switch payload.value("carfit") {
        case .object(let o)?:
            c = Fields(o, path: "payload.carfit")
        case .string(let text)?:
            let bytes = Array(text.utf8)
            let parsed = bytes.withUnsafeBytes { b in Result { () throws(CarFitError) in try JanssonParser.object(b) } }
            guard case .success(let fields) = parsed else {
                throw .invalid("payload.carfit", "payload.carfit must be an object, or a string holding one.")
            }
            c = Fields(fields.object, path: "payload.carfit")
        default:
            throw .invalid("payload.carfit", "payload.carfit must be an object, or a string holding one.")
        }
        guard try c.int("v", in: Int64.min...Int64.max) == PushMessage.version else {
            throw .invalid(c.path("v"), "\(c.path("v")) must be \(PushMessage.version).")
        }
        let id = try PushReceiveRequest.text(c, "id", PushMessage.idLength)
        guard let kindText = try c.string("kind"), let kind = PushMessage.Kind(rawValue: kindText) else {
            throw .invalid(c.path("kind"), "\(c.path("kind")) must be \"visits\", \"visit\" or \"message\".")
        }
        let seq = try c.int("seq", in: 1...Int64.max)
        if c.has("seq"), seq == nil { throw .invalid(c.path("seq"), "\(c.path("seq")) must be an integer of at least 1.") }
        message = PushMessage(id: id, kind: kind, seq: seq)
        switch kind {
        case .visits: break
        case .visit:
            message.visitId = try PushReceiveRequest.text(c, "visitId", 1...4096)
            let startText = try c.requiredString("startTimeUtc")
            guard let start = Instant(iso: startText) else {
                throw .invalid(c.path("startTimeUtc"), "\(c.path("startTimeUtc")) must be an ISO 8601 instant.")
            }
            message.start = start
        case .message:
            message.title = try PushReceiveRequest.text(c, "title", PushMessage.titleLength)
            message.body = try PushReceiveRequest.text(c, "body", PushMessage.bodyLength)
        }
    }

    /// A required text of `length` characters.
    static func text(_ f: Fields, _ key: String, _ length: ClosedRange<Int>) throws(CarFitError) -> String {
        let text = try f.requiredString(key)
        guard length.contains(text.count) else {
            throw .invalid(f.path(key), "\(f.path(key)) must be \(length.lowerBound) to \(length.upperBound) characters.")
        }
        return text
    }
}

/// `push.register`: `{"platform": "apns" | "fcm", "token": 1–4096 characters from "!" to "~"}`,
/// or `{"token": null}` (platform optional then) to unregister.
public struct PushRegisterRequest: APIRequest {
    public var platform: String?
    public var token: String?

    public static let platforms = ["apns", "fcm"]
    public static let maxTokenLength = 4096

    public init(_ f: Fields) throws(CarFitError) {
        guard f.object["token"] != nil else { throw .invalid("token", "token is required (null to unregister).") }
        token = try f.string("token")
        platform = try f.string("platform")
        if let platform, !PushRegisterRequest.platforms.contains(platform) {
            throw .invalid("platform", "platform must be \"apns\" or \"fcm\".")
        }
        if let token {
            guard platform != nil else { throw .invalid("platform", "platform is required with a token.") }
            guard (1...PushRegisterRequest.maxTokenLength).contains(token.utf8.count),
                  token.utf8.allSatisfy({ (0x21...0x7E).contains($0) }) else {
                throw .invalid("token", "token must be 1 to \(PushRegisterRequest.maxTokenLength) characters from \"!\" to \"~\".")
            }
        }
    }
}

/// The device in `push.register` and `push.status`: `{"platform", "registered", "pending"}`, or
/// null when never registered or unregistered and acknowledged.
public struct DeviceAnswer: APIResponse {
    public var device: PushStore.Device
    public var json: JSON {
        guard device.platform != nil, device.token != nil || device.pending else { return .null }
        return .obj(["platform": .str(device.platform), "registered": .bool(device.token != nil && !device.pending),
                     "pending": .bool(device.pending)])
    }
}

/// `push.receive`'s answer: `{"duplicate", "gap", "refreshed", "refreshError", "changes",
/// "notifications"}`.
public struct PushReceiptAnswer: APIResponse {
    public var receipt: PushService.Receipt
    public var json: JSON {
        .obj([
            "duplicate": .bool(receipt.duplicate),
            "gap": .bool(receipt.gap),
            "refreshed": .bool(receipt.refreshed),
            "refreshError": receipt.refreshError?.document ?? .null,
            "changes": .array(receipt.changes.map(\.json)),
            "notifications": .array(receipt.notifications.map(\.json)),
        ])
    }
}

/// A notification: `{"id", "kind", "title", "body", "key", "at", "deepLink", "navigation"}`;
/// `navigation` the card's links (`Navigation`), each coordinate written as the card writes it.
extension PushNotification: APIResponse {
    public var json: JSON {
        var navigationJSON = JSON.null
        if let navigation {
            var links = JSONObject()
            for (member, url) in Navigation.links(latitude: PushNotification.number(navigation.latitude),
                                                  longitude: PushNotification.number(navigation.longitude)) {
                links[member] = .string(url)
            }
            navigationJSON = .object(links)
        }
        return .obj([
            "id": .string(id), "kind": .string(kind), "title": .string(title), "body": .string(body),
            "key": .str(key?.text), "at": .str(at?.iso), "deepLink": .str(deepLink), "navigation": navigationJSON,
        ])
    }

    /// A coordinate as JSON writes it (the card's own text of it).
    static func number(_ value: Double) -> String {
        var buffer = JSONBuffer(capacity: 32)
        buffer.appendDouble(value)
        return String(decoding: buffer.bytes, as: UTF8.self)
    }
}

/// The entry points of the operation table (`Manifest.operations`), one per operation, named
/// after its verb: each picks from the core what the function above needs.
extension PushAPI {
    public static func receive(_ context: some OperationContext, _ request: Fields) throws(CarFitError) -> JSON {
        try receive(context.push, request, lock: context, refreshVisits: { () throws(CarFitError) in try context.refreshVisitsForPush() })
    }
    public static func register(_ context: some OperationContext, _ request: Fields) throws(CarFitError) -> JSON {
        try register(context.push, request)
    }
    public static func status(_ context: some OperationContext, _ request: Fields) throws(CarFitError) -> JSON {
        try status(context.push)
    }
}
