import CSQLite
import CarFitCore
#if canImport(Glibc)
import Glibc
#endif

/// Why the database failed, told so that a user can act on it: which file, and whether its
/// directory is missing, permission is lacking, the file or its disk is read-only, it is not a
/// database (or is encrypted or damaged), the disk is full, or another program holds it locked.
/// SQLite's result code and the system's error number say which; for a file that cannot be
/// opened, the file system is asked what stands in the way.
struct StorageFailure {
    enum Reason: Equatable {
        /// The directory that should hold the file does not exist.
        case missingDirectory(String)
        /// The path names a directory, not a file.
        case isDirectory
        /// The file exists but may not be read or written by this process.
        case noPermission
        /// The file does not exist and may not be created in its directory, or the journal
        /// files SQLite keeps beside it may not be.
        case noPermissionInDirectory(String)
        /// The file may be read but not written.
        case readOnlyFile
        /// The file lies on a file system mounted read-only.
        case readOnlyFileSystem
        /// The file is not an SQLite database, or is encrypted.
        case notADatabase
        /// The file is a database with damaged pages.
        case damaged
        /// No space is left on the disk holding the file.
        case diskFull
        /// Another connection kept its write lock past the busy timeout (in milliseconds).
        case locked(Int32)
        /// Reading or writing the file failed; the system's explanation.
        case inputOutput(String)
        case outOfMemory
        /// Anything else: SQLite's own sentence.
        case other(String)
    }

    var path: String
    var reason: Reason

    /// A failure of `path` with SQLite's (extended) result code `code`, the system error number
    /// of the connection's last failure (0 if none), SQLite's message, and the connection's busy
    /// timeout.
    init(path: String, code: Int32, systemError: Int32, message: String, busyTimeoutMs: Int32) {
        self.path = path
        switch code & 0xFF {
        case SQLITE_NOTADB: reason = .notADatabase
        case SQLITE_CORRUPT: reason = .damaged
        case SQLITE_FULL: reason = .diskFull
        case SQLITE_BUSY, SQLITE_LOCKED: reason = .locked(busyTimeoutMs)
        case SQLITE_NOMEM: reason = .outOfMemory
        case SQLITE_CANTOPEN, SQLITE_READONLY, SQLITE_PERM, SQLITE_AUTH:
            reason = StorageFailure.obstacle(path: path, systemError: systemError) ?? .noPermission
        case SQLITE_IOERR:
            if systemError == ENOSPC {
                reason = .diskFull
            } else if systemError == EROFS {
                reason = .readOnlyFileSystem
            } else if systemError == EACCES || systemError == EPERM {
                reason = StorageFailure.obstacle(path: path, systemError: systemError) ?? .noPermission
            } else {
                reason = .inputOutput(systemError == 0 ? message : String(cString: strerror(systemError)))
            }
        default: reason = .other(message)
        }
    }

    init(path: String, reason: Reason) {
        self.path = path
        self.reason = reason
    }

    /// What keeps the file at `path` from being opened for reading and writing, as the file
    /// system tells it; nil when nothing can be found.
    static func obstacle(path: String, systemError: Int32) -> Reason? {
        if systemError == EROFS { return .readOnlyFileSystem }
        if systemError == EISDIR { return .isDirectory }
        let directory = StorageFailure.directory(of: path)
        var st = stat()
        if stat(directory, &st) != 0 || (st.st_mode & S_IFMT) != S_IFDIR {
            return .missingDirectory(directory)
        }
        if stat(path, &st) == 0 {
            if (st.st_mode & S_IFMT) == S_IFDIR { return .isDirectory }
            if access(path, R_OK) != 0 { return errno == EROFS ? .readOnlyFileSystem : .noPermission }
            if access(path, W_OK) != 0 { return errno == EROFS ? .readOnlyFileSystem : .readOnlyFile }
            // The file is fine; SQLite also creates its journal files beside it.
            if access(directory, W_OK | X_OK) != 0 {
                return errno == EROFS ? .readOnlyFileSystem : .noPermissionInDirectory(directory)
            }
            return nil
        }
        if access(directory, W_OK | X_OK) != 0 {
            return errno == EROFS ? .readOnlyFileSystem : .noPermissionInDirectory(directory)
        }
        return nil
    }

    /// The directory a database path lies in ("." for a bare file name).
    static func directory(of path: String) -> String {
        guard let slash = path.lastIndex(of: "/") else { return "." }
        return slash == path.startIndex ? "/" : String(path[..<slash])
    }

    /// The file as messages show it.
    static func shown(_ path: String) -> String {
        path == ":memory:" || path.isEmpty ? "the in-memory database" : "the database \"\(path)\""
    }

    /// What happened and what to do, after "Cannot open the database "…": ".
    var explanation: String {
        switch reason {
        case .missingDirectory(let directory):
            return "the directory \"\(directory)\" does not exist. Create it, or choose a database path in an existing directory."
        case .isDirectory:
            return "that is a directory, not a file. Give the path of a database file inside it, such as \"\(path)/carfit.sqlite\"."
        case .noPermission:
            return "this program has no permission to read and write the file. Change the file's permissions, or choose another path."
        case .noPermissionInDirectory(let directory):
            return "this program has no permission to create files in the directory \"\(directory)\" (the database keeps "
                + "its journal files beside it). Change the directory's permissions, or choose another directory."
        case .readOnlyFile:
            return "the file is read-only. Make it writable (chmod u+w), or choose another path."
        case .readOnlyFileSystem:
            return "the file lies on a read-only file system. Choose a database path on a writable disk."
        case .notADatabase:
            return "the file is not a libcarfit database, or it is encrypted or damaged. Choose another path, or move the file "
                + "away to start with an empty database."
        case .damaged:
            return "the file is damaged. Restore it from a backup, or move it away to start with an empty database."
        case .diskFull:
            return "the disk holding it is full, so nothing was changed. Free some space, then try again."
        case .locked(let ms):
            return "another program is writing to it and kept it locked for more than \(Self.seconds(ms)). Try again once "
                + "it has finished, or close the other program."
        case .inputOutput(let text):
            return "reading or writing the file failed (\(Self.sentence(text))). Check the disk, then try again."
        case .outOfMemory:
            return "there is not enough memory. Close other programs, then try again."
        case .other(let text):
            return "\(Self.sentence(text))."
        }
    }

    /// The `storage` error of a database that could not be opened (`field` "database").
    var openError: CarFitError {
        CarFitError(.storage, "Cannot open \(Self.shown(path)): \(explanation)", field: "database")
    }

    /// The `storage` error of an open database that failed.
    var error: CarFitError {
        CarFitError(.storage, "Cannot use \(Self.shown(path)): \(explanation)")
    }

    /// A duration in milliseconds as "10 s" or "250 ms".
    static func seconds(_ ms: Int32) -> String {
        ms >= 1000 && ms % 1000 == 0 ? "\(ms / 1000) s" : "\(ms) ms"
    }

    /// A message of SQLite or the system without its final full stop, starting in lower case.
    static func sentence(_ text: String) -> String {
        var t = Substring(text)
        while let c = t.first, c.isWhitespace { t.removeFirst() }
        while let c = t.last, c.isWhitespace { t.removeLast() }
        while t.hasSuffix(".") { t.removeLast() }
        return String(t)
    }
}
