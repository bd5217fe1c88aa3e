import CarFitCore
import CarFitIO
import Foundation
import Glibc

/// A loopback HTTP server in this process that answers each request from a script and keeps
/// what it was sent: the push's requests specified byte for byte. One connection at a time,
/// `Connection: close`; a request the script has no answer for gets a 599.
final class PushServer: @unchecked Sendable {
    /// One request as it arrived.
    struct Seen {
        var method: String
        var path: String
        var body: [UInt8]

        /// The body parsed (`.null` when it is not JSON).
        var json: JSON {
            if case .success(let json) = JanssonParser.parse(bytes: body) { return json }
            return .null
        }

        /// The `mutationId`s of an update request, in order.
        var mutationIds: [String] {
            guard case .array(let items)? = json.objectValue?["mutations"] else { return [] }
            return items.compactMap { if case .string(let id)? = $0.objectValue?["mutationId"] { return id }; return nil }
        }
    }

    /// How one request is answered: a status and a body, or the connection closed unanswered.
    enum Reply {
        case answer(Int, String)
        case hangUp
    }

    let port: Int
    private let listener: Int32
    private let lock = NSLock()
    private var script: [(Seen) -> Reply] = []
    private var seen: [Seen] = []

    init() throws {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw CarFitError(.internal, "no socket") }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = 0
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, length) }
        }
        guard bound == 0, listen(fd, 16) == 0 else {
            close(fd)
            throw CarFitError(.internal, "no listening socket")
        }
        _ = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) }
        }
        listener = fd
        port = Int(UInt16(bigEndian: address.sin_port))
        let thread = Thread { [self] in serve() }
        thread.start()
    }

    private var stopped = false

    /// Stops listening (requests afterwards are refused) and ends the serving thread.
    func stop() {
        lock.lock()
        let first = !stopped
        stopped = true
        lock.unlock()
        if first {
            shutdown(listener, Int32(SHUT_RDWR))
            close(listener)
        }
    }

    func url(_ path: String) -> String { "http://127.0.0.1:\(port)\(path)" }

    /// Queues answers for the next requests, in order.
    func then(_ replies: ((Seen) -> Reply)...) {
        lock.lock()
        script.append(contentsOf: replies)
        lock.unlock()
    }

    /// Queues `reply` for the next request.
    func then(_ reply: Reply) { then({ _ in reply }) }

    /// The requests so far, oldest first.
    var requests: [Seen] {
        lock.lock()
        defer { lock.unlock() }
        return seen
    }

    /// Applies every mutation of an update request.
    static func applyAll(_ seen: Seen) -> Reply {
        let ids = seen.mutationIds.map { JSON.string($0) }
        return .answer(200, JSON.obj(["applied": .array(ids), "rejected": []]).encoded())
    }

    private func serve() {
        while true {
            let connection = accept(listener, nil, nil)
            guard connection >= 0 else {
                if errno == EINTR { continue }
                return
            }
            handle(connection)
            close(connection)
        }
    }

    private func handle(_ connection: Int32) {
        var timeout = timeval(tv_sec: 5, tv_usec: 0)
        setsockopt(connection, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 65_536)
        var headerEnd: Int?
        var expected = Int.max
        while bytes.count < expected {
            let n = chunk.withUnsafeMutableBytes { recv(connection, $0.baseAddress, $0.count, 0) }
            guard n > 0 else { return }
            bytes.append(contentsOf: chunk[0..<n])
            if headerEnd == nil, let end = PushServer.find([13, 10, 13, 10], in: bytes) {
                headerEnd = end + 4
                let head = String(decoding: bytes[0..<end], as: UTF8.self).lowercased()
                var length = 0
                for line in head.split(separator: "\r\n") where line.hasPrefix("content-length:") {
                    length = Int(line.dropFirst("content-length:".count).trimmingCharacters(in: .whitespaces)) ?? 0
                }
                expected = end + 4 + length
            }
        }
        guard let headerEnd else { return }
        let requestLine = String(decoding: bytes[0..<headerEnd], as: UTF8.self).split(separator: "\r\n").first ?? ""
        let parts = requestLine.split(separator: " ")
        let request = Seen(method: parts.first.map(String.init) ?? "", path: parts.count > 1 ? String(parts[1]) : "",
                           body: Array(bytes[headerEnd...]))
        lock.lock()
        seen.append(request)
        let next = script.isEmpty ? nil : script.removeFirst()
        lock.unlock()
        switch next?(request) ?? .answer(599, "no answer scripted") {
        case .hangUp:
            return
        case .answer(let status, let body):
            let text = "HTTP/1.1 \(status) Scripted\r\nContent-Type: application/json\r\nContent-Length: \(body.utf8.count)\r\n"
                + "Connection: close\r\n\r\n" + body
            let out = Array(text.utf8)
            var sent = 0
            while sent < out.count {
                let n = out[sent...].withUnsafeBytes { send(connection, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
                guard n > 0 else { return }
                sent += n
            }
        }
    }

    private static func find(_ needle: [UInt8], in bytes: [UInt8]) -> Int? {
        guard bytes.count >= needle.count else { return nil }
        for i in 0...(bytes.count - needle.count) where bytes[i..<(i + needle.count)].elementsEqual(needle) { return i }
        return nil
    }
}
