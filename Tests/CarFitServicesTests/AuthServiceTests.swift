import CarFitCore
import CarFitHTTP
import CarFitIO
import CarFitNet
import CarFitServices
import CarFitStore
import Foundation
import Synchronization
import XCTest

/// The planner's token: what `auth.set` accepts, which requests carry the token (only a
/// configured source's on the planner's origins, never an image's, not past a redirect to
/// another origin), and what a 401 or 403 does (unauthorized, announced once per token, a push
/// that stops `ifDue` pushes without backing off), against the loopback planner of
/// `Tests/servers/auth_server.py`.
final class AuthServiceTests: XCTestCase {
    static let token = "s3cr3t-T0ken_~!"

    func fields(_ text: String) throws -> Fields { try ServiceFixture.fields(text) }

    /// An HTTP client whose token goes to the server's first origin only.
    func client(_ server: AuthServer, origins: [Origin]? = nil) -> HTTPClient {
        let auth = PlannerAuth(origins: origins ?? [Origin(scheme: "http", host: "127.0.0.1", port: server.ports[0])])
        return HTTPClient(limits: HTTPLimits(timeoutMs: 5000, totalTimeoutMs: 10_000), auth: auth)
    }

    // MARK: - The credentials

    func testSettingAndClearingTheCredentials() throws {
        let service = AuthService(auth: PlannerAuth())
        XCTAssertEqual(service.set(AuthCredentials(token: "first", scheme: "Token")),
                       PlannerAuth.Status(token: true, scheme: "Token", required: false, requiredAt: nil, source: nil))
        XCTAssertEqual(service.set(nil), PlannerAuth.Status(token: false, scheme: nil, required: false, requiredAt: nil, source: nil))
        XCTAssertEqual(service.status(), service.auth.status)
    }

    func testOnlyUrlsOnTheListedOriginsGetTheHeaderWithDefaultPortsNormalised() throws {
        let origins = [Origin(text: "https://Planner.example"), Origin(text: "http://127.0.0.1:8080/"),
                       Origin(text: "http://[::1]:9000")].compactMap { $0 }
        XCTAssertEqual(origins.count, 3)
        let auth = PlannerAuth(origins: PlannerAuth.origins(configured: origins, visits: nil, visitUpdates: nil))
        let request = HTTPRequest.get("https://planner.example:443/visits", headers: [HTTPHeader("authorization", "forged")])
        XCTAssertEqual(auth.authorized(request).headers, [], "no token: no header, and none forged")
        auth.set(AuthCredentials(token: "t0k", scheme: "Bearer"))
        for url in ["https://planner.example:443/visits", "HTTPS://PLANNER.EXAMPLE/v?x=1", "http://127.0.0.1:8080/u",
                    "https://user:pw@planner.example/v", "http://[::1]:9000/u"] {
            XCTAssertEqual(auth.authorized(.get(url)).headers, [HTTPHeader("Authorization", "Bearer t0k")], url)
        }
        for url in ["http://planner.example/visits", "https://planner.example:8443/", "https://evil.example/",
                    "https://planner.example.evil.example/", "http://127.0.0.1/u", "http://localhost:8080/u", "not a url",
                    "http://[::1]:9001/u", "https://evil.example/?planner.example", "https://evil.example#@planner.example/"] {
            XCTAssertEqual(auth.authorized(.get(url)).headers, [], url)
        }
        // The default: the origins of the visits and updates sources.
        let defaults = PlannerAuth.origins(configured: nil, visits: "https://p.example/api/visits",
                                           visitUpdates: "http://u.example:8000/updates")
        XCTAssertEqual(defaults.map(\.description), ["https://p.example:443", "http://u.example:8000"])
    }

    // MARK: - Which requests carry it

    func testEverySourceOnThePlannersOriginCarriesTheTokenAndNothingElseDoes() throws {
        let server = try AuthServer.get()
        try server.reset()
        let f = try ServiceFixture()
        let http = client(server)
        http.auth.set(AuthCredentials(token: AuthServiceTests.token))
        let header = "Bearer \(AuthServiceTests.token)"
        // Visits and patterns on the planner's origin, articles and the catalog on another.
        _ = try f.visits.refresh(url: server.url(0, "/data/carfit.json"), http: http, lock: f)
        _ = try f.catalog.refresh(url: server.url(0, "/data/catalog.json"), http: http, lock: f)
        _ = try ArticlesService(articles: ArticleStore(f.db), clock: f.clock)
            .refresh(url: server.url(1, "/data/articles.json"), http: http, lock: f)
        _ = try f.catalog.refresh(url: server.url(1, "/data/catalog.json"), http: http, lock: f)
        let pipeline = try ImagePipeline(config: CoreConfig.Images(), http: http)
        defer { pipeline.close() }
        let images = ImagesService(patterns: PatternStore(f.db), images: pipeline)
        _ = try images.refresh(count: 1, url: server.url(0, "/data/patterns.json"), http: http,
                               concurrency: 1, lock: f)
        // An image on the planner's origin: never with the token.
        _ = try images.load(server.url(0, "/image.png"))
        let seen = try server.requests()
        XCTAssertEqual(seen.map(\.path), ["/data/carfit.json", "/data/catalog.json", "/data/articles.json", "/data/catalog.json",
                                          "/data/patterns.json", "/image.png"])
        XCTAssertEqual(seen.map(\.authorization), [header, header, nil, nil, header, nil])
        // Cleared: nothing carries it any more.
        http.auth.set(nil)
        try server.reset()
        _ = try f.catalog.refresh(url: server.url(0, "/data/catalog.json"), http: http, lock: f)
        XCTAssertEqual(try server.requests().map(\.authorization), [nil])
    }

