import CSQLite
import CarFitCore
#if canImport(Glibc)
import Glibc
#endif

/// The encryption of a database's files: which SQLite VFS opens them, and the refusals that come
/// before anything is created or changed. With a key, the database, its WAL and journal, and
/// SQLite's temporary files go through the encrypting VFS (Sources/CSQLite/carfit_crypt.c:
/// ChaCha20-Poly1305 blocks under a key derived per file from the key and a random salt).
public enum DatabaseCrypt {
    /// What the file at `path` holds.
    public enum Contents: Equatable, Sendable {
        case empty, plaintext, encrypted(keyMatches: Bool), foreign, unreadable
    }

    /// Reads the start of the file at `path` (nothing is created or changed).
    public static func probe(_ path: String, key: EncryptionKey?) -> Contents {
        let answer = withKey(key) { cf_crypt_probe(path, $0) }
        switch answer {
        case CF_PROBE_EMPTY: return .empty
        case CF_PROBE_PLAIN: return .plaintext
        case CF_PROBE_KEY_OK: return .encrypted(keyMatches: true)
        case CF_PROBE_OTHER_KEY: return .encrypted(keyMatches: false)
        case CF_PROBE_FOREIGN: return .foreign
        default: return .unreadable
        }
    }

    /// `unauthorized` with `reason` "key_required": an encrypted database (or a file without
    /// SQLite's header, which may be one) opened without a key.
    public static func keyRequired(_ path: String) -> CarFitError {
        CarFitError(.unauthorized, "Cannot open \(StorageFailure.shown(path)): the file is encrypted, or is not a libcarfit "
                    + "database. Open it with its key (encryption.key), or choose another path.",
                    field: "encryption", details: .init(reason: "key_required"))
    }

    /// `unauthorized` with `reason` "wrong_key": the key given is not the database's (or another
    /// core changed it: reopen with the new key).
    public static func wrongKey(_ path: String) -> CarFitError {
        CarFitError(.unauthorized, "Cannot open \(StorageFailure.shown(path)): it is encrypted under another key. "
                    + "Open it with its key (encryption.key).",
                    field: "encryption", details: .init(reason: "wrong_key"))
    }

    /// The name of the VFS that opens the database at `path` (nil: SQLite's default, plaintext),
    /// after the refusals: an encrypted file without a key, a key that is not the file's.
    static func vfs(path: String, key: EncryptionKey?) throws(CarFitError) -> String? {
        guard isFilePath(path) else { return nil }
        let contents = probe(path, key: key)
        guard let key else {
            switch contents {
            case .encrypted, .foreign: throw keyRequired(path)
            default: return nil
            }
        }
        switch contents {
        // A file that is neither SQLite's nor encrypted by this library: the key does not open it.
        case .encrypted(keyMatches: false), .foreign: throw wrongKey(path)
        case .plaintext:
            let name = try vfsName(key)
            try encryptInPlace(path, vfs: name)
            return name
        default: return try vfsName(key)
        }
    }

    /// The name the encrypted copy of a plaintext database is built under, beside it.
    static func pendingName(_ path: String) -> String { path + "-encrypting" }

    /// Encrypts the plaintext database at `path`: an encrypted copy is built beside it (SQLite's
    /// backup, written through the VFS `vfs`), made durable, and renamed over the plaintext file
    /// in one step. A crash before the rename leaves the plaintext database as it was (the next
    /// open starts over); after it, the encrypted one is complete.
    static func encryptInPlace(_ path: String, vfs: String) throws(CarFitError) {
        var db: OpaquePointer?
        let rc = sqlite3_open_v2(path, &db, SQLITE_OPEN_READWRITE | SQLITE_OPEN_NOMUTEX, nil)
        guard rc == SQLITE_OK, let source = db else {
            sqlite3_close_v2(db)
            throw CarFitError(.storage, "Cannot encrypt \(StorageFailure.shown(path)): \(String(cString: sqlite3_errstr(rc))).", field: "database")
        }
        sqlite3_busy_timeout(source, 10_000)
        do throws(CarFitError) {
            try copy(from: source, path: path, to: vfs)
        } catch {
            sqlite3_close_v2(source)
            throw error
        }
        sqlite3_close_v2(source)
        if fileSize(path + "-wal") > 0 {
            // Another program still has the plaintext database open: its commits would be lost.
            removePending(path)
            throw CarFitError(.storage, "Cannot encrypt \(StorageFailure.shown(path)): another program has it open; close it and try again.",
                              field: "database")
        }
        guard putInPlace(path) else {
            throw CarFitError(.storage, "Cannot encrypt \(StorageFailure.shown(path)): the encrypted copy could not be put in its place.",
                              field: "database")
        }
    }

