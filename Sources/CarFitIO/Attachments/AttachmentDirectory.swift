import CarFitCore
import CarFitSystem
#if canImport(Glibc)
import Glibc
#endif

/// The directory that holds the core's copies of attached files, one file per attachment named
/// by its id. A copy is written under a temporary name (`.carfit-<id>.partial`), flushed to the
/// disk, and only then renamed to its id: a crash leaves it whole or absent, and the
/// temporaries a crash left behind are removed when a core opens (`removeTemporaries`). A
/// temporary is locked (`flock`) by the process writing it, so a core opening meanwhile on the
/// same directory leaves a copy in progress alone; the kernel drops the lock of a dead process.
/// The directory (and each parent it creates) is 0700 and every file in it 0600, whatever the
/// umask; `narrow` takes what an earlier version left open to others back when a core opens.
///
/// Every copy is written and read through `seal`: sealed (encrypted in chunks) while the
/// database is encrypted, as it is otherwise (`FileSeal`).
public struct AttachmentDirectory: Sendable {
    public let path: String
    public let seal: FileSeal

    public init(path: String, seal: FileSeal = .plain) {
        self.path = path
        self.seal = seal
    }

    /// The bytes a copy reads and writes at a time.
    static let chunkBytes = 256 * 1024

    /// The stored copy of attachment `id`.
    public func filePath(id: String) -> String { "\(path)/\(id)" }

    func temporaryPath(id: String) -> String { "\(path)/.carfit-\(id).partial" }

    /// Creates the directory (and its missing parents) when it does not exist: `storage` when
    /// that fails or the path names something else.
    public func create() throws(CarFitError) {
        var partial = path.hasPrefix("/") ? "" : "."
        for component in path.split(separator: "/", omittingEmptySubsequences: true) {
            partial += "/" + component
            if !PrivateFiles.makeDirectory(partial) && errno != EEXIST {
                throw CarFitError(.storage, "The attachments directory \(path.prefix(300)) could not be created: \(Self.reason(errno)).")
            }
        }
        var info = stat()
        guard stat(path, &info) == 0, (info.st_mode & S_IFMT) == S_IFDIR else {
            throw CarFitError(.storage, "The attachments directory \(path.prefix(300)) is not a directory.")
        }
    }

    /// Takes the group's and others' permissions from the directory and every file in it (a
    /// directory or files written by an earlier version); what cannot be changed (another
    /// owner's) is left as it is, and so is a symbolic link in it (what it points to is not the
    /// core's). Nothing happens when the directory does not exist.
    public func narrow() {
        PrivateFiles.narrow(path)
        for name in names() { PrivateFiles.narrow("\(path)/\(name)", followingLinks: false) }
    }

    /// Removes the temporary files of copies a crash interrupted (those no live process holds
    /// locked). Nothing happens when the directory does not exist.
    public func removeTemporaries() {
        for name in names() where name.hasPrefix(".carfit-") && name.hasSuffix(".partial") {
            let file = "\(path)/\(name)"
            let fd = open(file, O_RDONLY | O_CLOEXEC)
            guard fd >= 0 else { continue }
            if flock(fd, LOCK_EX | LOCK_NB) == 0 { unlink(file) }
            close(fd)
        }
    }

    /// The names of the stored copies (the attachments' ids), temporaries left out; empty when
    /// the directory does not exist.
    public func storedNames() -> [String] {
        names().filter { !$0.hasPrefix(".") }
    }

    private func names() -> [String] { Directory.names(in: path) }

    /// Deletes the stored copy of `id`, if any.
    public func remove(id: String) {
        unlink(filePath(id: id))
    }

