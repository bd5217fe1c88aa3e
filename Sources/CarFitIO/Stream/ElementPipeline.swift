import CJansson
import CarFitCore
import CarFitSystem
#if canImport(Glibc)
import Glibc
#endif

/// Parses and decodes the elements of a large JSON array on worker threads, while the calling
/// thread finds the next elements and takes the decoded records back in document order.
///
/// The calling thread splits the array into element spans (`DocumentScanner.elementSpan`,
/// a scan of brackets and strings that parses nothing) and groups them in batches. A worker
/// reads each element of a batch straight from its bytes when the caller gave a `Read` (a
/// validating reader that builds only what the record needs), and otherwise, or when that
/// reader cannot, parses it with jansson, exactly as a request would be, and decodes it.
/// An element jansson refuses (or one that nests past jansson's limit) fails the run: the
/// remaining batches are skipped and the caller falls back to parsing the document whole, so
/// errors read as for every other request. Every batch is waited for before `run` returns: no
/// worker touches the caller's bytes afterwards. A scanner over a file's window (which moves)
/// hands each batch a copy of its bytes; one over bytes in memory hands the workers those.
struct ElementPipeline<Record: Sendable> {
    /// Turns one parsed element (`data[index]`; borrowed, not to be released) into a record
    /// or its rejection.
    typealias Decode = @Sendable (UnsafeMutablePointer<json_t>, Int) -> Result<Record, Rejection>
    /// Reads one element straight from its bytes (`data[index]`, white space around it
    /// included) into a record or its rejection, without jansson; nil when it cannot (the
    /// element is then parsed by jansson and handed to `Decode`, which gives jansson's answer).
    typealias Read = @Sendable (UnsafeRawBufferPointer, Int) -> Result<Record, Rejection>?

    /// What became of an array: every element's outcome was handed to `take`, in order (the
    /// scanner is then past the closing bracket), or something was not well-formed.
    enum Outcome { case complete, malformed }

    /// Elements of one batch: enough to make handing it to a thread cheap by comparison.
    static var batchElements: Int { 128 }
    static var batchBytes: Int { 256 * 1024 }
    /// Stack of each worker thread: jansson and the conversion recurse once per nesting level,
    /// up to jansson's limit.
    static var workerStackBytes: Int { 4 << 20 }

    let decode: Decode
    let read: Read?
    /// Threads besides the caller's; 0 parses on the calling thread.
    let threads: Int
    /// How many values deep the array's elements are in the document (for the depth limit).
    let level: Int

    init(level: Int, threads: Int, read: Read? = nil, decode: @escaping Decode) {
        self.level = level
        self.threads = max(0, threads)
        self.read = read
        self.decode = decode
    }

    /// Walks the array whose opening bracket the scanner has just taken, handing each element's
    /// outcome to `take` in document order. A throw from `take` stops the run (after every
    /// batch in flight has finished) and is rethrown. `consumed` hears, after each batch's
    /// outcomes were taken, the offset up to which the bytes are no longer needed by this run
    /// (a progress report).
    func run(_ scanner: inout DocumentScanner,
             consumed: (Int) -> Void = { _ in },
             take: (Result<Record, Rejection>) throws(CarFitError) -> Void) throws(CarFitError) -> Outcome {
        let source = Source(level: level, read: read, decode: decode)
        var pool: WorkerPool?
        var poolFailed = false
        defer { pool?.finish() }
        let limit = threads == 0 ? 1 : threads * 3
        var inFlight: [Batch] = []
        var head = 0
        var scanned = false
        var malformed = false
        var index = 0

        scanner.skipSpace()
        if scanner.take(UInt8(ascii: "]")) { return .complete }
        while true {
            while !scanned, inFlight.count - head < limit {
                let batch = Batch(firstIndex: index)
                scanner.pinned = scanner.offset
                var bytes = 0
                while batch.spans.count < Self.batchElements, bytes < Self.batchBytes {
                    guard let span = scanner.elementSpan() else {
                        malformed = true
                        scanned = true
                        break
                    }
                    batch.spans.append(span.range)
                    batch.depths.append(span.depth)
                    bytes += span.range.count
                    if span.last { scanned = true; break }
                }
                index += batch.spans.count
                if malformed { break }
                guard batch.hold(scanner) else {
                    malformed = true
                    break
                }
                scanner.pinned = nil
                if head > 64 {
                    inFlight.removeFirst(head)
                    head = 0
                }
                inFlight.append(batch)
                // A document of one batch is parsed where it is; threads start with the
                // first batch that is not the last.
                if pool == nil, threads > 0, !scanned, !poolFailed {
                    let started = WorkerPool(source: source)
                    if started.start(threads) { pool = started } else { poolFailed = true }
                }
                if let pool {
                    pool.submit(batch)
                } else {
                    source.process(batch)
                }
            }
            guard head < inFlight.count else { break }
            let batch = inFlight[head]
            source.wait(for: batch)
            head += 1
            guard !batch.failed, !malformed else {
                source.stop()
                return .malformed
            }
            do throws(CarFitError) {
                for outcome in batch.outcomes { try take(outcome) }
                batch.outcomes = []
                batch.drop()
                if let last = batch.spans.last { consumed(last.upperBound) }
            } catch {
                source.stop()
                throw error
            }
        }
        return malformed ? .malformed : .complete
    }

    /// The bytes and the decoder, shared with the workers, and the lock and condition through
    /// which batches are handed over and handed back. The bytes are the caller's: `run` does
    /// not return while a worker may still read them (`WorkerPool.finish` joins the threads).
    private final class Source: @unchecked Sendable {
        let decode: Decode
        let read: Read?
        /// Elements nested deeper than this many containers are past jansson's limit when
        /// counted from the top of the document.
        let deepestAllowed: Int
        /// Guards `stopped` and every batch's `done`; signalled when a batch is done.
        let condition = Condition()
        private var stopped = false

