import CarFitHTTP
import Foundation
import XCTest

/// The well-behaved answers: bodies, validators and 304s, encodings, redirects, statuses,
/// POST, streaming, temporary files, cancellation.
final class CurlClientTests: XCTestCase {
    private var server: FixtureServer!
    private let client = CurlClient(limits: HTTPLimits(timeoutMs: 5000, totalTimeoutMs: 30000))

    override func setUpWithError() throws {
        server = try FixtureServer.get()
    }

    func testGetDeliversTheSampleFileWithItsValidators() throws {
        let answer = try client.fetch(.get(server.url("/data/articles.json")))
        XCTAssertEqual(answer.response.status, 200)
        XCTAssertTrue(answer.response.isSuccess)
        XCTAssertEqual(answer.body, try FixtureServer.sample("articles.json"))
        XCTAssertEqual(answer.response.bodyBytes, Int64(answer.body.count))
        XCTAssertEqual(answer.response.url, server.url("/data/articles.json"))
        XCTAssertEqual(answer.response.contentType, "application/json")
        XCTAssertEqual(answer.response.redirects, 0)
        XCTAssertFalse(answer.response.stopped)
        let etag = try XCTUnwrap(answer.response.etag)
        XCTAssertTrue(etag.hasPrefix("\"") && etag.hasSuffix("\""), etag)
        XCTAssertNotNil(answer.response.lastModified)
        XCTAssertEqual(answer.response.header("etag"), etag, "header names match in any case")
    }

    func testIfNoneMatchWithTheStoredETagAnswers304WithoutABody() throws {
        let first = try client.fetch(.get(server.url("/data/carfit.json")))
        let again = try client.fetch(.conditionalGet(server.url("/data/carfit.json"), etag: first.response.etag, lastModified: nil))
        XCTAssertEqual(again.response.status, 304)
        XCTAssertTrue(again.response.isNotModified)
        XCTAssertEqual(again.body, [])
        XCTAssertEqual(again.response.bodyBytes, 0)
        XCTAssertEqual(again.response.etag, first.response.etag)
    }

    func testIfModifiedSinceWithTheStoredDateAnswers304() throws {
        let first = try client.fetch(.get(server.url("/data/catalog.json")))
        let again = try client.fetch(.conditionalGet(server.url("/data/catalog.json"), etag: nil,
                                                     lastModified: first.response.lastModified))
        XCTAssertEqual(again.response.status, 304)
        XCTAssertEqual(again.body, [])
    }

    func testAnOutdatedETagGetsTheWholeDocument() throws {
        let answer = try client.fetch(.conditionalGet(server.url("/data/catalog.json"), etag: "\"outdated\"",
                                                      lastModified: "Mon, 01 Jan 2001 00:00:00 GMT"))
        XCTAssertEqual(answer.response.status, 200)
        XCTAssertEqual(answer.body, try FixtureServer.sample("catalog.json"))
    }

    func testGzipAndDeflateBodiesArriveDecoded() throws {
        for encoding in ["gzip", "deflate"] {
            let answer = try client.fetch(.get(server.url("/data/patterns.json?encoding=\(encoding)")))
            XCTAssertEqual(answer.response.header("Content-Encoding"), encoding)
            XCTAssertEqual(answer.body, try FixtureServer.sample("patterns.json"), encoding)
        }
    }

    func testChunkedBodiesArriveWhole() throws {
        for query in ["chunked=1&chunk=7", "chunked=1&chunk=1000&encoding=gzip"] {
            let answer = try client.fetch(.get(server.url("/data/carfit.json?\(query)")))
            XCTAssertEqual(answer.response.header("Transfer-Encoding"), "chunked")
            XCTAssertEqual(answer.body, try FixtureServer.sample("carfit.json"), query)
        }
    }

    func testTheBodyIsDeliveredChunkByChunkAsItArrives() throws {
        var chunks: [[UInt8]] = []
        var headSeen = 0
        let response = try client.stream(.get(server.url("/drip?bytes=5&interval_ms=100")), head: { head in
            headSeen += 1
            XCTAssertEqual(head.status, 200)
            XCTAssertTrue(chunks.isEmpty, "the head comes before the body")
            return true
        }) { chunk in
            chunks.append(Array(chunk))
            return true
        }
        XCTAssertEqual(headSeen, 1)
        XCTAssertGreaterThan(chunks.count, 1, "each dripped byte is its own chunk")
        XCTAssertEqual(chunks.joined().count, 5)
        XCTAssertEqual(response.bodyBytes, 5)
    }

