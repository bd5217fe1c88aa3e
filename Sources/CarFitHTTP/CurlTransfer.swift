import CCurl
#if canImport(Glibc)
import Glibc
#endif

/// One request on one libcurl easy handle, driven through a private multi handle so that the
/// calling thread wakes at least every 100 ms: it then notices a cancellation, or a server
/// that has sent nothing for `timeoutMs`, without waiting for libcurl's next callback.
///
/// Every libcurl resource (the header list, the error buffer) is owned by this object and
/// released in `deinit`, whichever way `run` ends; the easy and multi handles are borrowed from
/// the client's pool and given back then (with their kept-alive connections). The callbacks
/// get an unretained pointer to it; they only run inside `run`, while the caller holds it.
final class CurlTransfer {
    /// Why the transfer was stopped from this side.
    enum Abort {
        case bodyTooLarge, headersTooLarge, stoppedByReceiver, cancelled, stalled
    }

    private let request: HTTPRequest
    private let limits: HTTPLimits
    private let userAgent: String
    private let isCancelled: () -> Bool
    private let onHead: (HTTPResponse) -> Bool
    private let onBody: (UnsafeRawBufferPointer) -> Bool
    private let onProgress: ((Int64, Int64?) -> Void)?
    /// Hears the request body's bytes sent so far (a PUT's).
    private let onSent: ((Int64) -> Void)?
    private let pool: CurlHandlePool
    /// The final response's declared body length, when it has one and no content coding (so
    /// that it counts the bytes delivered); known once the first chunk arrives.
    private var expectedBytes: Int64?

    private var handles: CurlHandles?
    private var easy: UnsafeMutableRawPointer?
    private var multi: UnsafeMutableRawPointer?
    private var added = false
    private var headerList: UnsafeMutablePointer<curl_slist>?
    private let errorBuffer: UnsafeMutablePointer<CChar>

    private var headers: [HTTPHeader] = []
    private var headerBytes = 0
    private var bodyBytes: Int64 = 0
    /// The file body's bytes handed to libcurl.
    private var sentBytes: Int64 = 0
    private var head: HTTPResponse?
    private var abort: Abort?
    private let startedAt: UInt64
    private var lastActivity: UInt64
    private var lastDown: curl_off_t = 0
    private var lastUp: curl_off_t = 0

    init(request: HTTPRequest, limits: HTTPLimits, userAgent: String, pool: CurlHandlePool, isCancelled: @escaping () -> Bool,
         onHead: @escaping (HTTPResponse) -> Bool, onBody: @escaping (UnsafeRawBufferPointer) -> Bool,
         onProgress: ((Int64, Int64?) -> Void)? = nil, onSent: ((Int64) -> Void)? = nil) {
        self.request = request
        self.limits = limits.clamped
        self.userAgent = userAgent
        self.pool = pool
        self.isCancelled = isCancelled
        self.onHead = onHead
        self.onBody = onBody
        self.onProgress = onProgress
        self.onSent = onSent
        errorBuffer = UnsafeMutablePointer<CChar>.allocate(capacity: Int(CURL_ERROR_SIZE))
        errorBuffer.initialize(repeating: 0, count: Int(CURL_ERROR_SIZE))
        startedAt = CurlTransfer.now()
        lastActivity = startedAt
    }

    deinit {
        if let multi, let easy, added { curl_multi_remove_handle(multi, easy) }
        if let handles { pool.give(handles) }
        if let headerList { curl_slist_free_all(headerList) }
        errorBuffer.deallocate()
    }

    /// Performs the request: the response of any status, or the failure. Call once.
    func run() throws(HTTPError) -> HTTPResponse {
        guard CurlGlobal.ready else { throw failure(.transport, "libcurl could not be initialised.") }
        guard request.hasHTTPURL else {
            throw failure(.notHTTP, "\(shortURL) is not an http or https URL.")
        }
        if let bad = request.headers.first(where: { !$0.isWellFormed }) {
            throw failure(.invalidRequest, "The request header \"\(bad.name.prefix(100))\" is malformed.")
        }
        guard let handles = pool.take() else { throw failure(.transport, "libcurl could not create a handle.") }
        self.handles = handles
        let easy = handles.easy
        let multi = handles.multi
        self.easy = easy
        self.multi = multi
        try configure(easy)
        guard curl_multi_add_handle(multi, easy) == CURLM_OK else {
            throw failure(.transport, "libcurl could not start the transfer.")
        }
        added = true
        let result = try drive(multi)
        return try finish(result)
    }

