#if canImport(Glibc)
import Glibc
#endif

/// A POSIX thread that runs one closure and is joined with `pthread_join`, so that a call can
/// promise its threads are gone when it returns.
public enum JoinableThread {
    /// Starts `body` on a new thread named `name` (at most 15 bytes: what `ps` and
    /// /proc/PID/task/TID/comm show) with a stack of `stackBytes`; nil when none can be started.
    public static func start(name: StaticString, stackBytes: Int, _ body: @escaping @Sendable () -> Void) -> pthread_t? {
        var attributes = pthread_attr_t()
        guard pthread_attr_init(&attributes) == 0 else { return nil }
        defer { pthread_attr_destroy(&attributes) }
        _ = pthread_attr_setstacksize(&attributes, stackBytes)
        let context = Unmanaged.passRetained(Body(name: name, body)).toOpaque()
        var thread = pthread_t()
        guard pthread_create(&thread, &attributes, joinableThreadEntry, context) == 0 else {
            Unmanaged<Body>.fromOpaque(context).release()
            return nil
        }
        return thread
    }

    fileprivate final class Body {
        let name: StaticString
        let run: @Sendable () -> Void
        init(name: StaticString, _ run: @escaping @Sendable () -> Void) {
            self.name = name
            self.run = run
        }

        /// Names the calling thread (Linux: /proc/thread-self/comm; nothing happens elsewhere
        /// or on failure).
        func nameThread() {
            let fd = open("/proc/thread-self/comm", O_WRONLY)
            guard fd >= 0 else { return }
            _ = write(fd, name.utf8Start, min(name.utf8CodeUnitCount, 15))
            close(fd)
        }
    }
}

private func joinableThreadEntry(_ context: UnsafeMutableRawPointer?) -> UnsafeMutableRawPointer? {
    guard let context else { return nil }
    let body = Unmanaged<JoinableThread.Body>.fromOpaque(context).takeRetainedValue()
    body.nameThread()
    body.run()
    return nil
}

extension JoinableThread {
    /// Runs `body(0..<iterations)` on the calling thread and `iterations - 1` new threads (the
    /// calling thread alone when none can be started), returning when every one has finished.
    public static func concurrentPerform(iterations: Int, name: StaticString, stackBytes: Int = 1 << 20,
                                         _ body: @escaping @Sendable (Int) -> Void) {
        var threads: [pthread_t] = []
        var ranHere: [Int] = []
        if iterations > 1 {
            for i in 1..<iterations {
                if let t = start(name: name, stackBytes: stackBytes, { body(i) }) { threads.append(t) } else { ranHere.append(i) }
            }
        }
        if iterations > 0 { body(0) }
        for i in ranHere { body(i) }
        for t in threads { _ = pthread_join(t, nil) }
    }

    /// Starts `body` on a detached thread; false when none can be started.
    public static func detach(name: StaticString, stackBytes: Int = 1 << 20, _ body: @escaping @Sendable () -> Void) -> Bool {
        guard let t = start(name: name, stackBytes: stackBytes, body) else { return false }
        _ = pthread_detach(t)
        return true
    }
}
