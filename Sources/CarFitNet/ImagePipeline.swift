import CarFitCore
import CarFitHTTP
import CarFitSystem
#if canImport(Glibc)
import Glibc
#endif

/// A core's image pipeline: a memory LRU and a disk LRU in front of HTTP, with identical
/// concurrent loads coalesced into one and a background prefetch queue (the behaviour of Nuke,
/// Kingfisher and SDWebImage, without their UI).
///
/// Thread-safe on its own and independent of the core's lock: a load blocks its caller on the
/// network while other calls on the core go on. One lock guards the memory cache, the loads in
/// flight, the prefetch queue and the counters; it is never held during I/O.
public final class ImagePipeline: @unchecked Sendable {
    /// A loaded image.
    public struct Image: Sendable {
        public var bytes: [UInt8]
        public var format: ImageFormat
        public var source: ImageSource
    }

    /// Bodies larger than this are refused (`unavailable`) rather than cached.
    public static let maxImageBytes: Int64 = 100 << 20

    /// One load in progress; every caller asking for its URL meanwhile waits for it.
    private final class Flight: @unchecked Sendable {
        let done = WaitGroup()
        var result: Result<Image, ImageLoadError>?  // set under the pipeline's lock, before `done` leaves
        init() { done.enter() }
    }

    private struct Counters {
        var network: Int64 = 0, coalesced: Int64 = 0, memoryHits: Int64 = 0, diskHits: Int64 = 0, failures: Int64 = 0
    }

    private let http: HTTPClient
    private let disk: DiskCache
    /// The temporary directory this pipeline made (no directory configured), removed on close.
    private let ownedDirectory: String?
    private let concurrency: Int

    private let lock = Lock()
    private var memory: LRUCache<String, Image>
    private var flights: [String: Flight] = [:]
    private var queue = PrefetchQueue()
    private var workers = 0        // background threads alive
    private var prefetching = 0    // background loads in progress
    private var counters = Counters()
    private var closed = false
    /// Background workers, and foreground loads in progress: `close` waits for both.
    private let background = WaitGroup()
    private let foreground = WaitGroup()
    /// Told of each prefetch that ended: its URL and whether the image loaded. Set once, before
    /// the first prefetch; called on the worker that loaded it, holding no lock.
    public var onPrefetched: (@Sendable (_ url: String, _ loaded: Bool) -> Void)?

    /// - Parameter http: the client images are fetched with; `close` cancels its transfers.
    public init(config: CoreConfig.Images, http: HTTPClient) throws(ImageDirectoryError) {
        let directory: String
        if let configured = config.directory {
            directory = configured
            ownedDirectory = nil
        } else {
            directory = try ImagePipeline.makeTemporaryDirectory()
            ownedDirectory = directory
        }
        do {
            disk = try DiskCache(directory: directory, limit: config.diskBytes)
        } catch {
            if let ownedDirectory { Files.removeTree(ownedDirectory) }
            throw error
        }
        memory = LRUCache(limit: config.memoryBytes)
        concurrency = max(1, config.concurrency)
        self.http = http
    }

    deinit { close() }

    static func makeTemporaryDirectory() throws(ImageDirectoryError) -> String {
        var base = getenv("TMPDIR").map { String(cString: $0) } ?? "/tmp/"
        if base.isEmpty { base = "/tmp/" }
        if !base.hasSuffix("/") { base += "/" }
        var template = Array((base + "carfit-images-XXXXXX").utf8CString)
        let made = template.withUnsafeMutableBufferPointer { buffer -> Bool in
            guard let start = buffer.baseAddress else { return false }
            // 0700 whatever the umask (mkdtemp's mode passes through it).
            return mkdtemp(start).map { chmod($0, PrivateFiles.directoryMode) } != nil
        }
        guard made else {
            throw ImageDirectoryError(path: base,
                message: "Cannot create a temporary image directory in \(base) (\(String(cString: strerror(errno)))); set images.directory.")
        }
        return template.withUnsafeBufferPointer { buffer in
            buffer.baseAddress.map { String(cString: $0) } ?? base
        }
    }

    public var directory: String { disk.directory }


    // MARK: - Loading

    /// The image at `url`: from memory, else disk, else the network, waiting for a load of the
    /// same URL already in progress (a prefetch too) instead of starting another.
    /// Failures (network, non-2xx, not an image) are never cached.
    public func load(_ url: String) throws(ImageLoadError) -> Image {
        lock.lock()
        guard !closed else {
            lock.unlock()
            throw .closed
        }
        foreground.enter()
        defer { foreground.leave() }
        if let image = memory.value(for: url) {
            counters.memoryHits += 1
            lock.unlock()
            return Image(bytes: image.bytes, format: image.format, source: .memory)
        }
        if let flight = flights[url] {
            counters.coalesced += 1
            lock.unlock()
            flight.done.wait()
            lock.lock()
            let result = flight.result
            lock.unlock()
            guard let result else { throw .noResult }
            return try result.get()
        }
        queue.remove(url)  // this call loads it now
        let flight = Flight()
        flights[url] = flight
        lock.unlock()
        let result = fetch(url)
        complete(url, flight, result)
        return try result.get()
    }

