#if canImport(Glibc)
import Glibc
#endif

/// A response whose body was written to a temporary file. The file belongs to this object:
/// it is removed when the object goes away, so a failed or abandoned import leaves nothing
/// behind. Read it (or move it elsewhere) while you hold the object.
public final class HTTPDownload: Sendable {
    public let response: HTTPResponse
    /// The temporary file holding the decoded body (`response.bodyBytes` bytes).
    public let path: String

    init(response: HTTPResponse, path: String) {
        self.response = response
        self.path = path
    }

    deinit { unlink(path) }
}