    // MARK: - Setup

    private func configure(_ easy: UnsafeMutableRawPointer) throws(HTTPError) {
        let context = Unmanaged.passUnretained(self).toOpaque()
        // A receive buffer of 256 KiB (libcurl's default is 16 KiB): a large body costs a
        // sixteenth of the reads from its socket. Only a speed-up: libcurl refuses it on a
        // handle whose buffer a failed transfer left allocated, and then keeps its own.
        _ = cf_curl_setopt_long(easy, CURLOPT_BUFFERSIZE, 256 * 1024)
        var codes: [CURLcode] = [
            cf_curl_setopt_string(easy, CURLOPT_URL, request.url),
            cf_curl_setopt_pointer(easy, CURLOPT_ERRORBUFFER, errorBuffer),
            cf_curl_setopt_long(easy, CURLOPT_NOSIGNAL, 1),
            // Only http and https, on the first request and on every redirect.
            cf_curl_setopt_string(easy, CURLOPT_PROTOCOLS_STR, "http,https"),
            cf_curl_setopt_string(easy, CURLOPT_REDIR_PROTOCOLS_STR, "http,https"),
            cf_curl_setopt_long(easy, CURLOPT_FOLLOWLOCATION, 1),
            cf_curl_setopt_long(easy, CURLOPT_MAXREDIRS, limits.maxRedirects),
            // A redirect to another scheme, host or port is followed without the request's
            // Authorization (and Cookie) header: the planner's token stays on its origin.
            cf_curl_setopt_long(easy, CURLOPT_UNRESTRICTED_AUTH, 0),
            // Every encoding libcurl can decode is accepted; the body is delivered decoded.
            cf_curl_setopt_string(easy, CURLOPT_ACCEPT_ENCODING, ""),
            cf_curl_setopt_long(easy, CURLOPT_CONNECTTIMEOUT_MS, limits.timeoutMs),
            cf_curl_setopt_long(easy, CURLOPT_TIMEOUT_MS, limits.totalTimeoutMs),
            // A declared Content-Length past the limit fails before the body is read.
            cf_curl_setopt_off(easy, CURLOPT_MAXFILESIZE_LARGE, curl_off_t(limits.maxBodyBytes)),
            cf_curl_setopt_string(easy, CURLOPT_USERAGENT, userAgent),
            cf_curl_setopt_write_callback(easy, CURLOPT_WRITEFUNCTION, CurlTransfer.writeCallback),
            cf_curl_setopt_pointer(easy, CURLOPT_WRITEDATA, context),
            cf_curl_setopt_write_callback(easy, CURLOPT_HEADERFUNCTION, CurlTransfer.headerCallback),
            cf_curl_setopt_pointer(easy, CURLOPT_HEADERDATA, context),
            cf_curl_setopt_long(easy, CURLOPT_NOPROGRESS, 0),
            cf_curl_setopt_xferinfo_callback(easy, CurlTransfer.progressCallback),
            cf_curl_setopt_pointer(easy, CURLOPT_XFERINFODATA, context),
        ]
        var lines = request.headers.map(\.line)
        if request.method == .post {
            // No "Expect: 100-continue" round trip before the body.
            lines.append("Expect:")
            codes.append(cf_curl_setopt_long(easy, CURLOPT_POST, 1))
            codes.append(cf_curl_setopt_off(easy, CURLOPT_POSTFIELDSIZE_LARGE, curl_off_t(request.body.count)))
            codes.append(request.body.withUnsafeBytes { bytes in
                // COPYPOSTFIELDS copies the body; an empty body still needs a valid pointer.
                cf_curl_setopt_pointer(easy, CURLOPT_COPYPOSTFIELDS, UnsafeMutableRawPointer(mutating: bytes.baseAddress) ?? UnsafeMutableRawPointer(errorBuffer))
            })
        }
        if request.method == .put {
            let length = request.file?.length ?? 0
            lines.append("Expect:")
            codes.append(cf_curl_setopt_long(easy, CURLOPT_UPLOAD, 1))
            // A known size: Content-Length, never a chunked body.
            codes.append(cf_curl_setopt_off(easy, CURLOPT_INFILESIZE_LARGE, curl_off_t(length)))
            codes.append(cf_curl_setopt_write_callback(easy, CURLOPT_READFUNCTION, CurlTransfer.readCallback))
            codes.append(cf_curl_setopt_pointer(easy, CURLOPT_READDATA, context))
        }
        for line in lines {
            guard let appended = curl_slist_append(headerList, line) else {
                throw failure(.transport, "libcurl could not hold the request headers.")
            }
            headerList = appended
        }
        if limits.minBytesPerSecond > 0 {
            // Slower than minBytesPerSecond for the whole of timeoutMs (libcurl counts whole
            // seconds) is CURLE_OPERATION_TIMEDOUT.
            codes.append(cf_curl_setopt_long(easy, CURLOPT_LOW_SPEED_LIMIT, limits.minBytesPerSecond))
            codes.append(cf_curl_setopt_long(easy, CURLOPT_LOW_SPEED_TIME, lowSpeedSeconds))
        }
        if let headerList { codes.append(cf_curl_setopt_slist(easy, CURLOPT_HTTPHEADER, headerList)) }
        if let bad = codes.first(where: { $0 != CURLE_OK }) {
            throw failure(.transport, "libcurl refused an option of the request (\(CurlTransfer.describe(bad))).")
        }
    }

