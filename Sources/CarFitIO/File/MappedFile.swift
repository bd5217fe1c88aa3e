import CarFitCore
#if canImport(Glibc)
import Glibc
#endif

/// A file read through a read-only memory mapping: its bytes are paged in from the file as the
/// import walks them, and `release` drops the pages behind it, so a document of any size is
/// never held whole in memory. Unmapped when the object goes away.
public final class MappedFile {
    public let path: String
    private let base: UnsafeMutableRawPointer?
    public let count: Int
    /// The page-aligned length at the start whose pages were dropped (`release`).
    private var released = 0

    /// Opens and maps `path`. A file that cannot be opened, is not a regular file or cannot be
    /// mapped is `invalid` with `field` and the system's reason in the message.
    public init(path: String, field: String) throws(CarFitError) {
        self.path = path
        let shown = String(path.prefix(300))
        guard !path.isEmpty, !path.utf8.contains(0) else {
            throw .invalid(field, "\(field) must be a file path.")
        }
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else {
            throw .invalid(field, "The file \"\(shown)\" cannot be read: \(MappedFile.systemError(errno)).")
        }
        defer { close(fd) }
        var info = stat()
        guard fstat(fd, &info) == 0 else {
            throw .invalid(field, "The file \"\(shown)\" cannot be read: \(MappedFile.systemError(errno)).")
        }
        guard (info.st_mode & S_IFMT) == S_IFREG else {
            throw .invalid(field, "\"\(shown)\" is not a regular file.")
        }
        let size = Int(info.st_size)
        count = max(size, 0)
        guard count > 0 else {
            base = nil
            return
        }
        guard let mapped = mmap(nil, count, PROT_READ, MAP_PRIVATE, fd, 0), mapped != MAP_FAILED else {
            throw .invalid(field, "The file \"\(shown)\" cannot be read: \(MappedFile.systemError(errno)).")
        }
        // Read front to back once: the kernel may read ahead and drop pages behind.
        _ = madvise(mapped, count, MADV_SEQUENTIAL)
        base = mapped
    }

    deinit {
        if let base { munmap(base, count) }
    }

    /// Drops the resident pages of the file's first `offset` bytes (whole pages only): an
    /// import calls it as it moves on, so its memory holds the part being read rather than the
    /// whole file. The bytes stay readable: a later read pages them in from the file again.
    public func release(upTo offset: Int) {
        guard let base, offset > released else { return }
        let page = max(Int(sysconf(Int32(_SC_PAGESIZE))), 4096)
        let end = min(offset, count) / page * page
        guard end > released else { return }
        _ = madvise(base + released, end - released, MADV_DONTNEED)
        released = end
    }

    /// The file's bytes, valid only inside `body`.
    public func withBytes<R, E: Error>(_ body: (UnsafeRawBufferPointer) throws(E) -> R) throws(E) -> R {
        try body(UnsafeRawBufferPointer(start: base.map { UnsafeRawPointer($0) }, count: base == nil ? 0 : count))
    }

    static func systemError(_ code: Int32) -> String {
        guard let text = strerror(code) else { return "error \(code)" }
        return String(cString: text)
    }
}
