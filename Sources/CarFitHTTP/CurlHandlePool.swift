import CCurl
#if canImport(Glibc)
import Glibc
#endif

/// A libcurl easy handle and the multi handle that drives it. The multi handle's connection
/// cache keeps the connection of a finished transfer open (when the server allows keep-alive),
/// so the next transfer on these handles to the same origin reuses it.
final class CurlHandles: @unchecked Sendable {
    let easy: UnsafeMutableRawPointer
    let multi: UnsafeMutableRawPointer

    init?() {
        guard let easy = curl_easy_init() else { return nil }
        guard let multi = curl_multi_init() else {
            curl_easy_cleanup(easy)
            return nil
        }
        self.easy = easy
        self.multi = multi
    }

    deinit {
        curl_multi_cleanup(multi)
        curl_easy_cleanup(easy)
    }
}

/// The idle handles of one client, lent to one transfer at a time: consecutive requests of a
/// thread get the handles (and so the kept-alive connections) the last one gave back, while
/// concurrent requests each get their own, so no handle is ever used by two threads at once.
/// Handles beyond `keep` idle ones are cleaned up when given back. The list is guarded by a
/// pthread mutex (which ThreadSanitizer understands).
final class CurlHandlePool: @unchecked Sendable {
    private let mutex: UnsafeMutablePointer<pthread_mutex_t>
    private var idle: [CurlHandles] = []
    private let keep: Int

    init(keep: Int = 16) {
        self.keep = keep
        mutex = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
        pthread_mutex_init(mutex, nil)
    }

    deinit {
        pthread_mutex_destroy(mutex)
        mutex.deallocate()
    }

    /// Idle handles (the most recently given back first), or new ones; nil when libcurl cannot
    /// make any.
    func take() -> CurlHandles? {
        pthread_mutex_lock(mutex)
        let handles = idle.popLast()
        pthread_mutex_unlock(mutex)
        return handles ?? CurlHandles()
    }

    /// Takes back handles whose transfer is over and that no longer belong to the multi handle:
    /// their options are reset (no pointer into the finished transfer is kept). Handles past
    /// `keep` are released (cleaned up) here, outside the lock.
    func give(_ handles: CurlHandles) {
        curl_easy_reset(handles.easy)
        pthread_mutex_lock(mutex)
        let kept = idle.count < keep
        if kept { idle.append(handles) }
        pthread_mutex_unlock(mutex)
    }
}