    /// Copies the host's file at `source` to a temporary file for attachment `id`, streaming:
    /// its content type told from its first bytes (`ContentSniffer`; a note's bytes checked as
    /// UTF-8 text by `NoteText`), its size and SHA-256 counted as it is copied. Refusals are
    /// `invalid` with `field` (`file`): unreadable, a directory or not a regular file, empty,
    /// more than `maxBytes`, content that is not what `kind` takes. A failure to write the
    /// copy is `storage`. Nothing is left behind on any failure.
    public func stage(file source: String, id: String, kind: AttachmentKind, maxBytes: Int64) throws(CarFitError) -> StagedAttachment {
        let shown = String(source.prefix(300))
        // Non-blocking: a FIFO named by mistake must not hang the call in open(); it is then
        // refused as not a regular file.
        let input = open(source, O_RDONLY | O_CLOEXEC | O_NONBLOCK)
        guard input >= 0 else {
            throw CarFitError(.invalid, "The file \(shown) could not be read: \(Self.reason(errno)).", field: "file")
        }
        defer { close(input) }
        var info = stat()
        guard fstat(input, &info) == 0 else {
            throw CarFitError(.invalid, "The file \(shown) could not be read: \(Self.reason(errno)).", field: "file")
        }
        if (info.st_mode & S_IFMT) == S_IFDIR {
            throw CarFitError(.invalid, "\(shown) is a directory, not a file.", field: "file")
        }
        guard (info.st_mode & S_IFMT) == S_IFREG else {
            throw CarFitError(.invalid, "\(shown) is not a regular file.", field: "file")
        }
        guard Int64(info.st_size) <= maxBytes else {
            throw CarFitError(.invalid, "The file \(shown) has \(info.st_size) bytes; an attachment holds at most \(maxBytes).", field: "file")
        }
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: Self.chunkBytes, alignment: 16)
        defer { buffer.deallocate() }
        // The head: enough of the file to tell its content.
        var headCount = 0
        while headCount < ContentSniffer.headLength {
            let n = read(input, buffer.baseAddress.map { $0 + headCount }, ContentSniffer.headLength - headCount)
            if n < 0 {
                if errno == EINTR { continue }
                throw CarFitError(.invalid, "The file \(shown) could not be read: \(Self.reason(errno)).", field: "file")
            }
            if n == 0 { break }
            headCount += n
        }
        guard headCount > 0 else { throw CarFitError(.invalid, "The file \(shown) is empty.", field: "file") }
        var contentType = ContentSniffer.text
        var note: NoteText.Validator? = nil
        if kind == .note {
            note = NoteText.Validator()
        } else {
            let head = UnsafeRawBufferPointer(rebasing: buffer[0..<headCount]).bindMemory(to: UInt8.self)
            guard let type = ContentSniffer.contentType(of: head.span, kind: kind) else {
                let takes = kind == .photo ? "a JPEG, PNG, WebP or HEIC image" : "a PNG or SVG image"
                throw CarFitError(.invalid, "The file \(shown) is not \(takes), which a \(kind.rawValue) must be.", field: "file")
            }
            contentType = type
        }
        let writer = try StagingWriter(directory: self, id: id)
        var count = headCount
        var chunk = headCount
        while true {
            let bytes = UnsafeRawBufferPointer(rebasing: buffer[0..<chunk])
            if note != nil { note?.feed(bytes.bindMemory(to: UInt8.self).span) }
            try writer.write(bytes)
            let n = read(input, buffer.baseAddress, Self.chunkBytes)
            if n < 0 {
                if errno == EINTR { chunk = 0; continue }
                let code = errno
                writer.discard()
                throw CarFitError(.invalid, "The file \(shown) could not be read: \(Self.reason(code)).", field: "file")
            }
            if n == 0 { break }
            count += n
            guard Int64(count) <= maxBytes else {
                writer.discard()
                throw CarFitError(.invalid, "The file \(shown) has more than \(maxBytes) bytes, the most an attachment holds.", field: "file")
            }
            chunk = n
        }
        if let problem = note?.problem {
            writer.discard()
            throw CarFitError(.invalid, "The file \(shown) is not a note: \(problem)", field: "file")
        }
        return try writer.finish(contentType: contentType)
    }

    /// Writes a note's text to a temporary file for attachment `id`; the text was checked.
    public func stage(note bytes: [UInt8], id: String) throws(CarFitError) -> StagedAttachment {
        let writer = try StagingWriter(directory: self, id: id)
        var failure: CarFitError?
        bytes.withUnsafeBytes { raw in
            do throws(CarFitError) { try writer.write(raw) } catch { failure = error }
        }
        if let failure { throw failure }
        return try writer.finish(contentType: ContentSniffer.text)
    }

    /// The whole content of the stored copy at `path` (at most `limit` bytes are expected; a
    /// longer file is read to its end all the same): `storage` when it cannot be read.
    public func contents(path file: String, limit: Int64) throws(CarFitError) -> [UInt8] {
        let fd = open(file, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else {
            throw CarFitError(.storage, "The stored copy of the attachment could not be read: \(Self.reason(errno)).")
        }
        defer { close(fd) }
        return try SealedReader(fd: fd, seal: seal).readAll(expected: limit)
    }

    /// Brings every stored copy to the seal's form (sealed while the database is encrypted, as
    /// it is otherwise), one file at a time: each is rewritten under its temporary name,
    /// flushed and renamed over the old one, so a crash leaves every file whole in one form or
    /// the other and the next open goes on. A copy that cannot be converted now (its temporary
    /// held by another process, a read failure) is left as it is, readable all the same.
    public func convert() {
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: Self.chunkBytes, alignment: 16)
        defer { buffer.deallocate() }
        for name in storedNames() {
            let fd = open(filePath(id: name), O_RDONLY | O_CLOEXEC)
            guard fd >= 0 else { continue }
            defer { close(fd) }
            guard FileSeal.isSealed(fd: fd) != seal.sealsNew,
                  let reader = try? SealedReader(fd: fd, seal: seal),
                  let writer = try? StagingWriter(directory: self, id: name) else { continue }
            do throws(CarFitError) {
                while true {
                    let n = try reader.read(into: buffer)
                    if n == 0 { break }
                    try writer.write(UnsafeRawBufferPointer(rebasing: buffer[0..<n]))
                }
                try writer.finish(contentType: ContentSniffer.text).commit()
            } catch {
                writer.discard()
            }
        }
    }

    static func reason(_ code: Int32) -> String {
        guard let text = strerror(code) else { return "error \(code)" }
        return String(cString: text)
    }
}