    func testASlowReceiverIsNotASilentServer() throws {
        // The receiver takes longer over a chunk than timeoutMs allows the server to be silent.
        // (The rate limit is off: four bytes in over two seconds are slow by any rate.)
        let hasty = CurlClient(limits: HTTPLimits(timeoutMs: 300, totalTimeoutMs: 30_000, minBytesPerSecond: 0))
        var received = 0
        let response = try hasty.stream(.get(server.url("/drip?bytes=4&interval_ms=50"))) { chunk in
            Thread.sleep(forTimeInterval: 0.6)
            received += chunk.count
            return true
        }
        XCTAssertEqual(response.status, 200)
        XCTAssertEqual(received, 4)
    }

    func testUpToFiveRedirectsAreFollowed() throws {
        let answer = try client.fetch(.get(server.url("/redirect/5")))
        XCTAssertEqual(answer.response.status, 200)
        XCTAssertEqual(answer.response.redirects, 5)
        XCTAssertEqual(answer.response.url, server.url("/redirect/0"))
        XCTAssertEqual(String(decoding: answer.body, as: UTF8.self), #"{"redirected": true}"#)
    }

    func testASixthRedirectOrALoopIsReasonRedirects() {
        for path in ["/redirect/6", "/loop"] {
            let error = assertFails(.redirects) { () throws(HTTPError) in try client.fetch(.get(server.url(path))) }
            XCTAssertEqual(error?.url, server.url(path))
        }
    }

    func testRedirectsToOtherSchemesAreRefused() {
        for target in ["file:///etc/passwd", "ftp://127.0.0.1/x", "gopher://127.0.0.1/"] {
            let path = "/redirect-to?url=" + (target.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? "")
            assertFails(.redirects) { () throws(HTTPError) in try client.fetch(.get(server.url(path))) }
        }
    }

    func testNon2xxStatusesAreResponses() throws {
        for status in [400, 404, 410, 500, 503] {
            let answer = try client.fetch(.get(server.url("/status/\(status)")))
            XCTAssertEqual(answer.response.status, status)
            XCTAssertFalse(answer.response.isSuccess)
            XCTAssertEqual(String(decoding: answer.body, as: UTF8.self), #"{"status": \#(status)}"#)
        }
        let noContent = try client.fetch(.get(server.url("/status/204")))
        XCTAssertEqual(noContent.response.status, 204)
        XCTAssertEqual(noContent.body, [])
    }

    func testPostSendsAJSONBodyWithItsContentType() throws {
        let document = #"{"mutations": [{"id": "m1", "state": "Done"}], "note": "ünïcødé"}"#
        let answer = try client.fetch(.postJSON(server.url("/echo"), body: Array(document.utf8),
                                                headers: [HTTPHeader("X-Carfit-Test", "yes")]))
        XCTAssertEqual(answer.response.status, 200)
        let echo = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(answer.body)) as? [String: Any])
        XCTAssertEqual(echo["method"] as? String, "POST")
        XCTAssertEqual(echo["body"] as? String, document)
        let headers = try XCTUnwrap(echo["headers"] as? [String: String])
        XCTAssertEqual(headers["Content-Type"], "application/json")
        XCTAssertEqual(headers["X-Carfit-Test"], "yes")
        XCTAssertNil(headers["Expect"])
    }