    func testARedirectToAnotherOriginDropsTheHeaderAndOneWithinTheOriginKeepsIt() throws {
        let server = try AuthServer.get()
        try server.reset()
        let f = try ServiceFixture()
        let http = client(server)
        http.auth.set(AuthCredentials(token: AuthServiceTests.token, scheme: "Token"))
        let away = server.url(1, "/data/catalog.json")
        _ = try f.catalog.refresh(url: server.url(0, "/redirect?to=\(away)"), http: http, lock: f)
        let within = server.url(0, "/data/catalog.json")
        _ = try f.catalog.refresh(url: server.url(0, "/redirect?to=\(within)"), http: http, lock: f)
        // Another host name for the same address is another origin too.
        let renamed = "http://localhost:\(server.ports[0])/data/catalog.json"
        _ = try? f.catalog.refresh(url: server.url(0, "/redirect?to=\(renamed)"), http: http, lock: f)
        let seen = try server.requests()
        let header = "Token \(AuthServiceTests.token)"
        XCTAssertEqual(seen.first.map { [$0.port: $0.authorization] }, [server.ports[0]: header])
        XCTAssertEqual(Array(seen.prefix(4)).map(\.authorization), [header, nil, header, header])
        XCTAssertEqual(Array(seen.prefix(4)).map(\.port), [server.ports[0], server.ports[1], server.ports[0], server.ports[0]])
        if seen.count == 6 { XCTAssertEqual(seen[5].authorization, nil, "localhost is another host") }
    }

    // MARK: - 401 and 403

