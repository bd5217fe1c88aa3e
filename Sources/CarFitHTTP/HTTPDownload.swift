#if canImport(Glibc)
import Glibc
#endif

/// A response whose body was written to a temporary file. The file belongs to this object:
/// it is removed when the object goes away, so a failed or abandoned import leaves nothing
/// behind. Read it (or move it elsewhere) while you hold the object.
public final class HTTPDownload: Sendable {
    public let response: HTTPResponse
    /// The temporary file holding the decoded body (`response.bodyBytes` bytes): a path in the
    /// temporary directory, or `/proc/self/fd/N` for a file in memory.
    public let path: String
    /// The descriptor of a file in memory, closed (which frees it) when this goes away; -1
    /// for a file on disk.
    private let memoryFile: Int32

    init(response: HTTPResponse, path: String) {
        self.response = response
        self.path = path
        memoryFile = -1
    }

    init(response: HTTPResponse, memoryFile: Int32) {
        self.response = response
        path = "/proc/self/fd/\(memoryFile)"
        self.memoryFile = memoryFile
    }

    deinit {
        if memoryFile >= 0 {
            close(memoryFile)
        } else {
            unlink(path)
        }
    }
}