    func testAnEmptyPostBodyIsSent() throws {
        let answer = try client.fetch(.postJSON(server.url("/echo"), body: []))
        let echo = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(answer.body)) as? [String: Any])
        XCTAssertEqual(echo["method"] as? String, "POST")
        XCTAssertEqual(echo["body"] as? String, "")
        XCTAssertEqual((echo["headers"] as? [String: String])?["Content-Length"], "0")
    }

    func testAGetSendsItsValidatorsAndAcceptsCompressedBodies() throws {
        let answer = try client.fetch(.conditionalGet(server.url("/echo"), etag: "\"abc\"", lastModified: "Tue, 24 Nov 2026 00:00:00 GMT"))
        let echo = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(answer.body)) as? [String: Any])
        XCTAssertEqual(echo["method"] as? String, "GET")
        let headers = try XCTUnwrap(echo["headers"] as? [String: String])
        XCTAssertEqual(headers["If-None-Match"], "\"abc\"")
        XCTAssertEqual(headers["If-Modified-Since"], "Tue, 24 Nov 2026 00:00:00 GMT")
        XCTAssertEqual(headers["User-Agent"], "libcarfit")
        let accepted = try XCTUnwrap(headers["Accept-Encoding"])
        XCTAssertTrue(accepted.contains("gzip") && accepted.contains("deflate"), accepted)
    }

    func testTheReceiverCanStopTheTransfer() throws {
        var delivered = 0
        var calls = 0
        let response = try client.stream(.get(server.url("/endless"))) { chunk in
            delivered += chunk.count
            calls += 1
            return calls < 3
        }
        XCTAssertTrue(response.stopped)
        XCTAssertEqual(response.status, 200)
        XCTAssertEqual(calls, 3)
        XCTAssertEqual(response.bodyBytes, Int64(delivered))
    }

    func testTheHeadCanRefuseTheBody() throws {
        var bodyCalls = 0
        let response = try client.stream(.get(server.url("/status/404")), head: { $0.status == 200 }) { _ in
            bodyCalls += 1
            return true
        }
        XCTAssertEqual(response.status, 404)
        XCTAssertTrue(response.stopped)
        XCTAssertEqual(bodyCalls, 0)
        XCTAssertEqual(response.bodyBytes, 0)
    }

    func testTheHeadIsSeenForAnEmptyBodyToo() throws {
        var seen: [Int] = []
        let response = try client.stream(.get(server.url("/status/204")), head: { seen.append($0.status); return true }) { _ in true }
        XCTAssertEqual(seen, [204])
        XCTAssertFalse(response.stopped)
    }

    func testFetchBeyondItsLimitIsTooLarge() {
        let error = assertFails(.tooLarge) { () throws(HTTPError) in
            try client.fetch(.get(server.url("/data/carfit.json")), maxBytes: 1000)
        }
        XCTAssertEqual(error?.status, 200)
    }

    func testDownloadWritesATemporaryFileRemovedWithItsObject() throws {
        let directory = try temporaryDirectory()
        var path = ""
        do {
            let download = try client.download(.get(server.url("/data/carfit.json?encoding=gzip")), directory: directory)
            path = download.path
            XCTAssertTrue(path.hasPrefix(directory + "/"))
            XCTAssertEqual(download.response.status, 200)
            XCTAssertEqual([UInt8](try Data(contentsOf: URL(fileURLWithPath: path))), try FixtureServer.sample("carfit.json"))
            XCTAssertEqual(download.response.bodyBytes, Int64(try FixtureServer.sample("carfit.json").count))
        }
        XCTAssertFalse(FileManager.default.fileExists(atPath: path), "the file goes with its object")
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: directory), [])
    }

    func testTheProgressHookCountsUpToTheBodyWithItsDeclaredLength() throws {
        let sample = try FixtureServer.sample("carfit.json")
        var calls: [(Int64, Int64?)] = []
        let download = try client.download(.get(server.url("/data/carfit.json"))) { received, expected in
            calls.append((received, expected))
        }
        XCTAssertFalse(calls.isEmpty)
        XCTAssertEqual(zip(calls, calls.dropFirst()).filter { $0.0.0 >= $0.1.0 }.count, 0, "counts only grow")
        XCTAssertEqual(calls.last?.0, Int64(sample.count), "the last count is the whole body")
        XCTAssertEqual(download.response.bodyBytes, Int64(sample.count))
        XCTAssertTrue(calls.allSatisfy { $0.1 == Int64(sample.count) }, "the declared length comes with every count")
    }

    func testTheProgressHookOfAChunkedOrEncodedBodyHasNoLength() throws {
        let sample = try FixtureServer.sample("carfit.json")
        for query in ["chunked=1&chunk=1000", "encoding=gzip"] {
            var calls: [(Int64, Int64?)] = []
            var delivered = 0
            let response = try client.stream(.get(server.url("/data/carfit.json?\(query)")), progress: { received, expected in
                calls.append((received, expected))
            }) { chunk in
                delivered += chunk.count
                XCTAssertEqual(calls.last?.0 ?? 0, Int64(delivered - chunk.count), "the hook hears a chunk after it was delivered")
                return true
            }
            XCTAssertFalse(calls.isEmpty, query)
            XCTAssertEqual(zip(calls, calls.dropFirst()).filter { $0.0.0 >= $0.1.0 }.count, 0, query)
            XCTAssertEqual(calls.last?.0, Int64(sample.count), query)
            XCTAssertEqual(response.bodyBytes, Int64(sample.count), query)
            XCTAssertTrue(calls.allSatisfy { $0.1 == nil }, "\(query): no length that counts the delivered bytes")
        }
    }

    func testTheProgressHookOfAFailedDownloadStopsShortOfTheDeclaredLength() throws {
        var calls: [(Int64, Int64?)] = []
        assertFails(.truncated) { () throws(HTTPError) in
            try client.download(.get(server.url("/short?declared=100000&sent=5000"))) { received, expected in
                calls.append((received, expected))
            }
        }
        XCTAssertEqual(calls.last?.0, 5000)
        XCTAssertEqual(calls.last?.1, 100_000)
    }

    func testAFailedDownloadLeavesNoFile() throws {
        let directory = try temporaryDirectory()
        assertFails(.truncated) { () throws(HTTPError) in
            try client.download(.get(server.url("/short?declared=100000&sent=5000")), directory: directory)
        }
        assertFails(.tooLarge) { () throws(HTTPError) in
            try CurlClient(limits: HTTPLimits(maxBodyBytes: 100_000)).download(.get(server.url("/endless")), directory: directory)
        }
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: directory), [])
    }

    func testADownloadInMemoryLeavesNoFileAndIsBoundedByTheLimit() throws {
        let directory = try temporaryDirectory()
        var path = ""
        do {
            let download = try client.download(.get(server.url("/data/carfit.json?encoding=gzip")), directory: directory,
                                               inMemory: true)
            path = download.path
            XCTAssertTrue(path.hasPrefix("/proc/self/fd/"), path)
            XCTAssertEqual(try FileManager.default.destinationOfSymbolicLink(atPath: path), "/memfd:carfit-http (deleted)")
            XCTAssertEqual([UInt8](try Data(contentsOf: URL(fileURLWithPath: path))), try FixtureServer.sample("carfit.json"))
            XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: directory), [], "nothing on disk")
        }
        let link = try? FileManager.default.destinationOfSymbolicLink(atPath: path)
        XCTAssertNotEqual(link, "/memfd:carfit-http (deleted)", "the file in memory goes with its object")
        assertFails(.tooLarge) { () throws(HTTPError) in
            try CurlClient(limits: HTTPLimits(maxBodyBytes: 100_000)).download(.get(server.url("/endless")), inMemory: true)
        }
    }

    func testADownloadIntoAMissingDirectoryIsStorage() {
        assertFails(.storage) { () throws(HTTPError) in
            try client.download(.get(server.url("/data/carfit.json")), directory: "/nonexistent/carfit-http-test")
        }
    }

    func testRequestsThatAreNotHTTPAreInvalid() {
        for url in ["", "ftp://127.0.0.1/", "file:///etc/passwd", "127.0.0.1/data", "http://exa mple.com/", "http://x/\r\nHost: y"] {
            assertFails(.notHTTP) { () throws(HTTPError) in try client.fetch(.get(url)) }
        }
        let smuggled = HTTPRequest.get(server.url("/echo"), headers: [HTTPHeader("X-A", "1\r\nX-B: 2")])
        assertFails(.invalidRequest) { () throws(HTTPError) in try client.fetch(smuggled) }
        let badName = HTTPRequest.get(server.url("/echo"), headers: [HTTPHeader("Bad Name", "1")])
        assertFails(.invalidRequest) { () throws(HTTPError) in try client.fetch(badName) }
    }

    func testAClosedPortIsRefused() throws {
        let port = try closedPort()
        let error = assertFails(.refused) { () throws(HTTPError) in try client.fetch(.get("http://127.0.0.1:\(port)/x")) }
        XCTAssertNil(error?.status)
        XCTAssertTrue(error?.isNetworkFailure == true)
    }

    func testAnUnknownHostIsDNS() {
        let error = assertFails(.dns) { () throws(HTTPError) in try client.fetch(.get("http://carfit-test.invalid/x")) }
        XCTAssertTrue(error?.isNetworkFailure == true)
    }

    func testACancellationFromAnotherThreadStopsAWaitingTransfer() {
        let token = HTTPCancellation()
        let patient = CurlClient(limits: HTTPLimits(timeoutMs: 20_000, totalTimeoutMs: 60_000))
        DispatchQueue.global().asyncAfter(deadline: .now() + 0.3) { token.cancel() }
        let start = DispatchTime.now()
        let error = assertFails(.cancelled) { () throws(HTTPError) in
            try patient.fetch(.get(server.url("/hang?seconds=30")), cancellation: token)
        }
        XCTAssertFalse(error?.isNetworkFailure ?? true)
        XCTAssertLessThan(secondsSince(start), 10, "ended long before the server or the timeouts would")
        // The token stays cancelled: a later request with it stops at once.
        assertFails(.cancelled) { () throws(HTTPError) in try patient.fetch(.get(server.url("/hang?seconds=30")), cancellation: token) }
    }

    func testCancelAllStopsEveryTransferInProgressOnly() throws {
        let patient = CurlClient(limits: HTTPLimits(timeoutMs: 20_000, totalTimeoutMs: 60_000))
        let server = try XCTUnwrap(server)
        let group = DispatchGroup()
        let underWay = DispatchSemaphore(value: 0)
        let reasons = Collected<HTTPError.Reason>()
        let paths = ["/stall?bytes=10&seconds=30", "/drip?bytes=1000&interval_ms=50", "/stall?bytes=1000&seconds=30"]
        for path in paths {
            DispatchQueue.global().async(group: group) {
                do throws(HTTPError) {
                    _ = try patient.stream(.get(server.url(path)), head: { _ in underWay.signal(); return true }) { _ in true }
                    reasons.append(.transport)
                } catch {
                    reasons.append(error.reason)
                }
            }
        }
        // Every transfer has its response's head before the cancellation.
        for _ in paths { XCTAssertEqual(underWay.wait(timeout: .now() + 15), .success) }
        patient.cancelAll()
        XCTAssertEqual(group.wait(timeout: .now() + 15), .success)
        XCTAssertEqual(reasons.values, [.cancelled, .cancelled, .cancelled])
        // A request started afterwards is not affected.
        XCTAssertEqual(try? patient.fetch(.get(server.url("/data/articles.json"))).response.status, 200)
    }

    func testManyThreadsAtOnce() throws {
        let expected = try FixtureServer.sample("articles.json")
        let server = try XCTUnwrap(server)
        let client = client
        let good = Collected<Bool>()
        DispatchQueue.concurrentPerform(iterations: 8) { _ in
            for _ in 0..<5 {
                let answer = try? client.fetch(.get(server.url("/data/articles.json?encoding=gzip")))
                good.append(answer?.body == expected)
            }
        }
        XCTAssertEqual(good.values, Array(repeating: true, count: 40))
    }

    // MARK: - Helpers

    private func temporaryDirectory() throws -> String {
        let path = NSTemporaryDirectory() + "carfit-http-test-" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        addTeardownBlock { try? FileManager.default.removeItem(atPath: path) }
        return path
    }
}

/// A loopback port nothing listens on: bound, then closed.
func closedPort() throws -> Int {
    let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    guard fd >= 0 else { throw FixtureServer.FixtureError(description: "socket failed") }
    defer { close(fd) }
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_addr.s_addr = inet_addr("127.0.0.1")
    address.sin_port = 0
    var length = socklen_t(MemoryLayout<sockaddr_in>.size)
    let bound = withUnsafeMutablePointer(to: &address) {
        $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { pointer in
            bind(fd, pointer, length) == 0 && getsockname(fd, pointer, &length) == 0
        }
    }
    guard bound else { throw FixtureServer.FixtureError(description: "bind failed") }
    return Int(UInt16(bigEndian: address.sin_port))
}
