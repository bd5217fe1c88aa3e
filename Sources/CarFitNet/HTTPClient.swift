import CarFitCore
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Blocking HTTP GET over URLSession (FoundationNetworking on Linux), for the core's sources
/// and images. Every failure is an `HTTPFailure` whose message says which kind it was and whose
/// reason says it for programs: `refused`, `timeout`, `dns`, `network`, `cancelled`,
/// `transport`, `no_response` or `too_large` (`not_http` for a URL that is not http or https).
public final class HTTPClient: @unchecked Sendable {
    public struct Response: Sendable {
        public var status: Int
        public var body: [UInt8]
        public var contentType: String?

        /// The status's reason phrase ("Not Found"), empty when there is none.
        public var statusPhrase: String { HTTPURLResponse.localizedString(forStatusCode: status) }
    }

    private let session: URLSession
    public let timeoutMs: Int

    public init(timeoutMs: Int) {
        self.timeoutMs = timeoutMs
        let configuration = URLSessionConfiguration.ephemeral
        // FoundationNetworking on Linux truncates timeouts to whole seconds (300 ms fails at
        // once, 1500 ms at 1 s), so the session gets a whole second more than asked and `get`
        // enforces the exact deadline itself.
        configuration.timeoutIntervalForRequest = HTTPClient.sessionTimeout(timeoutMs)
        configuration.timeoutIntervalForResource = HTTPClient.sessionTimeout(timeoutMs)
        configuration.requestCachePolicy = .reloadIgnoringLocalCacheData
        configuration.urlCache = nil
        session = URLSession(configuration: configuration)
    }

    deinit { session.invalidateAndCancel() }

    /// GETs `url` and returns the response of any status; transport failures (refused, timed
    /// out, DNS, TLS, ...) throw. `maxBytes` bounds the body.
    public func get(_ url: String, maxBytes: Int = 1 << 30) throws(HTTPFailure) -> Response {
        guard let target = URL(string: url), let scheme = target.scheme?.lowercased(), scheme == "http" || scheme == "https" else {
            throw HTTPFailure(.notHTTP, url: url, message: "\"\(url.prefix(200))\" is not an http or https URL.")
        }
        var request = URLRequest(url: target)
        request.timeoutInterval = HTTPClient.sessionTimeout(timeoutMs)
        let box = ResultBox()
        let task = session.dataTask(with: request) { data, response, error in
            box.set(data: data, response: response, error: error)
        }
        task.resume()
        // The whole exchange (connect, headers, body) must finish within timeoutMs.
        guard box.wait(seconds: Double(timeoutMs) / 1000) else {
            task.cancel()
            throw HTTPFailure(.timeout, url: url, message: "\(url.prefix(200)) timed out after \(timeoutMs) ms.")
        }
        if let error = box.error {
            let (reason, message) = HTTPClient.describe(error, url: url, timeoutMs: timeoutMs)
            throw HTTPFailure(reason, url: url, message: message)
        }
        guard let http = box.response as? HTTPURLResponse else {
            throw HTTPFailure(.noResponse, url: url, message: "\(url.prefix(200)) gave no HTTP response.")
        }
        guard (box.data?.count ?? 0) <= maxBytes else {
            throw HTTPFailure(.tooLarge, url: url, message: "\(url.prefix(200)) answered with more than \(maxBytes) bytes.")
        }
        let body = box.data.map { [UInt8]($0) } ?? []
        return Response(status: http.statusCode, body: body,
                        contentType: http.value(forHTTPHeaderField: "Content-Type"))
    }

    /// Cancels every request in progress on this client; each waiting `get` then throws
    /// an `HTTPFailure` (reason `cancelled`). Requests started afterwards are not affected.
    public func cancelAll() {
        session.getAllTasks { tasks in
            for task in tasks { task.cancel() }
        }
    }

    /// The session's own timeout in seconds: whole seconds, above `timeoutMs`.
    static func sessionTimeout(_ timeoutMs: Int) -> TimeInterval {
        Double(max(0, timeoutMs) / 1000 + 2)
    }

    /// The reason and the message of a transport failure.
    static func describe(_ error: Error, url: String, timeoutMs: Int) -> (HTTPFailure.Reason, String) {
        let where_ = String(url.prefix(200))
        if let e = error as? URLError {
            switch e.code {
            case .timedOut: return (.timeout, "\(where_) timed out after \(timeoutMs) ms.")
            case .cannotConnectToHost: return (.refused, "\(where_) refused the connection.")
            case .cannotFindHost, .dnsLookupFailed: return (.dns, "\(where_): the host name could not be resolved.")
            case .notConnectedToInternet, .networkConnectionLost: return (.network, "\(where_): the network connection was lost.")
            case .cancelled: return (.cancelled, "\(where_): the request was cancelled.")
            default: return (.transport, "\(where_) could not be fetched (\(e.code.rawValue): \(e.localizedDescription)).")
            }
        }
        return (.transport, "\(where_) could not be fetched: \(error.localizedDescription).")
    }
}

/// The completion handler's results, handed to the waiting thread.
private final class ResultBox: @unchecked Sendable {
    private let done = DispatchSemaphore(value: 0)
    private let lock = NSLock()
    private var _data: Data?
    private var _response: URLResponse?
    private var _error: Error?

    func set(data: Data?, response: URLResponse?, error: Error?) {
        lock.lock()
        _data = data
        _response = response
        _error = error
        lock.unlock()
        done.signal()
    }

    func wait(seconds: Double) -> Bool { done.wait(timeout: .now() + seconds) == .success }

    var data: Data? { lock.lock(); defer { lock.unlock() }; return _data }
    var response: URLResponse? { lock.lock(); defer { lock.unlock() }; return _response }
    var error: Error? { lock.lock(); defer { lock.unlock() }; return _error }
}
