import AsyncHTTPClient
import Crypto
import Foundation
import NIOCore
import NIOHTTP1

/// Sends pushes to APNs over HTTP/2: `POST <base>/3/device/<token>`, a background push
/// authorised by an ES256 provider token that is renewed after 50 minutes.
final class APNsSender: Sendable {
    static let tokenLifetimeMillis: Int64 = 50 * 60 * 1000

    let config: APNsConfig
    let client: HTTPClient
    let clock: PushClock
    let providerTokens: ProviderTokenCache
    let timeout: TimeAmount

    init(config: APNsConfig, client: HTTPClient, clock: PushClock, timeout: TimeAmount) {
        self.config = config
        self.client = client
        self.clock = clock
        self.timeout = timeout
        self.providerTokens = ProviderTokenCache(config: config, now: clock.now)
    }

    func send(_ push: QueuedPush) async -> PushOutcome {
        let jwt: String
        do {
            jwt = try await providerTokens.token()
        } catch {
            return .retry("apns: the key cannot sign", retryAfterMillis: nil)
        }
        var request = HTTPClientRequest(url: "\(config.baseURL)/3/device/\(Self.pathSegment(push.deviceToken))")
        request.method = .POST
        request.headers.add(name: "apns-push-type", value: "background")
        request.headers.add(name: "apns-priority", value: "5")
        request.headers.add(name: "apns-topic", value: config.bundleId)
        request.headers.add(name: "authorization", value: "bearer \(jwt)")
        request.headers.add(name: "content-type", value: "application/json")
        request.body = .bytes(ByteBuffer(string: Self.payload(push)))
        let response: HTTPClientResponse
        do {
            response = try await client.execute(request, timeout: timeout)
        } catch {
            return .retry(NetworkFailure.describe(error), retryAfterMillis: nil)
        }
        let body = await AnswerBody.read(response)
        let outcome = Self.outcome(status: response.status, headers: response.headers, body: body, now: clock.now())
        if response.status.code == 403 { await providerTokens.invalidate(jwt) }
        return outcome
    }

    /// `{"aps":{"content-available":1},"carfit":{...}}`
    static func payload(_ push: QueuedPush) -> String {
        "{\"aps\":{\"content-available\":1},\"carfit\":\(push.carfitJSON)}"
    }

    /// The device token as one path segment (anything but letters, digits and `-._~` percent-encoded).
    static func pathSegment(_ token: String) -> String {
        FCMSender.formEncode(token)
    }

    /// APNs' answer as an outcome; the reason is the answer's `reason`, else the HTTP reason phrase.
    static func outcome(status: HTTPResponseStatus, headers: HTTPHeaders, body: [UInt8], now: Int64) -> PushOutcome {
        let code = Int(status.code)
        if code == 200 { return .sent }
        let answered = AnswerBody.object(body)?["reason"] as? String
        let reason = JSONText.reason(answered ?? status.reasonPhrase)
        let text = reason.isEmpty ? "\(code)" : "\(code) \(reason)"
        switch code {
        case 410:
            return .deadToken(text)
        case 400 where answered == "BadDeviceToken":
            return .deadToken(text)
        case 403 where answered == "ExpiredProviderToken":
            return .retry(text, retryAfterMillis: nil)
        case 429, 500...599:
            return .retry(text, retryAfterMillis: RetryPolicy.retryAfterMillis(headers.first(name: "Retry-After"), now: now))
        case 400...499:
            return .refused(text)
        default:
            return .retry(text, retryAfterMillis: nil)
        }
    }
}

/// The provider token in use: `{"alg":"ES256","kid"}` . `{"iss","iat"}`, signed anew after 50 minutes.
actor ProviderTokenCache {
    private let config: APNsConfig
    private let now: @Sendable () -> Int64
    private var current: (value: String, issuedAtMillis: Int64)?

    init(config: APNsConfig, now: @escaping @Sendable () -> Int64) {
        self.config = config
        self.now = now
    }

    func token() throws -> String {
        let time = now()
        if let current, time >= current.issuedAtMillis, time - current.issuedAtMillis < APNsSender.tokenLifetimeMillis {
            return current.value
        }
        let value = try Self.sign(config: config, issuedAt: time / 1000)
        current = (value, time)
        return value
    }

    /// Forgets `token` (APNs refused it), so the next push signs another.
    func invalidate(_ token: String) {
        if current?.value == token { current = nil }
    }

    static func sign(config: APNsConfig, issuedAt: Int64) throws -> String {
        let header = "{\"alg\":\"ES256\",\"kid\":\(JSONText.string(config.keyId))}"
        let claims = "{\"iss\":\(JSONText.string(config.teamId)),\"iat\":\(issuedAt)}"
        let signingInput = JSONText.base64url(Array(header.utf8)) + "." + JSONText.base64url(Array(claims.utf8))
        let signature = try config.privateKey.signature(for: Array(signingInput.utf8))
        return signingInput + "." + JSONText.base64url(Array(signature.rawRepresentation))
    }
}
