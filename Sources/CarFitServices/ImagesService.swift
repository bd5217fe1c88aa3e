import CarFitCore
import CarFitSystem
import CarFitHTTP
import CarFitIO
import CarFitNet
import CarFitStore

/// The patterns, carousel and images use-cases: the pattern pool in the database, the feed
/// drawn from it, and the image pipeline (which guards itself: these need not hold the core).
public struct ImagesService {
    public let patterns: PatternStore
    public let images: ImagePipeline

    public init(patterns: PatternStore, images: ImagePipeline) {
        self.patterns = patterns
        self.images = images
    }

    /// What an import brought: the patterns added or updated, the records rejected, and the
    /// pool's size after it.
    public struct PatternsImported: Sendable {
        public var imported: Int
        public var rejected: [Rejection]
        public var pool: Int
    }

    /// What a refresh brought: the patterns new to the pool, the pool's size after it, and the
    /// requests that failed or did not answer a patterns document.
    public struct PatternsRefreshed: Sendable {
        public var added: Int
        public var pool: Int
        public var failed: Int
    }

    /// Adds the import's valid patterns to the pool (a pattern whose image URL is pooled
    /// already is updated in place).
    public func importPatterns(_ document: PatternImport) throws(CarFitError) -> PatternsImported {
        try patterns.add(document.patterns)
        return PatternsImported(imported: document.patterns.count, rejected: document.rejected, pool: try patterns.count())
    }

    /// The most bytes one pattern answer may have: colourlovers answers one pattern of a few
    /// hundred bytes, so a larger body is refused (`too_large`) long before it costs memory.
    public static let maxPatternBodyBytes: Int64 = 4 << 20

    /// GETs `url` `count` times (the request's 1 to 100), at most `concurrency` at once,
    /// and adds each answer's patterns to the pool; a pattern whose image URL is pooled already
    /// is not added again (`PatternsRefreshed`); only when every request failed, the first failure
    /// (`unauthorized` when one was a 401 or 403, else `unavailable`). `lock` is taken only to
    /// store what arrived.
    public func refresh(count: Int, url: String, http: HTTPClient, concurrency: Int,
                        lock: some Serializer, commit: RefreshCommit = { _, _ in }) throws(CarFitError) -> RefreshOutcome<PatternsRefreshed> {
        let answers = PatternAnswers(count: count)
        let workers = min(max(concurrency, 1), count)
        JoinableThread.concurrentPerform(iterations: workers, name: "carfit-patterns") { _ in
            while let _ = answers.next() {
                answers.add(ImagesService.fetchPatterns(url, http: http))
            }
        }
        let (found, failures) = answers.results
        guard failures.count < count else {
            throw failures.first { $0.status == .unauthorized } ?? failures.first
                ?? CarFitError(.internal, "No pattern request was made.")
        }
        let store = patterns
        let (added, pool) = try lock.locked { () throws(CarFitError) -> (Int, Int) in
            try store.db.transaction { () throws(CarFitError) -> (Int, Int) in
                let before = try store.count()
                try store.add(found)
                let after = try store.count()
                try commit(nil, nil)
                return (after - before, after)
            }
        }
        return .stored(PatternsRefreshed(added: added, pool: pool, failed: failures.count))
    }

    /// One GET of the patterns source: its valid patterns, or why it failed.
    static func fetchPatterns(_ url: String, http: HTTPClient) -> Result<[Pattern], CarFitError> {
        let shown = String(url.prefix(200))
        let target = NetworkTarget.source("patterns")
        let answer: HTTPResponseBody
        do throws(HTTPError) {
            answer = try http.source(.get(url), source: "patterns", maxBytes: maxPatternBodyBytes)
        } catch {
            return .failure(CarFitError(error, target))
        }
        if let refused = CarFitError.answered(answer.response.status, url: url, target) { return .failure(refused) }
        switch PatternsDocument.answer(answer.body, shown: shown) {
        case .success(let document):
            return .success(document.patterns)
        case .failure(.unusable(let reason, let message)):
            return .failure(.unavailable(url, reason, message))
        case .failure(.refused(let error)):
            return .failure(SourceFetch.notDocument(url, what: "patterns", error))
        }
    }

    /// The carousel's rows over the pattern pool.
    public func generateCarousel(_ feed: CarouselFeed) throws(CarFitError) -> [CarouselFeed.Row] {
        feed.rows(pool: try patterns.all())
    }

    /// Queues the images of `urls` (checked, without duplicates) for the background workers;
    /// how many were queued (not those cached or loading already).
    public func prefetch(_ urls: [String], priority: PrefetchPriority) throws(CarFitError) -> Int {
        do throws(ImageLoadError) {
            return try images.prefetch(urls, priority: priority)
        } catch {
            throw CarFitError(error)
        }
    }

    /// Drops the queued prefetches of `urls`; how many were dropped.
    public func cancel(_ urls: [String]) throws(CarFitError) -> Int {
        do throws(ImageLoadError) {
            return try images.cancel(urls)
        } catch {
            throw CarFitError(error)
        }
    }

    /// The caches, the loads and the prefetch queue counted.
    public func stats() throws(CarFitError) -> ImagePipeline.Stats {
        do throws(ImageLoadError) {
            return try images.stats()
        } catch {
            throw CarFitError(error)
        }
    }

    /// The image at `url` (checked), from memory, disk or the network.
    public func load(_ url: String) throws(CarFitError) -> ImagePipeline.Image {
        do throws(ImageLoadError) {
            return try images.load(url)
        } catch {
            throw CarFitError(error)
        }
    }
}
