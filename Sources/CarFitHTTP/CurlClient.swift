import CCurl
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// A blocking HTTP client on libcurl's easy interface: each request runs on the calling thread,
/// on handles no other request uses meanwhile (lent by the client's pool, whose kept-alive
/// connections the next request to the same origin reuses), and streams its body to the
/// caller chunk by chunk as it arrives. The
/// body is never held whole unless the caller asks (`fetch`), and then only up to its limit.
///
/// Thread-safe: any number of threads may make requests at once; `cancelAll` (or an
/// `HTTPCancellation` token) stops transfers from any thread. A non-2xx status is a response,
/// not an error; only a transfer that failed or was cut off throws `HTTPError`.
public final class CurlClient: Sendable {
    public let limits: HTTPLimits
    public let userAgent: String
    /// Bumped by `cancelAll`: a transfer started under an older value stops.
    private let generation = Atomic<UInt64>(0)
    /// Handles lent to each transfer and given back after it, with their kept-alive
    /// connections: consecutive requests to one origin share a connection.
    private let handles = CurlHandlePool()

    public init(limits: HTTPLimits = HTTPLimits(), userAgent: String = "libcarfit") {
        self.limits = limits
        self.userAgent = userAgent
    }

    /// Cancels every transfer in progress on this client: each fails with reason `cancelled`
    /// within about 100 ms. Requests started afterwards are not affected.
    public func cancelAll() {
        generation.wrappingAdd(1, ordering: .acquiringAndReleasing)
    }

    /// Performs `request`, handing the decoded body to `body` chunk by chunk as it arrives.
    ///
    /// `head` sees the final response's status and headers once, before the first chunk (or at
    /// the end when there is no body); either closure returns false to stop the transfer, and
    /// the response is then returned with `stopped` set. At most `limits.maxBodyBytes` bytes
    /// reach `body`: the chunk that would pass it is not delivered and the request fails with
    /// reason `too_large`. `progress`, when given, hears after each delivered chunk the body
    /// bytes received so far and the length the response declares (nil when it declares none,
    /// or a content coding): counts only grow, and the last call has the whole body's size. The
    /// closures run on the calling thread, inside this call.
    ///
    /// - Parameter limits: this request's bounds; the client's when nil.
    /// - Throws: `HTTPError` for any failure of the transfer (see `HTTPError.Reason`).
    public func stream(_ request: HTTPRequest, limits: HTTPLimits? = nil, cancellation: HTTPCancellation? = nil,
                       head: (HTTPResponse) -> Bool = { _ in true },
                       progress: ((_ received: Int64, _ expected: Int64?) -> Void)? = nil,
                       sent: ((_ bytes: Int64) -> Void)? = nil,
                       body: (UnsafeRawBufferPointer) -> Bool) throws(HTTPError) -> HTTPResponse {
        let started = generation.load(ordering: .acquiring)
        let isCancelled: () -> Bool = { [self] in
            cancellation?.isCancelled == true || generation.load(ordering: .acquiring) != started
        }
        let outcome: Result<HTTPResponse, HTTPError> = withoutActuallyEscaping(head) { head in
            withoutActuallyEscaping(body) { body in
                let transfer = CurlTransfer(request: request, limits: limits ?? self.limits, userAgent: userAgent, pool: handles,
                                            isCancelled: isCancelled, onHead: head, onBody: body, onProgress: progress,
                                            onSent: sent)
                do throws(HTTPError) {
                    let response = try transfer.run()
                    return .success(response)
                } catch {
                    return .failure(error)
                }
            }
        }
        return try outcome.get()
    }

    /// Performs `request` and collects its body in memory, at most `maxBytes` (and at most
    /// `limits.maxBodyBytes`); a longer body fails with reason `too_large`. For small answers
    /// and images.
    /// `sent` hears the bytes of a file body sent so far.
    public func fetch(_ request: HTTPRequest, maxBytes: Int64? = nil,
                      cancellation: HTTPCancellation? = nil,
                      sent: ((_ bytes: Int64) -> Void)? = nil) throws(HTTPError) -> HTTPResponseBody {
        var bounded = limits
        if let maxBytes { bounded.maxBodyBytes = min(bounded.maxBodyBytes, max(maxBytes, 0)) }
        var collected: [UInt8] = []
        let response = try stream(request, limits: bounded, cancellation: cancellation, sent: sent) { chunk in
            collected.append(contentsOf: chunk)
            return true
        }
        return HTTPResponseBody(response: response, body: collected)
    }

