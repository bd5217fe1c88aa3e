import CarFitCore
import CarFitIO
import CarFitNet
import Foundation

/// Fetching a source's document for a refresh. Every failure is `unavailable`; the error
/// document's `reason` says which: the transport's (`refused`, `timeout`, `dns`, …, see
/// `HTTPFailure`), `http_status` (with `httpStatus`), `empty`, `html`, `truncated`, `not_json`,
/// `not_document` or `rejected`, always with `url`.
enum SourceFetch {
    /// A 2xx answer with a body that is not blank.
    struct Body {
        var url: String
        var bytes: [UInt8]
        var contentType: String?
    }

    /// GETs `url`: a transport failure, a status other than 2xx or a blank body is
    /// `unavailable`. `what` names the expected document in messages ("visits", "articles").
    static func fetch(_ url: String, timeoutMs: Int, what: String) throws(CarFitError) -> Body {
        let response: HTTPClient.Response
        do throws(HTTPFailure) {
            response = try client(timeoutMs: timeoutMs).get(url)
        } catch {
            throw CarFitError(error)
        }
        let shown = String(url.prefix(200))
        guard (200...299).contains(response.status) else {
            let phrase = response.statusPhrase
            let named = phrase.isEmpty ? "" : " (\(phrase))"
            throw CarFitError.unavailable(url, "http_status",
                                     "\(shown) answered with HTTP status \(response.status)\(named) instead of the \(what) document.",
                                     extra: JSONObject(["httpStatus": .int(Int64(response.status))]))
        }
        if response.body.allSatisfy({ $0 == 0x20 || $0 == 0x0A || $0 == 0x0D || $0 == 0x09 }) {
            throw CarFitError.unavailable(url, "empty", "\(shown) answered with an empty body instead of the \(what) document.")
        }
        return Body(url: url, bytes: response.body, contentType: response.contentType)
    }

    /// GETs `url` and returns its body as a JSON object.
    static func document(_ url: String, timeoutMs: Int, what: String) throws(CarFitError) -> Fields {
        try document(try fetch(url, timeoutMs: timeoutMs, what: what), what: what)
    }

    /// A fetched body parsed whole as a JSON object; anything else is `unavailable` (`html`,
    /// `truncated`, `not_json`, `not_document`).
    static func document(_ body: Body, what: String) throws(CarFitError) -> Fields {
        let shown = String(body.url.prefix(200))
        switch JanssonParser.parse(bytes: body.bytes) {
        case .failure(let e):
            if looksLikeHTML(body.bytes, contentType: body.contentType) {
                throw CarFitError.unavailable(body.url, "html",
                    "\(shown) answered with an HTML page instead of the \(what) document (a network sign-in page or an error page?).")
            }
            if e.position >= body.bytes.count {
                throw CarFitError.unavailable(body.url, "truncated",
                    "\(shown) answered with JSON that breaks off at byte \(e.position) (\(e.text)): the \(what) document is incomplete.",
                    extra: position(e))
            }
            throw CarFitError.unavailable(body.url, "not_json",
                "\(shown) answered with text that is not JSON (line \(e.line), column \(e.column): \(e.text)) instead of the \(what) document.",
                extra: position(e))
        case .success(let json):
            guard case .object(let object) = json else {
                throw CarFitError.unavailable(body.url, "not_document",
                                         "\(shown) answered with JSON that is not the \(what) document: it is not an object.")
            }
            return Fields(object)
        }
    }

    /// One client (one URLSession) per timeout, shared by every core: a session per refresh
    /// costs a connection pool and worker threads each time.
    nonisolated(unsafe) private static var clients: [Int: HTTPClient] = [:]
    private static let clientsLock = NSLock()

    static func client(timeoutMs: Int) -> HTTPClient {
        clientsLock.lock()
        defer { clientsLock.unlock() }
        if let c = clients[timeoutMs] { return c }
        let c = HTTPClient(timeoutMs: timeoutMs)
        clients[timeoutMs] = c
        return c
    }

    /// The `unavailable` error for a fetched JSON object the import refuses as a whole:
    /// `rejected` (with the import's `rejected` list) when it had records and all were
    /// rejected, else `not_document`.
    static func notDocument(_ url: String, what: String, _ error: CarFitError) -> CarFitError {
        var extra = JSONObject()
        if let field = error.field { extra["documentField"] = .string(field) }
        if let rejected = error.extra["rejected"] {
            extra["rejected"] = rejected
            return CarFitError.unavailable(url, "rejected",
                "\(url.prefix(200)) answered with a \(what) document that cannot be used: \(error.message)", extra: extra)
        }
        return CarFitError.unavailable(url, "not_document",
            "\(url.prefix(200)) answered with JSON that is not the \(what) document: \(error.message)", extra: extra)
    }

    static func position(_ e: JanssonParser.SyntaxError) -> JSONObject {
        JSONObject(["line": .int(Int64(e.line)), "column": .int(Int64(e.column)), "position": .int(Int64(e.position))])
    }

    /// An HTML content type, or a body whose first non-blank character opens a tag.
    static func looksLikeHTML(_ body: [UInt8], contentType: String?) -> Bool {
        if let type = contentType?.lowercased(), type.contains("text/html") || type.contains("xhtml") { return true }
        let first = body.first { $0 != 0x20 && $0 != 0x0A && $0 != 0x0D && $0 != 0x09 && $0 != 0xEF && $0 != 0xBB && $0 != 0xBF }
        return first == UInt8(ascii: "<")
    }
}
