import Crypto
import Foundation
import NIOHTTP1
import _CryptoExtras

/// A push request a fake service received, as it understood it.
struct ReceivedPush: Equatable {
    var deviceToken: String
    var id: String
    var seq: Int64
    /// The access token (FCM) or provider token (APNs) it carried.
    var credential: String
}

/// Reads a `carfit` member: exactly `{"v":1,"id","kind":"visits","seq"}` as compact JSON text.
func checkCarfit(_ object: Any?, text: String?, violations: inout [String]) -> (id: String, seq: Int64)? {
    guard let carfit = object as? [String: Any], Set(carfit.keys) == ["v", "id", "kind", "seq"],
          carfit["v"] as? Int == 1, carfit["kind"] as? String == "visits",
          let id = carfit["id"] as? String, let seq = (carfit["seq"] as? NSNumber)?.int64Value else {
        violations.append("carfit member is not {v:1,id,kind:visits,seq}: \(String(describing: object))")
        return nil
    }
    if let text, text != "{\"v\":1,\"id\":\"\(id)\",\"kind\":\"visits\",\"seq\":\(seq)}" {
        violations.append("carfit text is not compact JSON in order: \(text)")
    }
    return (id, seq)
}

/// FCM HTTP v1 and Google's OAuth token endpoint, as strict as the real ones about what they check.
final class FakeFCM: @unchecked Sendable {
    let credentials: TestCredentials
    /// The time the assertion's `iat` must name (nil: not checked).
    let now: (@Sendable () -> Int64)?
    private let lock = NSRecursiveLock()
    private var tokenScript: [FakeAnswer] = []
    private var messageScript: [FakeAnswer] = []
    private var issued: [String] = []
    private var issuedAt: [Int64] = []
    private var received: [ReceivedPush] = []
    private var delivered: [ReceivedPush] = []
    private var problems: [String] = []
    private var server: FakeHTTPServer?

    init(credentials: TestCredentials, now: (@Sendable () -> Int64)?) {
        self.credentials = credentials
        self.now = now
    }

    func start() async throws {
        let server = try await FakeHTTPServer.http1 { [self] request in handle(request) }
        lock.withLock { self.server = server }
        try credentials.writeServiceAccount(tokenURI: tokenURI)
    }

    func stop() async { await lock.withLock { server }?.stop() }

    var baseURL: String { "http://127.0.0.1:\(lock.withLock { server?.port ?? 0 })" }
    var tokenURI: String { baseURL + "/token" }

    /// The next answers to message requests (then 200 again).
    func script(_ answers: [FakeAnswer]) { lock.withLock { messageScript += answers } }
    /// The next answers to token requests (then a new token again).
    func scriptToken(_ answers: [FakeAnswer]) { lock.withLock { tokenScript += answers } }

    var violations: [String] { lock.withLock { problems } }
    var issuedTokens: [String] { lock.withLock { issued } }
    var assertionTimes: [Int64] { lock.withLock { issuedAt } }
    /// Every message request, answered or not.
    var requests: [ReceivedPush] { lock.withLock { received } }
    /// The message requests answered 200.
    var deliveries: [ReceivedPush] { lock.withLock { delivered } }

    private func handle(_ request: FakeRequest) -> FakeAnswer {
        lock.withLock {
            if request.uri == "/token" { return token(request) }
            return message(request)
        }
    }