/// A copy written and flushed under its temporary name, waiting for `commit` (the rename to its
/// id, once the database is about to record it) or `discard`.
public struct StagedAttachment: Sendable {
    public let directory: AttachmentDirectory
    public let id: String
    public let contentType: String
    public let bytes: Int64
    public let sha256: String

    /// Gives the copy its final name (and flushes the directory, so the rename is durable).
    public func commit() throws(CarFitError) {
        guard rename(directory.temporaryPath(id: id), directory.filePath(id: id)) == 0 else {
            let code = errno
            discard()
            throw CarFitError(.storage, "The attachment could not be stored in \(directory.path.prefix(300)): \(AttachmentDirectory.reason(code)).")
        }
        let dir = open(directory.path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        if dir >= 0 {
            fsync(dir)
            close(dir)
        }
    }

    /// Removes the temporary copy.
    public func discard() {
        unlink(directory.temporaryPath(id: id))
    }
}

/// The temporary file of one copy: bytes written through, hashed and counted.
final class StagingWriter {
    let directory: AttachmentDirectory
    let id: String
    private var fd: Int32
    private var output: SealedWriter?
    private let hash = SHA256()
    private var count: Int64 = 0

    init(directory: AttachmentDirectory, id: String) throws(CarFitError) {
        self.directory = directory
        self.id = id
        try directory.create()
        fd = PrivateFiles.open(directory.temporaryPath(id: id), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC)
        guard fd >= 0 else {
            throw CarFitError(.storage, "A file could not be created in the attachments directory \(directory.path.prefix(300)): \(AttachmentDirectory.reason(errno)).")
        }
        // Held until the copy is renamed or removed: a core opening meanwhile leaves it alone.
        flock(fd, LOCK_EX)
        output = SealedWriter(fd: fd, seal: directory.seal)
        if output == nil {
            let code = errno
            discard()
            throw CarFitError(.storage, "The attachment could not be written to \(directory.path.prefix(300)): \(AttachmentDirectory.reason(code)).")
        }
    }

    func write(_ bytes: UnsafeRawBufferPointer) throws(CarFitError) {
        hash.update(bytes)
        count += Int64(bytes.count)
        let code = output?.write(bytes) ?? EBADF
        guard code == 0 else {
            discard()
            throw CarFitError(.storage, "The attachment could not be written to \(directory.path.prefix(300)): \(AttachmentDirectory.reason(code)).")
        }
    }

    /// Flushes and closes the temporary file.
    func finish(contentType: String) throws(CarFitError) -> StagedAttachment {
        let sealed = output?.finish() ?? EBADF
        output = nil
        let synced = sealed != 0 ? sealed : fsync(fd) == 0 ? 0 : errno
        let closed = close(fd) == 0 ? 0 : errno
        fd = -1
        let code = synced != 0 ? synced : closed
        guard code == 0 else {
            unlink(directory.temporaryPath(id: id))
            throw CarFitError(.storage, "The attachment could not be written to \(directory.path.prefix(300)): \(AttachmentDirectory.reason(code)).")
        }
        guard let sha256 = hash.finish() else {
            unlink(directory.temporaryPath(id: id))
            throw CarFitError(.internal, "libcrypto could not compute the attachment's SHA-256.")
        }
        return StagedAttachment(directory: directory, id: id, contentType: contentType, bytes: count, sha256: sha256)
    }

    /// Closes and removes the temporary file.
    func discard() {
        output = nil
        if fd >= 0 { close(fd) }
        fd = -1
        unlink(directory.temporaryPath(id: id))
    }

    deinit {
        if fd >= 0 {
            close(fd)
            unlink(directory.temporaryPath(id: id))
        }
    }
}