    // MARK: - The transfer loop

    /// Runs the transfer to its end: libcurl's result, or nil when this side stopped it
    /// between two polls (`abort` says why).
    private func drive(_ multi: UnsafeMutableRawPointer) throws(HTTPError) -> CURLcode? {
        let stallLimit = UInt64(limits.timeoutMs) * 1_000_000
        while true {
            var running: Int32 = 0
            let performed = curl_multi_perform(multi, &running)
            guard performed == CURLM_OK else {
                throw failure(.transport, "libcurl's transfer loop failed (\(String(cString: curl_multi_strerror(performed)))).")
            }
            if let done = CurlTransfer.result(of: multi) { return done }
            if running == 0 { return nil }
            if isCancelled() {
                abort = .cancelled
                return nil
            }
            let now = CurlTransfer.now()
            if now > lastActivity, now - lastActivity > stallLimit {
                abort = .stalled
                return nil
            }
            let polled = curl_multi_poll(multi, nil, 0, 100, nil)
            guard polled == CURLM_OK else {
                throw failure(.transport, "libcurl's transfer loop failed (\(String(cString: curl_multi_strerror(polled)))).")
            }
        }
    }

    /// The result of the finished transfer, if libcurl has reported it.
    private static func result(of multi: UnsafeMutableRawPointer) -> CURLcode? {
        var queued: Int32 = 0
        while let message = curl_multi_info_read(multi, &queued) {
            if message.pointee.msg == CURLMSG_DONE { return message.pointee.data.result }
        }
        return nil
    }

    /// The response, or the failure, from libcurl's result and this side's abort.
    private func finish(_ result: CURLcode?) throws(HTTPError) -> HTTPResponse {
        let status = infoLong(CURLINFO_RESPONSE_CODE)
        let httpStatus = status > 0 ? status : nil
        switch abort {
        case .stoppedByReceiver?:
            var response = head ?? currentHead()
            response.bodyBytes = bodyBytes
            response.stopped = true
            return response
        case .bodyTooLarge?:
            throw failure(.tooLarge, "\(shortURL) sent a body larger than \(limits.maxBodyBytes) bytes.", status: httpStatus)
        case .headersTooLarge?:
            throw failure(.tooLarge, "\(shortURL) sent more than \(limits.maxHeaderBytes) bytes of headers.", status: httpStatus)
        case .cancelled?:
            throw failure(.cancelled, "The request to \(shortURL) was cancelled.", status: httpStatus)
        case .stalled?:
            throw failure(.timeout, "\(shortURL) sent nothing for \(limits.timeoutMs) ms.", status: httpStatus)
        case nil:
            break
        }
        guard let result else { throw failure(.transport, "The transfer from \(shortURL) ended without a result.") }
        guard result == CURLE_OK else { throw mapped(result, status: httpStatus) }
        guard status > 0 else { throw failure(.noResponse, "\(shortURL) gave no HTTP response.") }
        if let head {
            var response = head
            response.bodyBytes = bodyBytes
            return response
        }
        // No body came: the receiver sees the head now, once, as it would before a body.
        var response = currentHead()
        response.stopped = !onHead(response)
        return response
    }

