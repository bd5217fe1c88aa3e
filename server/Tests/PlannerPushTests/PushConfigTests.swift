import Foundation
import XCTest
@testable import PlannerPush

final class PushConfigTests: XCTestCase {
    var credentials: TestCredentials!

    override func setUpWithError() throws {
        credentials = try TestCredentials()
        try credentials.writeServiceAccount(tokenURI: "http://127.0.0.1:9/token")
    }

    override func tearDown() {
        credentials?.remove()
    }

    func write(_ json: String) throws -> String {
        let path = credentials.directory.appendingPathComponent("push.json").path
        try json.write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    func testLoadsBothServicesWithDefaults() throws {
        try credentials.writeCertificates()
        let path = try write("""
            {"fcm": {"serviceAccountFile": "service-account.json"},
             "apns": {"keyFile": "\(credentials.p8Path)", "keyId": "ABC123DEFG", "teamId": "TEAM456XYZ",
                      "bundleId": "com.example.carfit", "caFile": "ca.pem"}}
            """)
        let config = try PushConfig.load(path: path)
        XCTAssertEqual(config.platforms, ["fcm", "apns"])
        XCTAssertEqual(config.fcm?.projectId, "test-project")
        XCTAssertEqual(config.fcm?.clientEmail, credentials.clientEmail)
        XCTAssertEqual(config.fcm?.tokenURI, "http://127.0.0.1:9/token")
        XCTAssertEqual(config.fcm?.baseURL, "https://fcm.googleapis.com")
        XCTAssertEqual(config.apns?.baseURL, "https://api.push.apple.com")
        XCTAssertEqual(config.apns?.bundleId, "com.example.carfit")
        XCTAssertEqual(config.apns?.extraTrustRoots.count, 1)
    }

    func testEitherServiceMayBeAbsent() throws {
        XCTAssertEqual(try PushConfig.load(path: write("{}")).platforms, [])
        let fcmOnly = try PushConfig.load(path: write(#"{"fcm": {"serviceAccountFile": "service-account.json", "baseUrl": "http://127.0.0.1:8/"}}"#))
        XCTAssertEqual(fcmOnly.platforms, ["fcm"])
        XCTAssertEqual(fcmOnly.fcm?.baseURL, "http://127.0.0.1:8")
        XCTAssertEqual(PushConfig().platforms, [])
    }

    func testBadFilesAndMembersAreNamed() throws {
        let cases: [(String, String)] = [
            (#"{"fcm": {}}"#, "fcm.serviceAccountFile: missing"),
            (#"{"fcm": {"serviceAccountFile": "nowhere.json"}}"#, "fcm.serviceAccountFile: cannot read"),
            (#"{"fcm": {"serviceAccountFile": "service-account.json", "baseUrl": "ftp://x"}}"#, "fcm.baseUrl"),
            (#"{"fcm": 3}"#, "fcm: not an object"),
            (#"{"fmc": {}}"#, "fmc: unknown member"),
            (#"{"apns": {"keyFile": "service-account.json", "keyId": "K", "teamId": "T", "bundleId": "b"}}"#, "apns.keyFile: not a PEM P-256"),
            (#"{"apns": {"keyFile": "AuthKey.p8", "teamId": "T", "bundleId": "b"}}"#, "apns.keyId: missing"),
            (#"{"apns": {"keyFile": "AuthKey.p8", "keyId": "K", "teamId": "T", "bundleId": "b\r\nx: y"}}"#, "apns.bundleId"),
            (#"{"apns": {"keyFile": "AuthKey.p8", "keyId": "K", "teamId": "T", "bundleId": "b", "caFile": "AuthKey.p8"}}"#, "apns.caFile"),
            ("[1]", "is not a JSON object"),
        ]
        for (json, expected) in cases {
            XCTAssertThrowsError(try PushConfig.load(path: write(json)), json) { error in
                let text = String(describing: error)
                XCTAssertTrue(text.contains(expected), "\(json): \(text)")
                XCTAssertFalse(text.contains("PRIVATE KEY"), "an error never quotes a key")
            }
        }
        XCTAssertThrowsError(try PushConfig.load(path: credentials.directory.appendingPathComponent("none.json").path)) { error in
            XCTAssertTrue(String(describing: error).contains("cannot read"))
        }
    }

    func testAServiceAccountWithoutAnRSAKeyIsRefused() throws {
        let account = #"{"project_id": "p", "client_email": "e@x", "token_uri": "https://oauth2.googleapis.com/token", "private_key": "-----BEGIN PRIVATE KEY-----\nAAAA\n-----END PRIVATE KEY-----\n"}"#
        try account.write(toFile: credentials.serviceAccountPath, atomically: true, encoding: .utf8)
        XCTAssertThrowsError(try PushConfig.load(path: write(#"{"fcm": {"serviceAccountFile": "service-account.json"}}"#))) { error in
            XCTAssertTrue(String(describing: error).contains("private_key is not a PEM RSA private key"), "\(error)")
        }
    }
}

final class RetryPolicyTests: XCTestCase {
    func testBackoffDoublesFromOneSecondToFiveMinutes() {
        let delays = (1...12).map { RetryPolicy.backoffMillis(attempts: $0, jitter: 1.0) }
        XCTAssertEqual(delays, [1_000, 2_000, 4_000, 8_000, 16_000, 32_000, 64_000, 128_000, 256_000, 300_000, 300_000, 300_000])
        XCTAssertEqual(RetryPolicy.backoffMillis(attempts: Int.max, jitter: 1.0), 300_000)
        XCTAssertEqual(RetryPolicy.backoffMillis(attempts: 0, jitter: 1.0), 1_000)
        XCTAssertEqual(RetryPolicy.backoffMillis(attempts: 3, jitter: 0.8), 3_200)
        XCTAssertEqual(RetryPolicy.backoffMillis(attempts: 3, jitter: 1.2), 4_800)
        XCTAssertEqual(RetryPolicy.backoffMillis(attempts: 3, jitter: 7), 4_800, "the jitter is held to ±20%")
        XCTAssertEqual(RetryPolicy.backoffMillis(attempts: 3, jitter: .nan), 4_000)
        for _ in 0..<100 {
            let delay = RetryPolicy.backoffMillis(attempts: 10, jitter: Double.random(in: 0.8...1.2))
            XCTAssertTrue((240_000...360_000).contains(delay))
        }
    }

    func testRetryAfterSecondsAndDates() {
        let now: Int64 = 1_800_000_000_000
        XCTAssertEqual(RetryPolicy.retryAfterMillis("120", now: now), 120_000)
        XCTAssertEqual(RetryPolicy.retryAfterMillis(" 0 ", now: now), 0)
        XCTAssertEqual(RetryPolicy.retryAfterMillis("99999999999999999999999", now: now), RetryPolicy.maxRetryAfterMillis)
        // 1_800_000_000 s is Fri, 15 Jan 2027 08:00:00 GMT.
        XCTAssertEqual(RetryPolicy.retryAfterMillis("Fri, 15 Jan 2027 08:00:30 GMT", now: now), 30_000)
        XCTAssertEqual(RetryPolicy.retryAfterMillis("Friday, 15-Jan-27 08:01:00 GMT", now: now), 60_000)
        XCTAssertEqual(RetryPolicy.retryAfterMillis("Fri Jan 15 08:00:10 2027", now: now), 10_000)
        XCTAssertEqual(RetryPolicy.retryAfterMillis("Thu, 01 Jan 1970 00:00:00 GMT", now: now), 0, "a past date: now")
        for junk in [nil, "", "-5", "1.5", "soon", String(repeating: "9", count: 5000)] {
            let value = RetryPolicy.retryAfterMillis(junk, now: now)
            XCTAssertTrue(value == nil || value == RetryPolicy.maxRetryAfterMillis, "\(String(describing: junk?.prefix(20)))")
        }
        XCTAssertNil(RetryPolicy.retryAfterMillis("-5", now: now))
        XCTAssertEqual(RetryPolicy.delayMillis(attempts: 1, jitter: 1, retryAfterMillis: 500), 1_000, "a shorter Retry-After does not shorten the backoff")
        XCTAssertEqual(RetryPolicy.delayMillis(attempts: 1, jitter: 1, retryAfterMillis: 9_000), 9_000)
        XCTAssertEqual(RetryPolicy.delayMillis(attempts: 1, jitter: 1, retryAfterMillis: Int64.max), RetryPolicy.maxRetryAfterMillis)
    }

    func testJWTPiecesAreBase64URLAndEscapedJSON() {
        XCTAssertEqual(JSONText.base64url(Array("{\"alg\":\"ES256\"}".utf8)), "eyJhbGciOiJFUzI1NiJ9")
        XCTAssertEqual(JSONText.base64url([0xFB, 0xFF]), "-_8")
        XCTAssertEqual(JSONText.base64url([]), "")
        XCTAssertEqual(JSONText.string("a\"b\\c\n\u{1}"), #""a\"b\\c\n\u0001""#)
        XCTAssertEqual(FCMSender.formEncode("a b/c:d=é"), "a%20b%2Fc%3Ad%3D%C3%A9")
        XCTAssertEqual(APNsSender.pathSegment("ab/../x?y#z"), "ab%2F..%2Fx%3Fy%23z", "a token stays one path segment")
    }
}
