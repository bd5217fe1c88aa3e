import XCTest
import CarFitCore
import CarFitHTTP

/// The domain's URL check (`HTTPURL`, for configs and requests) against libcurl's URL parser,
/// which the transfers use: a URL the domain accepts is one libcurl parses as http or https
/// with a host, and one it refuses is refused by libcurl or malformed by RFC 3986.
final class URLCheckTests: XCTestCase {
    func testTheDomainsCheckAgreesWithLibcurl() {
        let accepted = ["http://example.com", "https://example.com/", "HTTP://EXAMPLE.COM/a/b?c=d#e",
                        "http://127.0.0.1:8080/visits.json", "https://[::1]:443/x", "http://user:pw@host/p",
                        "http://example.com/a%20b", "https://xn--bcher-kva.example/", "http://h/~a_b-c.d!$&'()*+,;=:@/?"]
        for url in accepted {
            XCTAssertTrue(HTTPURL.isValid(url), url)
            XCTAssertTrue(CurlURL.isHTTP(url), url)
        }
        let refusedByBoth = ["", "ftp://example.com/x", "file:///etc/passwd", "example.com/x", "/relative/a.png",
                             "not a url", "http://exa mple.com/", "http://x/\r\nHost: y", "http://",
                             "http://host:99999999/", "gopher://127.0.0.1/", "mailto:a@b.c"]
        for url in refusedByBoth {
            XCTAssertFalse(HTTPURL.isValid(url), url)
            XCTAssertFalse(CurlURL.isHTTP(url), url)
        }
        // Malformed escapes and characters outside RFC 3986: refused by the domain, whatever
        // libcurl would make of them.
        for url in ["http://example.com/%zz", "http://example.com/a\"b", "http://example.com/<x>", "http://ex ample/",
                    "http:///path"] {
            XCTAssertFalse(HTTPURL.isValid(url), url)
        }
        XCTAssertEqual(CurlURL("https://Example.com:8443/a/b?q")?.host, "Example.com")
        XCTAssertEqual(CurlURL("https://Example.com:8443/a/b?q")?.port, 8443)
        XCTAssertEqual(CurlURL("https://Example.com:8443/a/b?q")?.path, "/a/b")
    }
}