    /// After an open with `key` failed: `wrongKey` when the file is now encrypted under another
    /// key (another core changed it between the key's check and the open), else nil.
    static func changedKey(_ path: String, key: EncryptionKey?) -> CarFitError? {
        guard key != nil, isFilePath(path), case .encrypted(keyMatches: false) = probe(path, key: key) else { return nil }
        return wrongKey(path)
    }

    /// A connection to `path` (through `vfs`) holding its write lock (`BEGIN IMMEDIATE`) until
    /// it is closed: other connections' writes wait for it (up to their busy timeout), readers
    /// go on. Waits up to `busyTimeoutMs` for a write in progress.
    static func holdWrites(_ path: String, vfs: String?, busyTimeoutMs: Int32) throws(CarFitError) -> OpaquePointer {
        var db: OpaquePointer?
        var rc = sqlite3_open_v2(path, &db, SQLITE_OPEN_READWRITE | SQLITE_OPEN_NOMUTEX, vfs)
        if rc == SQLITE_OK, let db {
            sqlite3_busy_timeout(db, busyTimeoutMs)
            rc = sqlite3_exec(db, "BEGIN IMMEDIATE", nil, nil, nil)
            if rc == SQLITE_OK { return db }
        }
        let reason = String(cString: sqlite3_errstr(rc))
        sqlite3_close_v2(db)
        throw CarFitError(.storage, "Cannot change the key of \(StorageFailure.shown(path)): another connection kept writing (\(reason)); try again.",
                          field: "database")
    }

    /// Copies the database of connection `source` (a consistent snapshot) to the pending file
    /// beside `path`, through `vfs` (nil: plaintext), and makes it durable.
    static func copy(from source: OpaquePointer, path: String, to vfs: String?) throws(CarFitError) {
        let pending = pendingName(path)
        removePending(path)
        var db: OpaquePointer?
        var rc = sqlite3_open_v2(pending, &db, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_NOMUTEX, vfs)
        if rc == SQLITE_OK, let target = db {
            if let backup = sqlite3_backup_init(target, "main", source, "main") {
                repeat {
                    rc = sqlite3_backup_step(backup, -1)
                    if rc == SQLITE_BUSY || rc == SQLITE_LOCKED { sqlite3_sleep(20) }
                } while rc == SQLITE_OK || rc == SQLITE_BUSY || rc == SQLITE_LOCKED
                let finished = sqlite3_backup_finish(backup)
                rc = rc == SQLITE_DONE ? finished : rc
            } else {
                rc = sqlite3_errcode(target)
            }
        }
        let closed = sqlite3_close_v2(db)
        if rc == SQLITE_OK { rc = closed }
        guard rc == SQLITE_OK, sync(pending) else {
            removePending(path)
            throw CarFitError(.storage, "Cannot write the new copy of \(StorageFailure.shown(path)) (\(String(cString: sqlite3_errstr(rc)))).",
                              field: "database")
        }
    }

    /// Renames the pending copy over `path` (the one step that decides which set is live), then
    /// removes the old file's WAL and shared memory, which belong to the file replaced.
    static func putInPlace(_ path: String) -> Bool {
        guard rename(pendingName(path), path) == 0 else {
            removePending(path)
            return false
        }
        syncDirectory(of: path)
        _ = unlink(path + "-wal")
        _ = unlink(path + "-shm")
        return true
    }