    private func token(_ request: FakeRequest) -> FakeAnswer {
        if request.method != "POST" { problems.append("token: method \(request.method)") }
        if request.header("content-type") != "application/x-www-form-urlencoded" {
            problems.append("token: content-type \(request.header("content-type") ?? "none")")
        }
        var form: [String: String] = [:]
        for pair in request.bodyText.split(separator: "&") {
            let parts = pair.split(separator: "=", maxSplits: 1).map { String($0).replacingOccurrences(of: "+", with: " ").removingPercentEncoding ?? "" }
            if parts.count == 2 { form[parts[0]] = parts[1] }
        }
        if Set(form.keys) != ["grant_type", "assertion"] { problems.append("token: form members \(form.keys.sorted())") }
        if form["grant_type"] != "urn:ietf:params:oauth:grant-type:jwt-bearer" { problems.append("token: grant_type") }
        guard let assertion = form["assertion"], let jwt = DecodedJWT(assertion) else {
            problems.append("token: no JWT assertion")
            return .json(400, #"{"error":"invalid_grant"}"#)
        }
        if jwt.header["alg"] as? String != "RS256" { problems.append("token: alg \(jwt.header)") }
        if jwt.claims["iss"] as? String != credentials.clientEmail { problems.append("token: iss") }
        if jwt.claims["scope"] as? String != "https://www.googleapis.com/auth/firebase.messaging" { problems.append("token: scope") }
        if jwt.claims["aud"] as? String != tokenURI { problems.append("token: aud") }
        if Set(jwt.claims.keys) != ["iss", "scope", "aud", "iat", "exp"] { problems.append("token: claims \(jwt.claims.keys.sorted())") }
        guard let iat = jwt.integer("iat"), let exp = jwt.integer("exp") else {
            problems.append("token: iat or exp is not a whole number: \(jwt.claimsText)")
            return .json(400, #"{"error":"invalid_grant"}"#)
        }
        if exp != iat + 3600 { problems.append("token: exp \(exp) is not iat + 3600") }
        if let now, iat != now() / 1000 { problems.append("token: iat \(iat) is not now \(now() / 1000)") }
        let signature = _RSA.Signing.RSASignature(rawRepresentation: jwt.signature)
        if !credentials.rsaKey.publicKey.isValidSignature(signature, for: Data(jwt.signingInput.utf8), padding: .insecurePKCS1v1_5) {
            problems.append("token: the assertion's RS256 signature does not verify")
            return .json(400, #"{"error":"invalid_grant","error_description":"Invalid JWT Signature."}"#)
        }
        issuedAt.append(iat)
        if !tokenScript.isEmpty { return tokenScript.removeFirst() }
        let token = "ya29.test-\(issued.count + 1)-\(UUID().uuidString)"
        issued.append(token)
        return .json(200, "{\"access_token\":\"\(token)\",\"expires_in\":3599,\"token_type\":\"Bearer\"}")
    }

    private func message(_ request: FakeRequest) -> FakeAnswer {
        if request.method != "POST" { problems.append("send: method \(request.method)") }
        if request.uri != "/v1/projects/\(credentials.projectId)/messages:send" { problems.append("send: path \(request.uri)") }
        if !(request.header("content-type") ?? "").hasPrefix("application/json") { problems.append("send: content-type") }
        let authorization = request.header("authorization") ?? ""
        let credential = authorization.hasPrefix("Bearer ") ? String(authorization.dropFirst(7)) : ""
        guard issued.last == credential, !credential.isEmpty else {
            problems.append("send: authorization is not the latest access token")
            return .json(401, #"{"error":{"code":401,"status":"UNAUTHENTICATED"}}"#)
        }
        guard let root = (try? JSONSerialization.jsonObject(with: Data(request.body))) as? [String: Any],
              Set(root.keys) == ["message"], let message = root["message"] as? [String: Any],
              Set(message.keys) == ["token", "data", "android"], let token = message["token"] as? String,
              let data = message["data"] as? [String: Any], Set(data.keys) == ["carfit"], let carfitText = data["carfit"] as? String,
              let android = message["android"] as? [String: Any], android.count == 2,
              android["priority"] as? String == "high", android["collapse_key"] as? String == "visits" else {
            problems.append("send: body shape \(request.bodyText)")
            return .json(400, #"{"error":{"code":400,"status":"INVALID_ARGUMENT"}}"#)
        }
        guard let carfit = checkCarfit(try? JSONSerialization.jsonObject(with: Data(carfitText.utf8)), text: carfitText,
                                       violations: &problems) else {
            return .json(400, #"{"error":{"code":400,"status":"INVALID_ARGUMENT"}}"#)
        }
        let push = ReceivedPush(deviceToken: token, id: carfit.id, seq: carfit.seq, credential: credential)
        received.append(push)
        if !messageScript.isEmpty { return messageScript.removeFirst() }
        delivered.append(push)
        return .json(200, "{\"name\":\"projects/\(credentials.projectId)/messages/\(received.count)\"}")
    }
}

/// APNs over HTTP/2 with TLS, checking the provider token's ES256 signature with the test key.
final class FakeAPNs: @unchecked Sendable {
    let credentials: TestCredentials
    let now: (@Sendable () -> Int64)?
    private let lock = NSRecursiveLock()
    private var answers: [FakeAnswer] = []
    private var received: [ReceivedPush] = []
    private var delivered: [ReceivedPush] = []
    private var problems: [String] = []
    private var server: FakeHTTPServer?

    init(credentials: TestCredentials, now: (@Sendable () -> Int64)?) {
        self.credentials = credentials
        self.now = now
    }

    func start() async throws {
        try credentials.writeCertificates()
        let server = try await FakeHTTPServer.http2(certificatePath: credentials.serverCertPath, keyPath: credentials.serverKeyPath) {
            [self] request in handle(request)
        }
        lock.withLock { self.server = server }
    }

    func stop() async { await lock.withLock { server }?.stop() }

    var baseURL: String { "https://127.0.0.1:\(lock.withLock { server?.port ?? 0 })" }
    func script(_ answers: [FakeAnswer]) { lock.withLock { self.answers += answers } }
    var violations: [String] { lock.withLock { problems } }
    var requests: [ReceivedPush] { lock.withLock { received } }
    var deliveries: [ReceivedPush] { lock.withLock { delivered } }

    private func handle(_ request: FakeRequest) -> FakeAnswer {
        lock.withLock { notification(request) }
    }

    private func notification(_ request: FakeRequest) -> FakeAnswer {
        if request.version.major != 2 { problems.append("not HTTP/2: \(request.version)") }
        if request.method != "POST" { problems.append("method \(request.method)") }
        guard request.uri.hasPrefix("/3/device/") else {
            problems.append("path \(request.uri)")
            return .json(404, #"{"reason":"BadPath"}"#)
        }
        let deviceToken = String(request.uri.dropFirst("/3/device/".count))
        for (name, value) in [("apns-push-type", "background"), ("apns-priority", "5"), ("apns-topic", credentials.bundleId)] {
            if request.header(name) != value || request.headerCount(name) != 1 {
                problems.append("\(name): \(request.header(name) ?? "none")")
            }
        }
        let authorization = request.header("authorization") ?? ""
        guard authorization.hasPrefix("bearer "), let jwt = DecodedJWT(String(authorization.dropFirst(7))) else {
            problems.append("authorization: \(authorization.isEmpty ? "none" : "not a bearer JWT")")
            return .json(403, #"{"reason":"MissingProviderToken"}"#)
        }
        if jwt.header.count != 2 || jwt.header["alg"] as? String != "ES256" || jwt.header["kid"] as? String != credentials.keyId {
            problems.append("JWT header \(jwt.header)")
        }
        if Set(jwt.claims.keys) != ["iss", "iat"] || jwt.claims["iss"] as? String != credentials.teamId {
            problems.append("JWT claims \(jwt.claimsText)")
        }
        guard let iat = jwt.integer("iat") else {
            problems.append("JWT iat is not a whole number: \(jwt.claimsText)")
            return .json(403, #"{"reason":"InvalidProviderToken"}"#)
        }
        if let now, now() / 1000 - iat >= 3600 || iat > now() / 1000 { problems.append("JWT iat \(iat) is stale or ahead") }
        guard jwt.signature.count == 64, let signature = try? P256.Signing.ECDSASignature(rawRepresentation: jwt.signature),
              credentials.apnsKey.publicKey.isValidSignature(signature, for: Data(jwt.signingInput.utf8)) else {
            problems.append("JWT ES256 signature does not verify")
            return .json(403, #"{"reason":"InvalidProviderToken"}"#)
        }
        guard let root = (try? JSONSerialization.jsonObject(with: Data(request.body))) as? [String: Any],
              Set(root.keys) == ["aps", "carfit"], let aps = root["aps"] as? [String: Any],
              aps.count == 1, aps["content-available"] as? Int == 1,
              let carfit = checkCarfit(root["carfit"], text: nil, violations: &problems) else {
            problems.append("body \(request.bodyText)")
            return .json(400, #"{"reason":"BadPayload"}"#)
        }
        let push = ReceivedPush(deviceToken: deviceToken, id: carfit.id, seq: carfit.seq, credential: String(authorization.dropFirst(7)))
        received.append(push)
        if !answers.isEmpty { return answers.removeFirst() }
        delivered.append(push)
        return .respond(status: 200, headers: [("apns-id", UUID().uuidString)])
    }
}
