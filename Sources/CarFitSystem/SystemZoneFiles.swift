#if canImport(Glibc)
import Glibc
#endif
import CarFitCore

/// The domain's `ZoneFiles` on the file system: `$TZDIR` or `/usr/share/zoneinfo` by default, a
/// file read only when its real path (links resolved) lies under the directory's.
public struct SystemZoneFiles: ZoneFiles {
    public init() {}

    /// `$TZDIR` when set, else `/usr/share/zoneinfo`.
    public static var defaultDirectory: String {
        if let dir = getenv("TZDIR"), dir.pointee != 0 { return String(cString: dir) }
        return ZoneInfo.systemDirectory
    }

    public var defaultDirectory: String { SystemZoneFiles.defaultDirectory }

    public func isDirectory(_ path: String) -> Bool {
        guard !path.isEmpty, !path.utf8.contains(0) else { return false }
        var st = stat()
        return stat(path, &st) == 0 && (st.st_mode & S_IFMT) == S_IFDIR
    }

    public func contents(of name: String, in directory: String, maxBytes: Int) -> [UInt8]? {
        guard ZoneInfo.isPlainName(name), let base = SystemZoneFiles.realPath(directory),
              let file = SystemZoneFiles.realPath(directory + "/" + name) else { return nil }
        let prefix = base.hasSuffix("/") ? base : base + "/"
        guard file.hasPrefix(prefix), file.count > prefix.count else { return nil }
        return SystemZoneFiles.readRegularFile(file, maxBytes: maxBytes)
    }

    static func realPath(_ path: String) -> String? {
        var resolved = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
        guard !path.isEmpty, !path.utf8.contains(0), realpath(path, &resolved) != nil else { return nil }
        return String(decoding: resolved.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    /// The bytes of a regular file of at most `maxBytes`, or nil.
    static func readRegularFile(_ path: String, maxBytes: Int) -> [UInt8]? {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        var st = stat()
        guard fstat(fd, &st) == 0, (st.st_mode & S_IFMT) == S_IFREG, st.st_size >= 0,
              st.st_size <= maxBytes else { return nil }
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
            guard bytes.count <= maxBytes else { return nil }
        }
        return bytes
    }
}

extension Clock {
    /// A clock in zone `zoneName`, whose rules are read from the TZif file of that name under
    /// `zoneinfo` of the system's time zone files (`"UTC"` needs none).
    public init(zoneName: String = "UTC", zoneinfo: String = SystemZoneFiles.defaultDirectory, fixedNow: Instant? = nil,
                hour24: Bool = true, hostNow: (@Sendable () -> Instant)? = nil) throws(CarFitError) {
        try self.init(zoneName: zoneName, zoneinfo: zoneinfo, files: SystemZoneFiles(), fixedNow: fixedNow,
                      hour24: hour24, hostNow: hostNow)
    }
}
