import CarFitCore
#if canImport(Glibc)
import Glibc
#endif

/// A regular file read with `pread` through a window of memory that moves along it, so that
/// a document of any size is never held whole, and a file that another process shrinks or
/// rewrites while it is read is only a shorter or different text (never a fault, as touching
/// a memory mapping past the file's new end would be). Closed when the object goes away.
///
/// The window is for one reader at a time (a `DocumentScanner`); `count` is the size the file
/// had when it was opened, and may no longer be its size.
public final class FileReader {
    public let path: String
    /// The file's size when it was opened.
    public let count: Int
    private let fd: Int32
    private let field: String

    /// The window: `filled` bytes of the file from offset `origin`, in a buffer of `capacity`.
    private var buffer: UnsafeMutableRawPointer?
    private var capacity = 0
    private(set) var origin = 0
    private(set) var filled = 0
    /// A read found the file's end.
    private(set) var atEnd = false
    /// The error of a read that failed (`errno`), which ends the reading.
    private(set) var readError: Int32?

    /// Bytes asked of the system per read at least.
    private let chunkBytes: Int

    /// Opens `path`. A file that cannot be opened or is not a regular file is `invalid` with
    /// `field` and the system's reason in the message. `chunkBytes`: the least a read of the
    /// window asks for (the window holds at least four times that).
    public init(path: String, field: String, chunkBytes: Int = 1 << 20) throws(CarFitError) {
        self.path = path
        self.field = field
        self.chunkBytes = max(1, chunkBytes)
        let shown = String(path.prefix(300))
        guard !path.isEmpty, !path.utf8.contains(0) else {
            throw .invalid(field, "\(field) must be a file path.")
        }
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else {
            throw .invalid(field, "The file \"\(shown)\" cannot be read: \(FileReader.systemError(errno)).")
        }
        var info = stat()
        guard fstat(fd, &info) == 0 else {
            let code = errno
            close(fd)
            throw .invalid(field, "The file \"\(shown)\" cannot be read: \(FileReader.systemError(code)).")
        }
        guard (info.st_mode & S_IFMT) == S_IFREG else {
            close(fd)
            throw .invalid(field, "\"\(shown)\" is not a regular file.")
        }
        self.fd = fd
        count = max(Int(info.st_size), 0)
        // Read front to back once: the kernel may read ahead.
        _ = posix_fadvise(fd, 0, 0, POSIX_FADV_SEQUENTIAL)
    }

    deinit {
        buffer?.deallocate()
        close(fd)
    }

    /// The window's bytes (file offsets `origin ..< origin + filled`), valid until the next
    /// `load`.
    var window: UnsafeRawBufferPointer {
        UnsafeRawBufferPointer(start: buffer.map { UnsafeRawPointer($0) }, count: buffer == nil ? 0 : filled)
    }

    /// Moves the window to start at file offset `keep` (at least `origin`, at most its end) and
    /// reads more bytes after the ones it holds. False when nothing more came: the file ended
    /// or a read failed (`readError`).
    func load(keeping keep: Int) -> Bool {
        guard !atEnd, readError == nil else { return false }
        let drop = min(max(keep - origin, 0), filled)
        let kept = filled - drop
        if drop > 0, let buffer {
            if kept > 0 { memmove(buffer, buffer + drop, kept) }
            origin += drop
            filled = kept
        }
        if capacity - filled < chunkBytes {
            let grown = max(capacity * 2, filled + 4 * chunkBytes)
            let fresh = UnsafeMutableRawPointer.allocate(byteCount: grown, alignment: 16)
            if let buffer {
                if filled > 0 { fresh.copyMemory(from: buffer, byteCount: filled) }
                buffer.deallocate()
            }
            buffer = fresh
            capacity = grown
        }
        guard let buffer else { return false }
        while true {
            let n = pread(fd, buffer + filled, capacity - filled, off_t(origin + filled))
            if n > 0 {
                filled += n
                return true
            }
            if n == 0 {
                atEnd = true
                return false
            }
            if errno == EINTR { continue }
            readError = errno
            return false
        }
    }

    /// Reads up to `length` bytes at file offset `offset` into `target`, outside the window:
    /// the count read (0 at the file's end), or nil when the read failed (`readError`).
    func read(into target: UnsafeMutableRawPointer, length: Int, at offset: Int) -> Int? {
        while true {
            let n = pread(fd, target, length, off_t(offset))
            if n >= 0 { return n }
            if errno == EINTR { continue }
            readError = errno
            return nil
        }
    }

    /// The first byte of the file, from its start, that `skip` does not pass over; nil when
    /// every byte does (or the file is empty). A failed read is `invalid` with the field.
    public func firstByte(notMatching skip: (UInt8) -> Bool) throws(CarFitError) -> UInt8? {
        let size = 64 * 1024
        let chunk = UnsafeMutableRawPointer.allocate(byteCount: size, alignment: 16)
        defer { chunk.deallocate() }
        var offset = 0
        while true {
            guard let n = read(into: chunk, length: size, at: offset) else { throw readFailure() }
            if n == 0 { return nil }
            let bytes = UnsafeRawBufferPointer(start: chunk, count: n)
            if let found = bytes.first(where: { !skip($0) }) { return found }
            offset += n
        }
    }

    /// The `invalid` error (with the field) for a read that failed, or nil when none did.
    public var failure: CarFitError? {
        readError.map { _ in readFailure() }
    }

    func readFailure() -> CarFitError {
        .invalid(field, "The file \"\(path.prefix(300))\" cannot be read: \(FileReader.systemError(readError ?? EIO)).")
    }

    static func systemError(_ code: Int32) -> String {
        guard let text = strerror(code) else { return "error \(code)" }
        return String(cString: text)
    }
}
