import CarFitSystem
#if canImport(Glibc)
import Glibc
#endif

/// The few file-system operations the image cache needs, on POSIX calls.
enum Files {
    /// Creates `path` and its missing parents (each 0700, `PrivateFiles`); nil on success,
    /// else the failure's description.
    static func makeDirectories(_ path: String) -> String? {
        guard !path.isEmpty, !path.utf8.contains(0) else { return "not a directory path" }
        var prefix = path.hasPrefix("/") ? "/" : ""
        for component in path.split(separator: "/") {
            prefix += component
            if !PrivateFiles.makeDirectory(prefix), errno != EEXIST {
                return String(cString: strerror(errno))
            }
            prefix += "/"
        }
        return nil
    }

    static func isDirectory(_ path: String) -> Bool {
        var st = stat()
        return stat(path, &st) == 0 && (st.st_mode & S_IFMT) == S_IFDIR
    }

    /// The names in a directory (without "." and ".."); empty when it cannot be read.
    static func names(in directory: String) -> [String] { Directory.names(in: directory) }

    /// A file's bytes, or nil.
    static func read(_ path: String) -> [UInt8]? {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 65_536)
        while true {
            let n = chunk.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress, $0.count) }
            if n < 0 {
                if errno == EINTR { continue }
                return nil
            }
            if n == 0 { return bytes }
            bytes += chunk[0..<n]
        }
    }

    /// Writes `bytes` to a new file at `path` (0600, `PrivateFiles`; a file already there is
    /// not touched); false on any failure (the file may be left).
    static func create(_ path: String, _ bytes: [UInt8]) -> Bool {
        let fd = PrivateFiles.open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC)
        guard fd >= 0 else { return false }
        var written = 0
        while written < bytes.count {
            let n = bytes.withUnsafeBytes { write(fd, $0.baseAddress.map { $0 + written }, bytes.count - written) }
            if n < 0 {
                if errno == EINTR { continue }
                close(fd)
                return false
            }
            written += n
        }
        return close(fd) == 0
    }

    /// Removes `path` and, for a directory, everything in it (links are removed, not followed).
    static func removeTree(_ path: String) {
        var st = stat()
        guard lstat(path, &st) == 0 else { return }
        if (st.st_mode & S_IFMT) == S_IFDIR {
            for name in names(in: path) { removeTree(path + "/" + name) }
            rmdir(path)
        } else {
            unlink(path)
        }
    }
}