    /// The failure a libcurl error code stands for.
    private func mapped(_ code: CURLcode, status: Int?) -> HTTPError {
        let detail = errorDetail(code)
        switch code {
        case CURLE_COULDNT_RESOLVE_HOST, CURLE_COULDNT_RESOLVE_PROXY:
            return failure(.dns, "The host name of \(shortURL) could not be resolved.", status: status)
        case CURLE_COULDNT_CONNECT:
            switch Int32(truncatingIfNeeded: infoLong(CURLINFO_OS_ERRNO)) {
            case ENETUNREACH, EHOSTUNREACH, ENETDOWN:
                return failure(.network, "\(shortURL) is unreachable: the network is down or has no route to it.", status: status)
            case ETIMEDOUT:
                return failure(.timeout, "\(shortURL) could not be reached within \(limits.timeoutMs) ms.", status: status)
            default:
                return failure(.refused, "\(shortURL) refused the connection.", status: status)
            }
        case CURLE_OPERATION_TIMEDOUT:
            let elapsedMs = (CurlTransfer.now() &- startedAt) / 1_000_000
            if elapsedMs + 50 >= UInt64(limits.totalTimeoutMs) {
                return failure(.timeout, "\(shortURL) did not finish within \(limits.totalTimeoutMs) ms.", status: status)
            }
            if limits.minBytesPerSecond > 0, status != nil || CurlTransfer.mentions(detail, "too slow") {
                return failure(.timeout, "\(shortURL) sent fewer than \(limits.minBytesPerSecond) bytes per second for \(lowSpeedSeconds * 1000) ms.",
                               status: status)
            }
            return failure(.timeout, "\(shortURL) could not be reached within \(limits.timeoutMs) ms.", status: status)
        case CURLE_TOO_MANY_REDIRECTS:
            return failure(.redirects, "\(shortURL) redirected more than \(limits.maxRedirects) times, or in a loop.", status: status)
        case CURLE_UNSUPPORTED_PROTOCOL:
            if infoLong(CURLINFO_REDIRECT_COUNT) > 0 {
                return failure(.redirects, "\(shortURL) redirected to a URL that is not http or https.", status: status)
            }
            return failure(.notHTTP, "\(shortURL) is not an http or https URL.", status: status)
        case CURLE_URL_MALFORMAT:
            return failure(.notHTTP, "\(shortURL) is not a valid URL.", status: status)
        case CURLE_FILESIZE_EXCEEDED:
            return failure(.tooLarge, "\(shortURL) declared a body larger than \(limits.maxBodyBytes) bytes.", status: status)
        case CURLE_PARTIAL_FILE:
            return failure(.truncated, "\(shortURL) ended its body before its declared length.", status: status)
        case CURLE_GOT_NOTHING:
            return failure(.noResponse, "\(shortURL) closed the connection without answering.", status: status)
        case CURLE_SEND_ERROR, CURLE_RECV_ERROR:
            return failure(.network, "The connection to \(shortURL) was lost (\(detail)).", status: status)
        case CURLE_BAD_CONTENT_ENCODING:
            return failure(.transport, "The body from \(shortURL) could not be decoded (\(detail)).", status: status)
        case CURLE_WEIRD_SERVER_REPLY:
            return failure(.transport, "\(shortURL) answered with something that is not HTTP (\(detail)).", status: status)
        default:
            return failure(.transport, "\(shortURL) could not be fetched (\(detail)).", status: status)
        }
    }

    // MARK: - Callbacks

    /// Body bytes, decoded: counted against the limit, then handed to the receiver.
    private static let writeCallback: curl_write_callback = { data, size, count, context in
        guard let context else { return cf_curl_write_abort() }
        let transfer = Unmanaged<CurlTransfer>.fromOpaque(context).takeUnretainedValue()
        let (length, overflow) = size.multipliedReportingOverflow(by: count)
        guard !overflow, length >= 0 else { return cf_curl_write_abort() }
        return transfer.receiveBody(data, length)
    }