        init(level: Int, read: Read?, decode: @escaping Decode) {
            self.decode = decode
            self.read = read
            deepestAllowed = DocumentScanner.deepestContainers(atLevel: level)
        }

        /// No batch is parsed from now on (one being parsed runs to its end).
        func stop() {
            condition.lock()
            stopped = true
            condition.unlock()
        }

        private var isStopped: Bool {
            condition.lock()
            defer { condition.unlock() }
            return stopped
        }

        /// Parses and decodes `batch`, then hands it back (`wait(for:)` returns).
        func process(_ batch: Batch) {
            work(batch)
            finished(batch)
        }

        /// Parses and decodes every element of `batch`, or marks it failed.
        private func work(_ batch: Batch) {
            guard !isStopped else {
                batch.failed = true
                return
            }
            guard let base = batch.base else {
                batch.failed = true
                return
            }
            batch.outcomes.reserveCapacity(batch.spans.count)
            for (k, span) in batch.spans.enumerated() {
                guard batch.depths[k] <= deepestAllowed else {
                    batch.failed = true
                    return
                }
                let bytes = base + (span.lowerBound - batch.baseOffset)
                if let read, let outcome = read(UnsafeRawBufferPointer(start: bytes, count: span.count), batch.firstIndex + k) {
                    batch.outcomes.append(outcome)
                    continue
                }
                var error = json_error_t()
                let start = bytes.assumingMemoryBound(to: CChar.self)
                guard let element = json_loadb(start, span.count, cf_json_flags_any(), &error) else {
                    batch.failed = true
                    return
                }
                batch.outcomes.append(decode(element, batch.firstIndex + k))
                json_decref(element)
            }
        }

        private func finished(_ batch: Batch) {
            condition.lock()
            batch.done = true
            if batch.failed { stopped = true }
            condition.broadcast()
            condition.unlock()
        }

        func wait(for batch: Batch) {
            condition.lock()
            while !batch.done { condition.wait() }
            condition.unlock()
        }
    }

    /// Threads that take batches in order from a queue until it is closed, then are joined.
    private final class WorkerPool: @unchecked Sendable {
        private let source: Source
        private let condition = Condition()
        private var queue: [Batch] = []
        private var head = 0
        private var closed = false
        private var threads: [pthread_t] = []

        init(source: Source) {
            self.source = source
        }

        /// Starts up to `count` threads; false when not even one could be started (the caller
        /// then parses on its own thread).
        func start(_ count: Int) -> Bool {
            for _ in 0..<count {
                guard let thread = JoinableThread.start(name: "carfit-import", stackBytes: ElementPipeline.workerStackBytes, { [self] in serve() })
                else { break }
                threads.append(thread)
            }
            return !threads.isEmpty
        }

        func submit(_ batch: Batch) {
            condition.lock()
            queue.append(batch)
            condition.signal()
            condition.unlock()
        }

        /// Closes the queue, lets the workers drain it (a stopped source fails each batch
        /// at once) and joins every thread.
        func finish() {
            condition.lock()
            closed = true
            condition.broadcast()
            condition.unlock()
            for thread in threads { pthread_join(thread, nil) }
            threads.removeAll()
        }

        private func next() -> Batch? {
            condition.lock()
            defer { condition.unlock() }
            while head == queue.count, !closed { condition.wait() }
            guard head < queue.count else { return nil }
            let batch = queue[head]
            head += 1
            if head > 64 {
                queue.removeFirst(head)
                head = 0
            }
            return batch
        }

        private func serve() {
            while let batch = next() { source.process(batch) }
        }
    }

    /// Consecutive elements: written by the calling thread before the batch is handed over,
    /// then by the thread that parses it until it is `done` (under `Source.condition`), then
    /// read by the calling thread.
    private final class Batch: @unchecked Sendable {
        let firstIndex: Int
        /// Where the spans' bytes are: `base` is the document's offset `baseOffset`.
        var base: UnsafeRawPointer?
        var baseOffset = 0
        /// The batch's own copy of its bytes (a scanner over a file's window), else nil.
        private var copy: UnsafeMutableRawPointer?
        var spans: [Range<Int>] = []
        var depths: [Int] = []
        var outcomes: [Result<Record, Rejection>] = []
        var failed = false
        var done = false

        init(firstIndex: Int) {
            self.firstIndex = firstIndex
            spans.reserveCapacity(ElementPipeline.batchElements)
            depths.reserveCapacity(ElementPipeline.batchElements)
        }

        deinit { copy?.deallocate() }

        /// Makes the spans' bytes the batch's to read, as long as it lives: the scanner's own
        /// (all in memory), or a copy of them (a window that moves on). False when the scanner
        /// has no bytes.
        func hold(_ scanner: DocumentScanner) -> Bool {
            guard let first = spans.first, let last = spans.last else { return true }
            guard let loaded = scanner.pointer(at: first.lowerBound) else { return false }
            guard scanner.isWindowed else {
                base = loaded - first.lowerBound
                baseOffset = 0
                return true
            }
            let count = last.upperBound - first.lowerBound
            let own = UnsafeMutableRawPointer.allocate(byteCount: max(count, 1), alignment: 16)
            own.copyMemory(from: loaded, byteCount: count)
            copy = own
            base = UnsafeRawPointer(own)
            baseOffset = first.lowerBound
            return true
        }

        /// Frees the batch's copy once its outcomes were taken.
        func drop() {
            copy?.deallocate()
            copy = nil
            base = nil
        }
    }
}
