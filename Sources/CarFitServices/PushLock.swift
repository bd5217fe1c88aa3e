import CarFitCore
import CarFitSystem
#if canImport(Glibc)
import Glibc
#endif

/// Keeps pushes of one database one at a time, across the threads of a core, the cores of a
/// process and the processes of a machine, so no outbox entry is ever in two requests at once.
///
/// A file database is guarded by `flock(LOCK_EX)` on `<database>-sync.lock`, held for the whole
/// push. The kernel releases it when the process dies, so a crash (even `kill -9`) cannot leave
/// it stuck; a flock belongs to its open file description, so two cores of one process that
/// each open the file exclude each other too (record locks by `fcntl` would not). An in-memory
/// database is the core's own: the core's mutex is enough. The lock file is created 0600, and
/// one an earlier version left open to others is narrowed when the lock is made (at open).
public final class PushLock: @unchecked Sendable {
    private let path: String?
    private let mutex = Lock()

    /// The lock of the database at `database` (`:memory:` or empty: in memory).
    public init(database: String) {
        path = database.isEmpty || database == ":memory:" ? nil : database + "-sync.lock"
        if let path { PrivateFiles.narrow(path) }
    }

    /// A held lock; `release` gives it back (once).
    public final class Held {
        private let owner: PushLock
        private var fd: Int32
        private var released = false

        fileprivate init(owner: PushLock, fd: Int32) {
            self.owner = owner
            self.fd = fd
        }

        public func release() {
            guard !released else { return }
            released = true
            if fd >= 0 {
                _ = flock(fd, LOCK_UN)
                _ = Glibc.close(fd)
                fd = -1
            }
            owner.mutex.unlock()
        }

        deinit { release() }
    }

    /// Takes the lock, waiting at most `waitMs` (0: not at all); nil when another push holds it
    /// that long. A lock file that cannot be opened is `storage`.
    public func acquire(waitMs: Int) throws(CarFitError) -> Held? {
        let deadline = SystemClock.monotonicNs() + Int64(max(0, waitMs)) * 1_000_000
        guard waitMs > 0 ? mutex.lock(beforeMonotonicNs: deadline) : mutex.try() else { return nil }
        guard let path else { return Held(owner: self, fd: -1) }
        let fd = PrivateFiles.open(path, O_RDWR | O_CREAT | O_CLOEXEC)
        guard fd >= 0 else {
            let reason = String(cString: strerror(errno))
            mutex.unlock()
            throw CarFitError(.storage, "The push's lock file \(path.suffix(200)) cannot be opened: \(reason).")
        }
        while flock(fd, LOCK_EX | LOCK_NB) != 0 {
            guard errno == EWOULDBLOCK || errno == EINTR, SystemClock.monotonicNs() < deadline else {
                _ = Glibc.close(fd)
                mutex.unlock()
                return nil
            }
            usleep(5_000)
        }
        return Held(owner: self, fd: fd)
    }
}