    /// Disk, else network; fills both caches on success. Runs without the lock.
    private func fetch(_ url: String) -> Result<Image, ImageLoadError> {
        if let bytes = disk.read(url) {
            if let format = ImageFormat(sniffing: bytes) {
                let image = Image(bytes: bytes, format: format, source: .disk)
                lock.lock()
                counters.diskHits += 1
                memory.insert(url, image, cost: Int64(bytes.count))
                lock.unlock()
                return .success(image)
            }
            disk.remove(url)
        }
        lock.lock()
        if closed {
            lock.unlock()
            return .failure(.closed)
        }
        counters.network += 1
        lock.unlock()

        let outcome: Result<Image, ImageLoadError>
        do throws(HTTPError) {
            let answer = try http.get(url, maxBytes: ImagePipeline.maxImageBytes)
            let response = (status: answer.response.status, body: answer.body)
            if !(200..<300).contains(response.status) {
                outcome = .failure(.httpStatus(url: url, status: response.status))
            } else if let format = ImageFormat(sniffing: response.body) {
                outcome = .success(Image(bytes: response.body, format: format, source: .network))
            } else {
                outcome = .failure(.notAnImage(url: url))
            }
        } catch {
            outcome = .failure(.transfer(error))
        }

        switch outcome {
        case .success(let image):
            disk.write(url, image.bytes)
            lock.lock()
            memory.insert(url, image, cost: Int64(image.bytes.count))
            lock.unlock()
            return outcome
        case .failure(var error):
            lock.lock()
            counters.failures += 1
            if closed { error = .closedDuringLoad }
            lock.unlock()
            return .failure(error)
        }
    }

    /// Hands `result` to everyone waiting for `flight`.
    private func complete(_ url: String, _ flight: Flight, _ result: Result<Image, ImageLoadError>) {
        lock.lock()
        if flights[url] === flight { flights[url] = nil }
        flight.result = result
        lock.unlock()
        flight.done.leave()
    }

    // MARK: - Prefetching

    /// Queues the URLs not in memory and not loading already; returns how many are queued.
    /// A URL already queued keeps its place, or moves up to a higher `priority`.
    public func prefetch(_ urls: [String], priority: PrefetchPriority) throws(ImageLoadError) -> Int {
        lock.lock()
        defer { lock.unlock() }
        guard !closed else { throw .closed }
        var queued = 0
        for url in urls where !memory.contains(url) && flights[url] == nil {
            queue.push(url, priority: priority)
            queued += 1
        }
        startWorkers()
        return queued
    }

    /// Drops the URLs still waiting in the queue; returns how many were.
    public func cancel(_ urls: [String]) throws(ImageLoadError) -> Int {
        lock.lock()
        defer { lock.unlock() }
        guard !closed else { throw .closed }
        return urls.reduce(0) { n, url in queue.remove(url) ? n + 1 : n }
    }

    /// Starts background threads until `concurrency` run or every queued URL has one. Lock held.
    private func startWorkers() {
        while !closed && workers < concurrency && workers - prefetching < queue.count {
            workers += 1
            background.enter()
            guard JoinableThread.detach(name: "carfit-images", { [self] in work() }) else {
                workers -= 1
                background.leave()
                return
            }
        }
    }

    /// A background thread: loads queued URLs, highest priority first, until the queue is empty.
    private func work() {
        while let (url, flight) = nextJob() {
            let result = fetch(url)
            complete(url, flight, result)
            lock.lock()
            prefetching -= 1
            lock.unlock()
            if case .success = result { onPrefetched?(url, true) } else { onPrefetched?(url, false) }
        }
        background.leave()
    }

    /// The next queued URL that still needs loading, with its flight registered; nil (and this
    /// worker retired) when there is none or the pipeline closed.
    private func nextJob() -> (String, Flight)? {
        lock.lock()
        defer { lock.unlock() }
        while !closed, let url = queue.pop() {
            if memory.contains(url) || flights[url] != nil { continue }
            let flight = Flight()
            flights[url] = flight
            prefetching += 1
            return (url, flight)
        }
        workers -= 1
        return nil
    }

    // MARK: - Statistics and closing

    /// What each cache level holds, what the loads did, what the prefetch queue holds.
    public struct Stats: Sendable, Equatable {
        /// One cache level: its entries, their bytes and its limit in bytes.
        public struct Level: Sendable, Equatable {
            public var count: Int64
            public var bytes: Int64
            public var limit: Int64

            public init(count: Int64, bytes: Int64, limit: Int64) {
                self.count = count
                self.bytes = bytes
                self.limit = limit
            }
        }

        public var memory: Level
        public var disk: Level
        public var network: Int64, coalesced: Int64, memoryHits: Int64, diskHits: Int64, failures: Int64
        public var queued: Int64, loading: Int64
    }

    public func stats() throws(ImageLoadError) -> Stats {
        let diskStats = disk.stats
        lock.lock()
        defer { lock.unlock() }
        guard !closed else { throw .closed }
        let c = counters
        return Stats(memory: Stats.Level(count: Int64(memory.count), bytes: memory.totalCost, limit: memory.limit), disk: diskStats,
                     network: c.network, coalesced: c.coalesced, memoryHits: c.memoryHits, diskHits: c.diskHits,
                     failures: c.failures, queued: Int64(queue.count), loading: Int64(prefetching))
    }

    /// Drops the queue, cancels the transfers in progress, waits for every background thread
    /// and foreground load to finish, and removes the temporary directory if it made one.
    /// Later calls are `misuse`. Idempotent.
    public func close() {
        lock.lock()
        if closed {
            lock.unlock()
            return
        }
        closed = true
        queue.removeAll()
        lock.unlock()
        // A transfer may start just after a cancel; cancelling again until all are done
        // bounds the wait by the poll interval rather than the network timeout.
        repeat { http.cancelAll() } while !background.wait(milliseconds: 50)
        repeat { http.cancelAll() } while !foreground.wait(milliseconds: 50)
        if let ownedDirectory { Files.removeTree(ownedDirectory) }
    }
}
