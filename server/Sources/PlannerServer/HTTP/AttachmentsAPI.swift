import Crypto
import Foundation
import Hummingbird
import NIOCore
import HTTPTypes
#if canImport(Glibc)
import Glibc
#endif

/// `PUT /v1/attachments/{id}`: a photo, signature or note of one of the washer's visits, streamed
/// to a temporary file under the files directory while its SHA-256 is computed, then renamed into
/// place and recorded. Memory holds one body chunk at a time.
extension PlannerResponder {
    static let sha256Header = HTTPField.Name("X-Carfit-Sha256")
    static let visitIdHeader = HTTPField.Name("X-Carfit-Visit-Id")
    static let startHeader = HTTPField.Name("X-Carfit-Start-Time-Utc")
    static let kindHeader = HTTPField.Name("X-Carfit-Kind")

    static func header(_ request: Request, _ name: HTTPField.Name?) -> String? {
        name.flatMap { request.headers[$0] }
    }

    /// A refusal sent before the body was read: the connection closes after it.
    static func early(_ status: HTTPResponse.Status, _ message: String, field: String? = nil) -> APIError {
        var error = APIError(status, message, field: field)
        error.close = true
        error.unread = true
        return error
    }

    /// Refusals after the length is known read (and drop) the body first, so a client that
    /// sends it whole before reading the answer hears the answer rather than a closed connection;
    /// only a body over the limit (413) is refused unread, and its connection closed.
    func putAttachment(_ request: Request, id: String, washer: Washer) async throws -> Response {
        do {
            return try await checkedPut(request, id: id, washer: washer)
        } catch var error as APIError where error.unread && error.status != .contentTooLarge && error.status != .lengthRequired {
            if let length = request.headers[.contentLength].flatMap(Int64.init), length <= options.maxUploadBytes {
                var left = length
                do {
                    for try await chunk in request.body {
                        left -= Int64(chunk.readableBytes)
                        if left < 0 { break }
                    }
                    if left == 0 { error.close = false }
                } catch {}
            }
            throw error
        }
    }

    func checkedPut(_ request: Request, id: String, washer: Washer) async throws -> Response {
        guard (1...100).contains(id.utf8.count),
              id.utf8.allSatisfy({ ($0 >= 0x30 && $0 <= 0x39) || ($0 >= 0x41 && $0 <= 0x5A) || ($0 >= 0x61 && $0 <= 0x7A) || $0 == 0x2D || $0 == 0x5F }) else {
            throw Self.early(.badRequest, "The attachment id must be 1 to 100 letters, digits, '-' or '_'.", field: "id")
        }
        guard let lengthText = request.headers[.contentLength] else {
            throw Self.early(.lengthRequired, "An attachment needs a Content-Length.")
        }
        guard let length = Int64(lengthText), length >= 0 else {
            throw Self.early(.badRequest, "Content-Length is not a number.")
        }
        guard length <= options.maxUploadBytes else {
            throw Self.early(.contentTooLarge, "An attachment is at most \(options.maxUploadBytes) bytes; this one has \(length).")
        }
        guard let sha = Self.header(request, Self.sha256Header)?.lowercased(), sha.utf8.count == 64,
              sha.utf8.allSatisfy({ ($0 >= 0x30 && $0 <= 0x39) || ($0 >= 0x61 && $0 <= 0x66) }) else {
            throw Self.early(.badRequest, "X-Carfit-Sha256 must be the body's SHA-256 in hexadecimal.", field: "X-Carfit-Sha256")
        }
        guard let kind = Self.header(request, Self.kindHeader), ["photo", "signature", "note"].contains(kind) else {
            throw Self.early(.badRequest, "X-Carfit-Kind must be photo, signature or note.", field: "X-Carfit-Kind")
        }
        guard let visitId = Self.header(request, Self.visitIdHeader), !visitId.isEmpty else {
            throw Self.early(.unprocessableContent, "X-Carfit-Visit-Id must name one of the washer's visits.", field: "X-Carfit-Visit-Id")
        }
        guard let start = Self.header(request, Self.startHeader).flatMap(Instant.parse) else {
            throw Self.early(.unprocessableContent, "X-Carfit-Start-Time-Utc must be the visit's start.", field: "X-Carfit-Start-Time-Utc")
        }
        let contentType = request.headers[.contentType] ?? "application/octet-stream"
        guard try await store.hasVisit(washerId: washer.id, visitId: visitId, startMs: start) else {
            throw Self.early(.unprocessableContent, "The attachment's visit is not one of this washer's visits.", field: "X-Carfit-Visit-Id")
        }
        if let stored = try await store.attachment(id: id) {
            var response = try sameAgain(stored, sha: sha, washer: washer)
            // The body is the one kept: read and dropped.
            var left = length
            for try await chunk in request.body { left -= Int64(chunk.readableBytes) }
            if left != 0 { response.headers[.connection] = "close" }
            return response
        }
        let file = "\(id).\(sha)"
        let target = (options.filesDirectory as NSString).appendingPathComponent(file)
        let temporary = (options.filesDirectory as NSString).appendingPathComponent(".upload-\(UUID().uuidString)")
        let received = try await receive(request.body, to: temporary, length: length)
        guard received == sha else {
            unlink(temporary)
            throw APIError(.unprocessableContent, "The body's SHA-256 is \(received), not the X-Carfit-Sha256 given; nothing was kept.",
                           field: "X-Carfit-Sha256")
        }
        guard rename(temporary, target) == 0 else {
            unlink(temporary)
            throw StoreError("cannot move the attachment into place (errno \(errno))")
        }
        let record = AttachmentRecord(id: id, washerId: washer.id, visitId: visitId, startMs: start, kind: kind,
                                      contentType: contentType, bytes: length, sha256: sha, file: file)
        let (kept, created) = try await store.addAttachment(record, now: options.clock())
        if !created {
            // Another request with this id won the race.
            if kept.file != file { unlink(target) }
            guard kept.sha256 == sha, kept.washerId == washer.id else {
                throw APIError(.conflict, "An attachment with this id and other content is already kept.")
            }
            return .json(.object(["attachment": kept.json]))
        }
        return .json(.object(["attachment": kept.json]), status: .created)
    }

