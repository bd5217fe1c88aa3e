import CarFitCore
import CarFitHTTP
import CarFitIO
import CarFitNet

/// Fetching a source's document for a refresh. The network's failures are classified as for
/// every request (`CarFitError(_:_:)`, `NetworkTarget`): the transport's reason (`refused`,
/// `timeout`, `dns`, …, see `HTTPError`: also `redirects`, `too_large`, `truncated`; a URL that
/// is not http or https is `invalid`, reason `not_http`), `http_status` (with `httpStatus`), a
/// 401 or 403 `unauthorized`. The document's are `unavailable` too: `empty`, `html`,
/// `truncated`, `not_json`, `not_document` or `rejected`, always with `url`.
enum SourceFetch {
    /// A 2xx answer with a body that is not blank, downloaded to a temporary file (removed
    /// when this goes away) and opened for reading.
    final class Body {
        let url: String
        let response: HTTPResponse
        let download: HTTPDownload
        let file: FileReader

        init(url: String, response: HTTPResponse, download: HTTPDownload, file: FileReader) {
            self.url = url
            self.response = response
            self.download = download
            self.file = file
        }

        var contentType: String? { response.contentType }
    }

    /// What a GET brought: a document, or a 304 for the validators sent.
    enum Outcome {
        case body(Body)
        case notModified(HTTPResponse)
    }

    /// GETs `url` (conditionally when `validators` has any), the source named `what`, with the
    /// planner's token where it belongs (`HTTPClient.download`): a 401 or 403 is
    /// `unauthorized`; a transport failure, another status than 2xx or 304, or a blank body
    /// is `unavailable`. `what` names the expected
    /// document in messages ("visits", "articles"). The body goes to a temporary file, never
    /// whole into memory. `progress` hears the bytes as they arrive: the whole operation is
    /// `phases` times the body's size (the download its first part), its total known from the
    /// declared length or, without one, once the body is complete.
    static func fetch(_ url: String, http: HTTPClient, validators: SourceValidators = SourceValidators(),
                      what: String, progress: ProgressReporter? = nil, phases: Int64 = 1) throws(CarFitError) -> Outcome {
        let download: HTTPDownload
        var expected = false
        let target = NetworkTarget.source(what)
        do throws(HTTPError) {
            download = try http.download(.conditionalGet(url, etag: validators.etag, lastModified: validators.lastModified),
                                         source: what, progress: progress.map { reporter in
                { received, declared in
                    if !expected, let declared {
                        expected = true
                        reporter.expect(total: declared.multipliedReportingOverflow(by: phases).partialValue, size: declared)
                    }
                    reporter.advance(to: received)
                }
            })
        } catch {
            throw CarFitError(error, target)
        }
        let response = download.response
        if response.isSuccess, let progress {
            let size = response.bodyBytes
            progress.expect(total: size.multipliedReportingOverflow(by: phases).partialValue, size: size)
        }
        let shown = String(url.prefix(200))
        if response.isNotModified && !validators.isEmpty { return .notModified(response) }
        if let refused = CarFitError.answered(response.status, url: url, target) { throw refused }
        let file: FileReader
        let blank: Bool
        do throws(CarFitError) {
            file = try FileReader(path: download.path, field: "file")
            blank = try file.firstByte(notMatching: { $0 == 0x20 || $0 == 0x0A || $0 == 0x0D || $0 == 0x09 }) == nil
        } catch {
            throw CarFitError.unavailable(url, "storage", "The body of \(shown) could not be read back: \(error.message)")
        }
        if blank {
            throw CarFitError.unavailable(url, "empty", "\(shown) answered with an empty body instead of the \(what) document.")
        }
        return .body(Body(url: url, response: response, download: download, file: file))
    }

    /// A fetched body read whole by the area's `decode`; anything else is `unavailable`
    /// (`storage`, `html`, `truncated`, `not_json`, `not_document`, `rejected`).
    static func document<Value>(_ body: Body, what: String, picked: PickedDocument? = nil,
                                _ decode: DocumentDecoder<Value>) throws(CarFitError) -> Value {
        let shown = String(body.url.prefix(200))
        switch SourceDocument.read(body.file, contentType: body.contentType, picked: picked, decode) {
        case .success(let value):
            return value
        case .failure(.unreadable(let error)):
            throw CarFitError.unavailable(body.url, "storage", "The body of \(shown) could not be read back: \(error.message)")
        case .failure(.html):
            throw CarFitError.unavailable(body.url, "html",
                "\(shown) answered with an HTML page instead of the \(what) document (a network sign-in page or an error page?).")
        case .failure(.truncated(let e)):
            throw CarFitError.unavailable(body.url, "truncated",
                "\(shown) answered with JSON that breaks off at byte \(e.position) (\(e.text)): the \(what) document is incomplete.",
                details: .init(position: e.at))
        case .failure(.notJSON(let e)):
            throw CarFitError.unavailable(body.url, "not_json",
                "\(shown) answered with text that is not JSON (line \(e.line), column \(e.column): \(e.text)) instead of the \(what) document.",
                details: .init(position: e.at))
        case .failure(.notObject):
            throw CarFitError.unavailable(body.url, "not_document",
                                          "\(shown) answered with JSON that is not the \(what) document: it is not an object.")
        case .failure(.refused(let error)):
            throw notDocument(body.url, what: what, error)
        }
    }

    /// The `unavailable` error for a fetched JSON object the import refuses as a whole:
    /// `rejected` (with the import's `rejected` list) when it had records and all were
    /// rejected, else `not_document`.
    static func notDocument(_ url: String, what: String, _ error: CarFitError) -> CarFitError {
        let details = CarFitError.Details(documentField: error.field, rejected: error.details.rejected)
        if error.details.rejected != nil {
            return CarFitError.unavailable(url, "rejected",
                "\(url.prefix(200)) answered with a \(what) document that cannot be used: \(error.message)", details: details)
        }
        return CarFitError.unavailable(url, "not_document",
            "\(url.prefix(200)) answered with JSON that is not the \(what) document: \(error.message)", details: details)
    }
}