    /// Performs `request` and writes its body to a new temporary file in `directory` (the
    /// `TMPDIR` environment variable's, else /tmp, when nil), for a document the caller then
    /// reads as a stream. The file is removed when the returned `HTTPDownload` goes away, and
    /// at once on any failure; a file that cannot be created or written is reason `storage`.
    /// `progress` hears the bytes received and the declared length as for `stream`.
    ///
    /// - Parameter inMemory: write the body to an anonymous file in memory instead
    ///   (`memfd_create`), which no directory lists and nothing writes to a disk; its
    ///   `path` is `/proc/self/fd/N`, valid while the download is held. Its size is bounded by
    ///   `limits.maxBodyBytes` as any body's. A system without it (Linux before 3.17) is
    ///   reason `storage`, never a file on disk.
    public func download(_ request: HTTPRequest, directory: String? = nil, inMemory: Bool = false,
                         cancellation: HTTPCancellation? = nil,
                         progress: ((_ received: Int64, _ expected: Int64?) -> Void)? = nil) throws(HTTPError) -> HTTPDownload {
        if inMemory {
            let fd = cf_memfd_create("carfit-http")
            guard fd >= 0 else {
                throw HTTPError(.storage, url: String(request.url.prefix(2000)),
                                message: "A file in memory could not be created: \(CurlClient.systemError(errno)).")
            }
            let response: HTTPResponse
            do throws(HTTPError) {
                response = try receive(request, into: fd, cancellation: cancellation, progress: progress)
            } catch {
                close(fd)
                throw error
            }
            return HTTPDownload(response: response, memoryFile: fd)
        }
        let folder = directory ?? CurlClient.temporaryDirectory()
        var template = Array("\(folder)/carfit-http-XXXXXX".utf8CString)
        let fd = template.withUnsafeMutableBufferPointer { buffer -> Int32 in
            guard let base = buffer.baseAddress else { return -1 }
            let fd = mkstemp(base)
            if fd >= 0 { _ = fchmod(fd, 0o600) }  // readable by the owner only, whatever the umask
            return fd
        }
        guard fd >= 0 else {
            throw HTTPError(.storage, url: String(request.url.prefix(2000)),
                            message: "A temporary file could not be created in \(folder.prefix(200)): \(CurlClient.systemError(errno)).")
        }
        let path = String(decoding: template.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        let response: HTTPResponse
        do throws(HTTPError) {
            response = try receive(request, into: fd, cancellation: cancellation, progress: progress)
        } catch {
            close(fd)
            unlink(path)
            throw error
        }
        guard close(fd) == 0 else {
            let code = errno
            unlink(path)
            throw HTTPError(.storage, url: String(request.url.prefix(2000)), status: response.status,
                            message: "The body of \(request.url.prefix(200)) could not be written to a temporary file: \(CurlClient.systemError(code)).")
        }
        return HTTPDownload(response: response, path: path)
    }

    /// Performs `request` and writes its body to `fd`, which stays open: the response, or the
    /// transfer's error, or reason `storage` when a write failed. The caller closes `fd`.
    private func receive(_ request: HTTPRequest, into fd: Int32, cancellation: HTTPCancellation?,
                         progress: ((_ received: Int64, _ expected: Int64?) -> Void)?) throws(HTTPError) -> HTTPResponse {
        var writeError: Int32 = 0
        // libcurl hands a body over 16 KiB at a time: the file is written 256 KiB at a time.
        let pending = UnsafeMutableRawBufferPointer.allocate(byteCount: CurlClient.fileWriteBytes, alignment: 16)
        defer { pending.deallocate() }
        var held = 0
        // The body's size is bounded by `limits.maxBodyBytes`: the transfer stops before a chunk
        // that would pass it reaches this closure.
        let response = try stream(request, cancellation: cancellation, progress: progress) { chunk in
            if held + chunk.count > pending.count {
                writeError = CurlClient.writeAll(fd, UnsafeRawBufferPointer(rebasing: pending[0..<held]))
                held = 0
                guard writeError == 0 else { return false }
            }
            if chunk.count >= pending.count {
                writeError = CurlClient.writeAll(fd, chunk)
                return writeError == 0
            }
            UnsafeMutableRawBufferPointer(rebasing: pending[held..<(held + chunk.count)]).copyMemory(from: chunk)
            held += chunk.count
            return true
        }
        if held > 0 && writeError == 0 { writeError = CurlClient.writeAll(fd, UnsafeRawBufferPointer(rebasing: pending[0..<held])) }
        guard writeError == 0 else {
            throw HTTPError(.storage, url: String(request.url.prefix(2000)), status: response.status,
                            message: "The body of \(request.url.prefix(200)) could not be written to a temporary file: \(CurlClient.systemError(writeError)).")
        }
        return response
    }

    /// How many bytes of a downloaded body are gathered before they are written to its file.
    static let fileWriteBytes = 256 * 1024

    /// Writes all of `chunk` to `fd`: 0, or the errno of the failed write.
    private static func writeAll(_ fd: Int32, _ chunk: UnsafeRawBufferPointer) -> Int32 {
        guard let base = chunk.baseAddress else { return 0 }
        var offset = 0
        while offset < chunk.count {
            let written = write(fd, base + offset, chunk.count - offset)
            if written < 0 {
                if errno == EINTR { continue }
                return errno
            }
            if written == 0 { return EIO }
            offset += written
        }
        return 0
    }

    private static func temporaryDirectory() -> String {
        if let value = getenv("TMPDIR"), value.pointee != 0 { return String(cString: value) }
        return "/tmp"
    }

    private static func systemError(_ code: Int32) -> String {
        guard let text = strerror(code) else { return "error \(code)" }
        return String(cString: text)
    }
}