    /// One header line (status lines included) of any response of the transfer.
    private static let headerCallback: curl_write_callback = { data, size, count, context in
        guard let context else { return cf_curl_write_abort() }
        let transfer = Unmanaged<CurlTransfer>.fromOpaque(context).takeUnretainedValue()
        let (length, overflow) = size.multipliedReportingOverflow(by: count)
        guard !overflow, length >= 0 else { return cf_curl_write_abort() }
        return transfer.receiveHeader(data, length)
    }

    /// Progress: any byte moved counts as activity; a cancellation stops the transfer at once.
    private static let progressCallback: curl_xferinfo_callback = { context, _, downloaded, _, uploaded in
        guard let context else { return 1 }
        let transfer = Unmanaged<CurlTransfer>.fromOpaque(context).takeUnretainedValue()
        return transfer.progress(downloaded: downloaded, uploaded: uploaded)
    }

    /// What a read callback returns to stop the transfer.
    private static let readAbort = Int(CURL_READFUNC_ABORT)

    /// The request body: read from the file as libcurl asks for it.
    private static let readCallback: curl_write_callback = { data, size, count, context in
        guard let context else { return CurlTransfer.readAbort }
        let transfer = Unmanaged<CurlTransfer>.fromOpaque(context).takeUnretainedValue()
        let (length, overflow) = size.multipliedReportingOverflow(by: count)
        guard !overflow, length >= 0, let data else { return CurlTransfer.readAbort }
        return transfer.sendBody(data, length)
    }

    /// Bytes of the file body; past its declared length nothing more is read. A file that
    /// ends early or cannot be read stops the transfer.
    private func sendBody(_ data: UnsafeMutablePointer<CChar>, _ length: Int) -> Int {
        if isCancelled() {
            abort = .cancelled
            return CurlTransfer.readAbort
        }
        guard let file = request.file else { return 0 }
        let left = file.length - sentBytes
        guard left > 0 else { return 0 }
        while true {
            let n = read(file.fd, data, Int(min(Int64(length), left)))
            if n < 0 && errno == EINTR { continue }
            guard n > 0 else { return CurlTransfer.readAbort }
            sentBytes += Int64(n)
            return n
        }
    }

    private func receiveBody(_ data: UnsafeMutablePointer<CChar>?, _ length: Int) -> Int {
        if isCancelled() {
            abort = .cancelled
            return cf_curl_write_abort()
        }
        lastActivity = CurlTransfer.now()
        if head == nil {
            let response = currentHead()
            head = response
            expectedBytes = CurlTransfer.declaredLength(response)
            let proceed = onHead(response)
            lastActivity = CurlTransfer.now()
            guard proceed else {
                abort = .stoppedByReceiver
                return cf_curl_write_abort()
            }
        }
        guard length > 0 else { return 0 }
        guard let data else { return cf_curl_write_abort() }
        guard Int64(length) <= limits.maxBodyBytes - bodyBytes else {
            abort = .bodyTooLarge
            return cf_curl_write_abort()
        }
        bodyBytes += Int64(length)
        let proceed = onBody(UnsafeRawBufferPointer(start: data, count: length))
        onProgress?(bodyBytes, expectedBytes)
        // Time the receiver spends on a chunk is not the server's silence.
        lastActivity = CurlTransfer.now()
        guard proceed else {
            abort = .stoppedByReceiver
            return cf_curl_write_abort()
        }
        return length
    }

    private func receiveHeader(_ data: UnsafeMutablePointer<CChar>?, _ length: Int) -> Int {
        lastActivity = CurlTransfer.now()
        guard length <= limits.maxHeaderBytes - headerBytes else {
            abort = .headersTooLarge
            return cf_curl_write_abort()
        }
        headerBytes += length
        guard let data, length > 0 else { return length }
        let bytes = UnsafeRawBufferPointer(start: data, count: length)
        var end = bytes.endIndex
        while end > bytes.startIndex, bytes[end - 1] == 0x0A || bytes[end - 1] == 0x0D { end -= 1 }
        let line = bytes[bytes.startIndex..<end]
        if line.starts(with: "HTTP/".utf8) {
            // A new response (after a redirect or an interim 1xx): its headers replace the last.
            headers.removeAll()
        } else if let colon = line.firstIndex(of: UInt8(ascii: ":")) {
            let name = String(decoding: line[line.startIndex..<colon], as: UTF8.self)
            let value = String(decoding: CurlTransfer.trimmed(line[(colon + 1)...]), as: UTF8.self)
            headers.append(HTTPHeader(name, value))
        }
        return length
    }