    /// Removes the pending copy beside `path` holding the database's write lock, which a change
    /// of key holds from before its copy is made until it is in place: a copy another core is
    /// building (the lock is taken) is left alone; one an interrupted run left is removed.
    static func removePendingUnlessWriting(_ path: String, vfs: String?) {
        guard let db = try? holdWrites(path, vfs: vfs, busyTimeoutMs: 0) else { return }
        defer { sqlite3_close_v2(db) }
        // The lock is the file's this connection opened: if another core's change of key put a
        // new file in its place since, the pending copy may be that core's next one.
        var moved: Int32 = 0
        if sqlite3_file_control(db, "main", SQLITE_FCNTL_HAS_MOVED, &moved) == SQLITE_OK, moved == 0 {
            removePending(path)
        }
    }

    static func removePending(_ path: String) {
        let pending = pendingName(path)
        for leftover in [pending, pending + "-journal", pending + "-wal", pending + "-shm"] { _ = unlink(leftover) }
    }

    /// Finishes what a crash interrupted, once the open is allowed: a pending copy that never
    /// took the database's place is removed, and a WAL left by the file a rename replaced (of
    /// another key, or plaintext beside an encrypted file) is dropped with its shared memory.
    static func finishInterrupted(_ path: String, key: EncryptionKey?, vfs: String?) {
        guard isFilePath(path) else { return }
        if fileSize(pendingName(path)) >= 0 { removePendingUnlessWriting(path, vfs: vfs) }
        let wal = path + "-wal"
        guard fileSize(wal) > 0 else { return }
        let stale: Bool
        switch probe(wal, key: key) {
        case .encrypted(let matches): stale = key == nil || !matches
        case .empty, .unreadable: stale = false
        default: stale = key != nil  // plaintext beside an encrypted file
        }
        if stale {
            _ = unlink(wal)
            _ = unlink(path + "-shm")
        }
    }

    /// A file's device and inode.
    public struct Identity: Equatable, Sendable {
        let device: UInt64
        let inode: UInt64
    }

    static func identity(_ path: String) -> Identity? {
        guard isFilePath(path) else { return nil }
        var info = stat()
        guard stat(path, &info) == 0 else { return nil }
        return Identity(device: UInt64(info.st_dev), inode: UInt64(info.st_ino))
    }

    static func isFilePath(_ path: String) -> Bool { !path.isEmpty && path != ":memory:" && !path.hasPrefix("file:") }

    /// The size of the file at `path`, -1 when there is none.
    static func fileSize(_ path: String) -> Int64 {
        var info = stat()
        guard stat(path, &info) == 0 else { return -1 }
        return Int64(info.st_size)
    }

    static func sync(_ path: String) -> Bool {
        let fd = open(path, O_RDWR | O_CLOEXEC)
        guard fd >= 0 else { return false }
        defer { _ = close(fd) }
        return fsync(fd) == 0
    }

    static func syncDirectory(of path: String) {
        var directory = "."
        if let slash = path.utf8.lastIndex(of: UInt8(ascii: "/")) {
            directory = slash == path.utf8.startIndex ? "/" : String(path[..<slash])
        }
        let fd = open(directory, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard fd >= 0 else { return }
        _ = fsync(fd)
        _ = close(fd)
    }

    /// Registers (once per key) the encrypting VFS for `key` and answers its name.
    static func vfsName(_ key: EncryptionKey) throws(CarFitError) -> String {
        var name = [CChar](repeating: 0, count: 64)
        let rc = withKey(key) { k in name.withUnsafeMutableBufferPointer { cf_crypt_vfs(k, $0.baseAddress, Int32($0.count)) } }
        guard rc == SQLITE_OK else { throw CarFitError(.storage, "The database's encryption could not be set up.", field: "database") }
        return String(cString: name)
    }

    private static func withKey<R>(_ key: EncryptionKey?, _ body: (UnsafePointer<UInt8>?) -> R) -> R {
        guard let key else { return body(nil) }
        return key.bytes.withUnsafeBufferPointer { body($0.baseAddress) }
    }
}
