#if canImport(Glibc)
import Glibc
#endif

/// The system's time zone database: a directory of TZif files (Debian's `tzdata`), one per IANA
/// name. The only files the domain reads: a zone's rules are loaded once, when the clock is made.
public enum ZoneInfo {
    /// `$TZDIR` when set, else `/usr/share/zoneinfo`.
    public static var defaultDirectory: String {
        if let dir = getenv("TZDIR"), dir.pointee != 0 { return String(cString: dir) }
        return "/usr/share/zoneinfo"
    }

    public static let maxNameBytes = 255
    static let maxFileBytes = 4 << 20

    /// Whether `path` names a directory.
    public static func isDirectory(_ path: String) -> Bool {
        guard !path.isEmpty, !path.utf8.contains(0) else { return false }
        var st = stat()
        return stat(path, &st) == 0 && (st.st_mode & S_IFMT) == S_IFDIR
    }

    /// The rules of zone `name` read from `directory`: `"UTC"` without a file, else the TZif
    /// file `directory/name`. Nil when the name tries to leave the directory (an absolute path,
    /// a `..` component, a link resolving outside it) or names no valid TZif file there.
    public static func rules(named name: String, in directory: String) -> ZoneRules? {
        if name == "UTC" { return .utc }
        guard !name.isEmpty, name.utf8.count <= maxNameBytes, !name.utf8.contains(0),
              !name.hasPrefix("/"), !name.split(separator: "/", omittingEmptySubsequences: false).contains("..")
        else { return nil }
        guard let base = realPath(directory), let file = realPath(directory + "/" + name) else { return nil }
        let prefix = base.hasSuffix("/") ? base : base + "/"
        guard file.hasPrefix(prefix), file.count > prefix.count else { return nil }
        guard let bytes = readRegularFile(file) else { return nil }
        return ZoneRules(tzif: bytes)
    }

    static func realPath(_ path: String) -> String? {
        var resolved = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
        guard !path.utf8.contains(0), realpath(path, &resolved) != nil else { return nil }
        return String(decoding: resolved.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    /// The bytes of a regular file of at most `maxFileBytes`, or nil.
    static func readRegularFile(_ path: String) -> [UInt8]? {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        var st = stat()
        guard fstat(fd, &st) == 0, (st.st_mode & S_IFMT) == S_IFREG, st.st_size >= 0,
              st.st_size <= maxFileBytes else { return nil }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 65_536)
        while true {
            let n = read(fd, &chunk, chunk.count)
            if n < 0 {
                if errno == EINTR { continue }
                return nil
            }
            if n == 0 { break }
            bytes += chunk[0..<n]
            guard bytes.count <= maxFileBytes else { return nil }
        }
        return bytes
    }
}
