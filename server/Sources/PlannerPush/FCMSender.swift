import AsyncHTTPClient
import Crypto
import Foundation
import NIOCore
import NIOHTTP1
import _CryptoExtras

/// Sends pushes with FCM HTTP v1: `POST <base>/v1/projects/<project>/messages:send`, an OAuth
/// access token from the service account's `token_uri` (an RS256 JWT assertion), reused until it
/// is a minute from expiring.
final class FCMSender: Sendable {
    static let scope = "https://www.googleapis.com/auth/firebase.messaging"
    static let grantType = "urn:ietf:params:oauth:grant-type:jwt-bearer"

    let config: FCMConfig
    let client: HTTPClient
    let clock: PushClock
    let tokens: AccessTokenCache
    let timeout: TimeAmount

    init(config: FCMConfig, client: HTTPClient, clock: PushClock, timeout: TimeAmount) {
        self.config = config
        self.client = client
        self.clock = clock
        self.timeout = timeout
        self.tokens = AccessTokenCache(now: clock.now)
    }

    func send(_ push: QueuedPush) async -> PushOutcome {
        let token: String
        switch await tokens.token(fetch: { await self.fetchAccessToken() }) {
        case .success(let value): token = value
        case .failure(let failure): return .retry(failure.text, retryAfterMillis: failure.retryAfterMillis)
        }
        var request = HTTPClientRequest(url: "\(config.baseURL)/v1/projects/\(config.projectId)/messages:send")
        request.method = .POST
        request.headers.add(name: "Authorization", value: "Bearer \(token)")
        request.headers.add(name: "Content-Type", value: "application/json; charset=UTF-8")
        request.body = .bytes(ByteBuffer(string: Self.messageBody(push)))
        let response: HTTPClientResponse
        do {
            response = try await client.execute(request, timeout: timeout)
        } catch {
            return .retry(NetworkFailure.describe(error), retryAfterMillis: nil)
        }
        let body = await AnswerBody.read(response)
        if response.status.code == 401 { await tokens.invalidate(token) }
        return Self.outcome(status: response.status, headers: response.headers, body: body, now: clock.now())
    }

    /// `{"message": {"token", "data": {"carfit": compact JSON text}, "android": {"priority": "high", "collapse_key": "visits"}}}`
    static func messageBody(_ push: QueuedPush) -> String {
        "{\"message\":{\"token\":\(JSONText.string(push.deviceToken)),\"data\":{\"carfit\":\(JSONText.string(push.carfitJSON))},"
            + "\"android\":{\"priority\":\"high\",\"collapse_key\":\"visits\"}}}"
    }

    /// FCM's answer as an outcome. The reason is the FCM error code (`details[].errorCode`),
    /// else the error's `status`, else the HTTP reason phrase.
    static func outcome(status: HTTPResponseStatus, headers: HTTPHeaders, body: [UInt8], now: Int64) -> PushOutcome {
        let code = Int(status.code)
        if (200..<300).contains(code) { return .sent }
        var errorCode: String?
        var errorStatus: String?
        if let error = AnswerBody.object(body)?["error"] as? [String: Any] {
            errorStatus = error["status"] as? String
            for detail in (error["details"] as? [Any] ?? []).prefix(32) {
                if let found = (detail as? [String: Any])?["errorCode"] as? String {
                    errorCode = found
                    break
                }
            }
        }
        let reason = JSONText.reason(errorCode ?? errorStatus ?? status.reasonPhrase)
        let text = reason.isEmpty ? "\(code)" : "\(code) \(reason)"
        switch code {
        case 404 where errorCode == "UNREGISTERED" || errorStatus == "NOT_FOUND":
            return .deadToken(text)
        case 401, 429, 500...599:
            return .retry(text, retryAfterMillis: RetryPolicy.retryAfterMillis(headers.first(name: "Retry-After"), now: now))
        case 400...499:
            return .refused(text)
        default:
            return .retry(text, retryAfterMillis: nil)
        }
    }

