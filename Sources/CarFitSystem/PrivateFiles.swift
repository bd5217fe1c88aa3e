#if canImport(Glibc)
import Glibc
#endif

/// Files and directories readable and writable by their owner only: what the core creates is
/// 0600 (files) or 0700 (directories) whatever the process's umask (the umask is left alone:
/// it is the whole process's), and what an earlier version left open to others is narrowed.
public enum PrivateFiles {
    public static let fileMode: mode_t = 0o600
    public static let directoryMode: mode_t = 0o700

    /// Opens `path` with `flags` (O_CREAT among them or not), creating it 0600 when absent; an
    /// existing file is narrowed (`narrow(fd:)`). -1 with `errno` set on failure.
    public static func open(_ path: String, _ flags: Int32) -> Int32 {
        let rest = flags & ~(O_CREAT | O_EXCL)
        if flags & O_CREAT != 0 {
            let fd = Glibc.open(path, rest | O_CREAT | O_EXCL, fileMode)
            if fd >= 0 {
                _ = fchmod(fd, fileMode)  // the umask may have taken bits from 0600
                return fd
            }
            if errno != EEXIST || flags & O_EXCL != 0 { return -1 }
        }
        let fd = Glibc.open(path, rest)
        if fd >= 0 { narrow(fd: fd) }
        return fd
    }

    /// Creates the directory `path` 0700; true when it was created, false with `errno` set
    /// otherwise (EEXIST when it exists: it is left as it is).
    public static func makeDirectory(_ path: String) -> Bool {
        guard mkdir(path, directoryMode) == 0 else { return false }
        _ = chmod(path, directoryMode)
        return true
    }

    /// Takes the group's and others' permissions from the file or directory at `path` when it
    /// has any (the owner's are kept). A file that is absent, or that cannot be changed
    /// (another owner's, a read-only file system), is left as it is without a word. With
    /// `followingLinks` false a symbolic link is left alone, and so is what it points to.
    public static func narrow(_ path: String, followingLinks: Bool = true) {
        var info = stat()
        guard (followingLinks ? stat(path, &info) : lstat(path, &info)) == 0,
              (info.st_mode & S_IFMT) != S_IFLNK, info.st_mode & 0o077 != 0 else { return }
        _ = chmod(path, info.st_mode & 0o700)
    }

    /// `narrow` of an open file.
    public static func narrow(fd: Int32) {
        var info = stat()
        guard fstat(fd, &info) == 0, info.st_mode & 0o077 != 0 else { return }
        _ = fchmod(fd, info.st_mode & 0o700)
    }
}