    private func progress(downloaded: curl_off_t, uploaded: curl_off_t) -> Int32 {
        if isCancelled() {
            abort = .cancelled
            return 1
        }
        if uploaded != lastUp { onSent?(Int64(uploaded)) }
        if downloaded != lastDown || uploaded != lastUp {
            lastDown = downloaded
            lastUp = uploaded
            lastActivity = CurlTransfer.now()
        }
        return 0
    }

    // MARK: - Helpers

    /// The body length `response` declares, nil when it declares none, or a content coding
    /// (whose bytes on the wire are not the decoded bytes delivered).
    private static func declaredLength(_ response: HTTPResponse) -> Int64? {
        if let coding = response.header("Content-Encoding"), coding.lowercased() != "identity" { return nil }
        guard let text = response.header("Content-Length"), let length = Int64(text), length >= 0 else { return nil }
        return length
    }

    /// The response as known now: status, final URL, the last response's headers.
    private func currentHead() -> HTTPResponse {
        HTTPResponse(status: infoLong(CURLINFO_RESPONSE_CODE), url: infoString(CURLINFO_EFFECTIVE_URL) ?? request.url,
                     headers: headers, redirects: infoLong(CURLINFO_REDIRECT_COUNT))
    }

    private func infoLong(_ info: CURLINFO) -> Int {
        guard let easy else { return 0 }
        var value = 0
        return cf_curl_getinfo_long(easy, info, &value) == CURLE_OK ? value : 0
    }

    private func infoString(_ info: CURLINFO) -> String? {
        guard let easy else { return nil }
        var value: UnsafePointer<CChar>?
        guard cf_curl_getinfo_string(easy, info, &value) == CURLE_OK, let value else { return nil }
        return String(cString: value)
    }

    /// libcurl's own words for a failure: its error buffer, else its name for the code.
    private func errorDetail(_ code: CURLcode) -> String {
        let buffer = UnsafeRawBufferPointer(start: errorBuffer, count: Int(CURL_ERROR_SIZE))
        let written = buffer.prefix { $0 != 0 }
        let text = String(decoding: CurlTransfer.trimmed(written[...]), as: UTF8.self)
        return text.isEmpty ? CurlTransfer.describe(code) : String(text.prefix(300))
    }

    private static func describe(_ code: CURLcode) -> String {
        "\(String(cString: curl_easy_strerror(code))), libcurl error \(code.rawValue)"
    }

    private static func trimmed<C: BidirectionalCollection>(_ bytes: C) -> C.SubSequence where C.Element == UInt8 {
        let blank: (UInt8) -> Bool = { $0 == 0x20 || $0 == 0x09 || $0 == 0x0D || $0 == 0x0A }
        var slice = bytes[...]
        while let first = slice.first, blank(first) { slice = slice.dropFirst() }
        while let last = slice.last, blank(last) { slice = slice.dropLast() }
        return slice
    }

    private var shortURL: String { String(request.url.prefix(200)) }

    /// `timeoutMs` in the whole seconds libcurl's low-speed check counts, at least one.
    private var lowSpeedSeconds: Int { max(1, (limits.timeoutMs + 999) / 1000) }

    private func failure(_ reason: HTTPError.Reason, _ message: String, status: Int? = nil) -> HTTPError {
        HTTPError(reason, url: String(request.url.prefix(2000)), status: status, message: message)
    }

    /// Monotonic nanoseconds.
    /// Whether `text` holds `part`, byte for byte (without the standard library's string
    /// searching, which links its regular-expression machinery into the library).
    static func mentions(_ text: String, _ part: String) -> Bool {
        let t = Array(text.utf8), p = Array(part.utf8)
        guard !p.isEmpty, p.count <= t.count else { return p.isEmpty }
        for i in 0...(t.count - p.count) where t[i..<(i + p.count)].elementsEqual(p) { return true }
        return false
    }

    static func now() -> UInt64 {
        var time = timespec()
        clock_gettime(CLOCK_MONOTONIC, &time)
        return UInt64(max(time.tv_sec, 0)) &* 1_000_000_000 &+ UInt64(max(time.tv_nsec, 0))
    }
}