    /// A new access token: `POST token_uri` with the signed assertion.
    func fetchAccessToken() async -> Result<AccessToken, TokenFailure> {
        let now = clock.now()
        let assertion: String
        do {
            assertion = try Self.assertion(config: config, issuedAt: now / 1000)
        } catch {
            return .failure(TokenFailure(text: "oauth: the service account's key cannot sign", retryAfterMillis: nil))
        }
        var request = HTTPClientRequest(url: config.tokenURI)
        request.method = .POST
        request.headers.add(name: "Content-Type", value: "application/x-www-form-urlencoded")
        request.body = .bytes(ByteBuffer(string: "grant_type=\(Self.formEncode(Self.grantType))&assertion=\(Self.formEncode(assertion))"))
        let response: HTTPClientResponse
        do {
            response = try await client.execute(request, timeout: timeout)
        } catch {
            return .failure(TokenFailure(text: "oauth " + NetworkFailure.describe(error), retryAfterMillis: nil))
        }
        let body = await AnswerBody.read(response)
        let object = AnswerBody.object(body)
        let code = Int(response.status.code)
        guard code == 200 else {
            let reason = JSONText.reason(object?["error"] as? String ?? response.status.reasonPhrase)
            return .failure(TokenFailure(
                text: reason.isEmpty ? "oauth \(code)" : "oauth \(code) \(reason)",
                retryAfterMillis: RetryPolicy.retryAfterMillis(response.headers.first(name: "Retry-After"), now: clock.now())))
        }
        guard let token = object?["access_token"] as? String, !token.isEmpty, token.utf8.count <= 8192,
              token.unicodeScalars.allSatisfy({ $0.value > 0x20 && $0.value < 0x7F }) else {
            return .failure(TokenFailure(text: "oauth 200 without an access_token", retryAfterMillis: nil))
        }
        var lifetime: Int64 = 3600
        if let seconds = (object?["expires_in"] as? NSNumber)?.doubleValue, seconds.isFinite {
            lifetime = Int64(min(max(seconds, 0), 86_400))
        }
        // Renewed a minute before it expires (half way for very short lifetimes).
        let usable = lifetime > 120 ? lifetime - 60 : lifetime / 2
        return .success(AccessToken(value: token, renewAt: now + usable * 1000))
    }

    /// The JWT assertion: `{"alg":"RS256","typ":"JWT"}` . `{"iss","scope","aud","iat","exp"}`, one hour.
    static func assertion(config: FCMConfig, issuedAt: Int64) throws -> String {
        let header = #"{"alg":"RS256","typ":"JWT"}"#
        let claims = "{\"iss\":\(JSONText.string(config.clientEmail)),\"scope\":\(JSONText.string(scope)),"
            + "\"aud\":\(JSONText.string(config.tokenURI)),\"iat\":\(issuedAt),\"exp\":\(issuedAt + 3600)}"
        let signingInput = JSONText.base64url(Array(header.utf8)) + "." + JSONText.base64url(Array(claims.utf8))
        let signature = try config.privateKey.signature(for: Array(signingInput.utf8), padding: .insecurePKCS1v1_5)
        return signingInput + "." + JSONText.base64url(Array(signature.rawRepresentation))
    }

    static func formEncode(_ text: String) -> String {
        var out = ""
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
                 UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"), UInt8(ascii: "~"):
                out.unicodeScalars.append(Unicode.Scalar(byte))
            default:
                let hex = String(byte, radix: 16, uppercase: true)
                out += "%" + (hex.count == 1 ? "0" + hex : hex)
            }
        }
        return out
    }
}

struct AccessToken: Sendable {
    var value: String
    /// Milliseconds since the epoch from which a new one is fetched.
    var renewAt: Int64
}

struct TokenFailure: Error, Sendable {
    var text: String
    var retryAfterMillis: Int64?
}

/// The access token in use, fetched by one request however many pushes wait for it.
actor AccessTokenCache {
    private let now: @Sendable () -> Int64
    private var current: AccessToken?
    private var pending: Task<Result<AccessToken, TokenFailure>, Never>?

    init(now: @escaping @Sendable () -> Int64) {
        self.now = now
    }

    /// The current token, or a new one from `fetch` once it is due for renewal.
    func token(fetch: @escaping @Sendable () async -> Result<AccessToken, TokenFailure>) async -> Result<String, TokenFailure> {
        if let current, now() < current.renewAt { return .success(current.value) }
        let task: Task<Result<AccessToken, TokenFailure>, Never>
        if let pending {
            task = pending
        } else {
            task = Task { await fetch() }
            pending = task
        }
        let result = await task.value
        if pending == task { pending = nil }
        switch result {
        case .success(let token):
            current = token
            return .success(token.value)
        case .failure(let failure):
            return .failure(failure)
        }
    }

    /// Forgets `token` (the service refused it), so the next push fetches another.
    func invalidate(_ token: String) {
        if current?.value == token { current = nil }
    }
}
