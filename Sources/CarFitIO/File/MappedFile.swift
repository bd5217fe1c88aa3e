import CarFitCore
#if canImport(Glibc)
import Glibc
#endif

/// A file read through a read-only memory mapping: its bytes are paged in from the file as the
/// import walks them and can be dropped again by the kernel, so a document of any size is never
/// copied into the process's own memory. Unmapped when the object goes away.
public final class MappedFile {
    public let path: String
    private let base: UnsafeMutableRawPointer?
    public let count: Int

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

    /// The file's bytes, valid only inside `body`.
    public func withBytes<R, E: Error>(_ body: (UnsafeRawBufferPointer) throws(E) -> R) throws(E) -> R {
        try body(UnsafeRawBufferPointer(start: base.map { UnsafeRawPointer($0) }, count: base == nil ? 0 : count))
    }

    static func systemError(_ code: Int32) -> String {
        guard let text = strerror(code) else { return "error \(code)" }
        return String(cString: text)
    }
}
