// carfit-http-check: makes requests against the fixture server (Tests/servers/http_fixture.py)
// and checks each answer, so that the client's every path (success, 304, redirects, POST, cut
// off, refused, cancelled, temporary file) can be run under valgrind:
//
//   python3 Tests/servers/http_fixture.py --port 0          # prints its port
//   valgrind --leak-check=full --error-exitcode=1 .build/debug/CarFitHTTPCheck http://127.0.0.1:PORT 100
//
// Exits 0 when every answer was the expected one, 1 otherwise.
import CarFitHTTP
#if canImport(Glibc)
import Glibc
#endif

let arguments = CommandLine.arguments
guard arguments.count >= 2 else {
    print("usage: CarFitHTTPCheck BASE_URL [REQUESTS]")
    exit(2)
}
let base = arguments[1]
let total = arguments.count >= 3 ? max(Int(arguments[2]) ?? 100, 1) : 100

let client = CurlClient(limits: HTTPLimits(timeoutMs: 5000, totalTimeoutMs: 30_000, maxBodyBytes: 1 << 20))
let cancelled = HTTPCancellation()
cancelled.cancel()

/// One kind of request and the check of its outcome.
struct Case {
    var name: String
    var run: () -> Bool
}

func expect(_ reason: HTTPError.Reason, _ body: () throws(HTTPError) -> Void) -> Bool {
    do throws(HTTPError) {
        try body()
        return false
    } catch {
        return error.reason == reason
    }
}

let cases: [Case] = [
    Case(name: "get") { (try? client.fetch(.get(base + "/data/articles.json")))?.response.status == 200 },
    Case(name: "gzip") { (try? client.fetch(.get(base + "/data/carfit.json?encoding=gzip")))?.body.count ?? 0 > 0 },
    Case(name: "chunked") { (try? client.fetch(.get(base + "/data/catalog.json?chunked=1&chunk=100")))?.response.status == 200 },
    Case(name: "not modified") {
        guard let first = try? client.fetch(.get(base + "/data/patterns.json")) else { return false }
        let again = try? client.fetch(.conditionalGet(base + "/data/patterns.json", etag: first.response.etag, lastModified: nil))
        return again?.response.status == 304
    },
    Case(name: "redirects") { (try? client.fetch(.get(base + "/redirect/3")))?.response.redirects == 3 },
    Case(name: "redirect loop") { expect(.redirects) { () throws(HTTPError) in _ = try client.fetch(.get(base + "/loop")) } },
    Case(name: "post") { (try? client.fetch(.postJSON(base + "/echo", body: Array(#"{"a": 1}"#.utf8))))?.response.status == 200 },
    Case(name: "404") { (try? client.fetch(.get(base + "/status/404")))?.response.status == 404 },
    Case(name: "too large") { expect(.tooLarge) { () throws(HTTPError) in _ = try client.fetch(.get(base + "/endless")) } },
    Case(name: "bomb") { expect(.tooLarge) { () throws(HTTPError) in _ = try client.fetch(.get(base + "/bomb")) } },
    Case(name: "truncated") { expect(.truncated) { () throws(HTTPError) in _ = try client.fetch(.get(base + "/short")) } },
    Case(name: "no response") { expect(.noResponse) { () throws(HTTPError) in _ = try client.fetch(.get(base + "/silent")) } },
    Case(name: "cancelled") {
        expect(.cancelled) { () throws(HTTPError) in _ = try client.fetch(.get(base + "/data/carfit.json"), cancellation: cancelled) }
    },
    Case(name: "stopped") {
        var calls = 0
        let response = try? client.stream(.get(base + "/endless")) { _ in
            calls += 1
            return calls < 2
        }
        return response?.stopped == true
    },
    Case(name: "download") {
        guard let download = try? client.download(.get(base + "/data/transactions.json")) else { return false }
        return access(download.path, R_OK) == 0 && download.response.bodyBytes > 0
    },
    Case(name: "invalid") { expect(.notHTTP) { () throws(HTTPError) in _ = try client.fetch(.get("ftp://127.0.0.1/")) } },
]

var failures = 0
for index in 0..<total {
    let check = cases[index % cases.count]
    if !check.run() {
        failures += 1
        print("FAILED: request \(index + 1) (\(check.name))")
    }
}
print("\(total) requests, \(failures) failed")
exit(failures == 0 ? 0 : 1)