    func testARefusalIsUnauthorizedKeepsTheDataAndIsAnnouncedOncePerToken() throws {
        let server = try AuthServer.get()
        try server.reset()
        let f = try ServiceFixture()
        let http = client(server)
        let announced = Mutex<[String]>([])
        http.auth.onRequired { source, status in announced.withLock { $0.append("\(source) \(status)") } }
        _ = try f.visits.refresh(url: server.url(0, "/data/carfit.json"), http: http, lock: f)
        let before = try f.list(#"{"dates": ["2020-09-10"]}"#).bytes
        for (status, source) in [(401, "visits"), (403, "visits")] {
            let error = refusal { () throws(CarFitError) in
                _ = try f.visits.refresh(url: server.url(0, "/status/\(status)"), http: http, lock: f)
            }
            XCTAssertEqual(error?.status, .unauthorized)
            XCTAssertEqual(error?.reason, "unauthorized")
            XCTAssertEqual(error?.httpStatus, status)
            XCTAssertEqual(error?.details.url, server.url(0, "/status/\(status)"))
            _ = source
        }
        XCTAssertEqual(try f.list(#"{"dates": ["2020-09-10"]}"#).bytes, before)
        // Announced once (no token was set since opening), for the first refusal.
        XCTAssertEqual(announced.withLock { $0 }, ["visits 401"])
        XCTAssertEqual(http.auth.status.required, true)
        XCTAssertEqual(http.auth.status.source, "visits")
        // A new token (the same one again counts) is announced again, by the source that refuses first.
        http.auth.set(AuthCredentials(token: "x"))
        XCTAssertEqual(http.auth.status.required, false)
        http.auth.set(AuthCredentials(token: "x"))
        let error = refusal { () throws(CarFitError) in
            _ = try f.catalog.refresh(url: server.url(1, "/status/403"), http: http, lock: f)
        }
        XCTAssertEqual(error?.status, .unauthorized)
        XCTAssertFalse(error?.message.contains("Bearer") ?? true)
        XCTAssertEqual(announced.withLock { $0 }, ["visits 401", "catalog 403"])
        // Other failures are not refusals.
        XCTAssertEqual(refusal { () throws(CarFitError) in
            _ = try f.catalog.refresh(url: server.url(0, "/status/404"), http: http, lock: f)
        }?.status, .unavailable)
        XCTAssertEqual(announced.withLock { $0 }.count, 2)
    }

    func testEveryPatternRequestRefusedIsUnauthorized() throws {
        let server = try AuthServer.get()
        let f = try ServiceFixture()
        let http = client(server)
        let pipeline = try ImagePipeline(config: CoreConfig.Images(), http: http)
        defer { pipeline.close() }
        let images = ImagesService(patterns: PatternStore(f.db), images: pipeline)
        let error = refusal { () throws(CarFitError) in
            _ = try images.refresh(count: 2, url: server.url(0, "/status/401"), http: http,
                                   concurrency: 2, lock: f)
        }
        XCTAssertEqual(error?.status, .unauthorized)
        XCTAssertEqual(http.auth.status.source, "patterns")
    }

    func testARefusedPushKeepsEverythingDoesNotBackOffAndStopsIfDuePushesUntilATokenIsSet() throws {
        let server = try AuthServer.get()
        try server.reset(token: "right")
        let f = try ServiceFixture()
        _ = try f.importVisits(SyncServiceTests.document)
        _ = try f.setState(#"{"key": "a|1599724800000|0", "state": "InProgress"}"#)
        let lock = PushLock(database: ":memory:")
        let http = client(server)
        let url = server.url(0, "/token/updates")
        let sync = SyncService(db: f.db, clock: f.clock, setup: PushSetup(visitUpdates: url, client: http, pushLock: lock, waitMs: 1000))
        func push(_ request: String) throws(CarFitError) -> PushSummary {
            try sync.push(ifDue: request.contains("ifDue"), lock: f)
        }
        // No token: refused, nothing leaves the outbox, no backoff.
        let error = refusal { () throws(CarFitError) in _ = try push("{}") }
        XCTAssertEqual(error?.status, .unauthorized)
        XCTAssertEqual(error?.httpStatus, 401)
        var status = try sync.status()
        XCTAssertEqual(status.pending, 1)
        XCTAssertEqual(status.state.consecutiveFailures, 0)
        XCTAssertNil(status.state.nextAttemptAt)
        XCTAssertEqual(status.state.lastError?.reason, "unauthorized")
        XCTAssertEqual(status.state.lastError?.httpStatus, 401)
        // ifDue pushes do nothing: no request at all.
        for _ in 0..<3 {
            XCTAssertEqual(try push(#"{"ifDue": true}"#), PushSummary(pending: 1, skipped: .unauthorized))
        }
        XCTAssertEqual(try server.requests().count, 1)
        // A wrong token: refused again, still no backoff; a push without ifDue always tries.
        http.auth.set(AuthCredentials(token: "wrong"))
        XCTAssertEqual(refusal { () throws(CarFitError) in _ = try push(#"{"ifDue": true}"#) }?.status, .unauthorized)
        XCTAssertEqual(refusal { () throws(CarFitError) in _ = try push("{}") }?.status, .unauthorized)
        XCTAssertEqual(try server.requests().count, 3)
        XCTAssertEqual(try sync.status().state.consecutiveFailures, 0)
        // The right token: the next ifDue push goes at once and the change is applied.
        http.auth.set(AuthCredentials(token: "right"))
        XCTAssertEqual(try push(#"{"ifDue": true}"#), PushSummary(pushed: 1, rejected: 0, pending: 0))
        status = try sync.status()
        XCTAssertNil(status.state.lastError)
        XCTAssertEqual(try server.requests().map(\.authorization), [nil, "Bearer wrong", "Bearer wrong", "Bearer right"])
    }

    func testATokenMakesTheNextIfDuePushTryWhateverTheBackoff() throws {
        let server = try AuthServer.get()
        try server.reset()
        let f = try ServiceFixture()
        _ = try f.importVisits(SyncServiceTests.document)
        _ = try f.setState(#"{"key": "a|1599724800000|0", "state": "InProgress"}"#)
        let lock = PushLock(database: ":memory:")
        let http = client(server)
        func push(_ request: String, _ path: String) throws(CarFitError) -> PushSummary {
            let sync = SyncService(db: f.db, clock: f.clock,
                                   setup: PushSetup(visitUpdates: server.url(0, path), client: http, pushLock: lock, waitMs: 1000))
            return try sync.push(ifDue: request.contains("ifDue"), lock: f)
        }
        XCTAssertEqual(refusal { () throws(CarFitError) in _ = try push("{}", "/status/503") }?.status, .unavailable)
        XCTAssertEqual(try push(#"{"ifDue": true}"#, "/updates").skipped.map { if case .backoff = $0 { true } else { false } }, true)
        http.auth.set(AuthCredentials(token: "new"))
        XCTAssertEqual(try push(#"{"ifDue": true}"#, "/updates"), PushSummary(pushed: 1, rejected: 0, pending: 0))
        XCTAssertEqual(try server.requests().map(\.path), ["/status/503", "/updates"])
        // A token's one push at once is taken by whichever push comes first: after a push
        // without ifDue fails, ifDue pushes wait for the backoff again.
        _ = try f.setState(#"{"key": "a|1599724800000|0", "state": "Done"}"#)
        http.auth.set(AuthCredentials(token: "newer"))
        XCTAssertEqual(refusal { () throws(CarFitError) in _ = try push("{}", "/status/503") }?.status, .unavailable)
        XCTAssertEqual(try push(#"{"ifDue": true}"#, "/updates").skipped.map { if case .backoff = $0 { true } else { false } }, true)
    }
}
