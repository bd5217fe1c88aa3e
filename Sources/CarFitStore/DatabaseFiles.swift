#if canImport(Glibc)
import Glibc
#endif

/// The database file and its companions readable and writable by their owner only. A new
/// database file is created 0600 before SQLite opens it, whatever the umask; SQLite gives the
/// files it makes beside it (`-wal`, `-shm`, `-journal`) the database file's permissions. An
/// existing database and companions that an earlier version left open to others are narrowed
/// (the owner's permissions kept); what cannot be changed (another owner's file) is left as it is.
enum DatabaseFiles {
    static let companions = ["-wal", "-shm", "-journal"]

    /// Makes the database at `path` (a file path, not ":memory:") private as above. Failures
    /// are left to `sqlite3_open_v2`, which says what is in the way.
    static func prepare(_ path: String) {
        guard !path.isEmpty, path != ":memory:", !path.hasPrefix("file:") else { return }
        let fd = open(path, O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
        if fd >= 0 {
            _ = fchmod(fd, 0o600)  // the umask may have taken bits from 0600
            _ = close(fd)
            return
        }
        guard errno == EEXIST else { return }
        for file in [path] + companions.map({ path + $0 }) {
            var info = stat()
            // Regular files only: a directory named as the database is refused by SQLite as it is.
            guard stat(file, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG, info.st_mode & 0o077 != 0 else { continue }
            _ = chmod(file, info.st_mode & 0o700)
        }
    }
}