    /// The answer for an id already kept: the same content → 200 and its document; else 409.
    func sameAgain(_ stored: AttachmentRecord, sha: String, washer: Washer) throws(APIError) -> Response {
        guard stored.sha256 == sha, stored.washerId == washer.id else {
            throw Self.early(.conflict, "An attachment with this id and other content is already kept.")
        }
        return Response.json(.object(["attachment": stored.json]))
    }

    /// Streams the body into `path` (exactly `length` bytes, flushed to disk) and returns its
    /// SHA-256 in hexadecimal; on any failure the file is removed and a 400 thrown.
    func receive(_ body: RequestBody, to path: String, length: Int64) async throws -> String {
        let fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
        guard fd >= 0 else { throw StoreError("cannot create a file in the files directory (errno \(errno))") }
        var hasher = SHA256()
        var count: Int64 = 0
        var failure: APIError?
        do {
            for try await buffer in body {
                count += Int64(buffer.readableBytes)
                if count > length {
                    failure = APIError(.badRequest, "The body is longer than its Content-Length.")
                    failure?.close = true
                    break
                }
                let written = buffer.withUnsafeReadableBytes { raw -> Bool in
                    hasher.update(bufferPointer: raw)
                    var offset = 0
                    while offset < raw.count {
                        let n = write(fd, raw.baseAddress.map { $0 + offset }, raw.count - offset)
                        if n < 0 { if errno == EINTR { continue } else { return false } }
                        offset += n
                    }
                    return true
                }
                if !written {
                    failure = APIError(HTTPResponse.Status(code: 507, reasonPhrase: "Insufficient Storage"), "The server could not write the attachment.")
                    break
                }
            }
        } catch {
            failure = APIError(.badRequest, "The body ended before its Content-Length.")
        }
        if failure == nil, count != length { failure = APIError(.badRequest, "The body ended before its Content-Length.") }
        failure?.close = true
        if failure == nil, fsync(fd) != 0 { failure = APIError(HTTPResponse.Status(code: 507, reasonPhrase: "Insufficient Storage"), "The server could not write the attachment.") }
        close(fd)
        if let failure {
            unlink(path)
            throw failure
        }
        return hasher.finalize().map { String(format: "%02x", $0) }.joined()
    }
}

