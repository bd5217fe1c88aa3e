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

    /// Adds the document's valid patterns to the pool: the colourlovers array itself, or an
    /// object with a `patterns` array.
    public func importPatterns(_ bytes: UnsafeRawBufferPointer) throws(CarFitError) -> JSON {
        var request = Fields(JSONObject())
        if let base = bytes.baseAddress, bytes.count > 0 {
            switch try JanssonParser.parse(base.assumingMemoryBound(to: CChar.self), length: bytes.count) {
            case .array(let records): request = Fields(JSONObject(["patterns": .array(records)]))
            case .object(let object): request = Fields(object)
            default:
                throw CarFitError(.badJSON, "The request must be the colourlovers array or a JSON object.",
                                  extra: JSONObject(["line": 1, "column": 1, "position": 0]))
            }
        }
        let document = try PatternImport(document: request)
        try patterns.add(document.patterns)
        return document.response(pool: try patterns.count())
    }

    /// The most bytes one pattern answer may have: colourlovers answers one pattern of a few
    /// hundred bytes, so a larger body is refused (`too_large`) long before it costs memory.
    public static let maxPatternBodyBytes: Int64 = 4 << 20

    /// GETs `url` `count` times (the request's 1 to 100), at most `concurrency` at once,
    /// and adds each answer's patterns to the pool; a pattern whose image URL is pooled already
    /// is not added again. `{"added", "pool", "failed"}` (failed: requests that failed or did
    /// not answer a patterns document); only when every request failed, the first failure
    /// (`unauthorized` when one was a 401 or 403, else `unavailable`). `lock` is taken only to
    /// store what arrived.
    public func refresh(count: Int, url: String, http: HTTPClient, concurrency: Int,
                        lock: some Serializer, commit: RefreshCommit = { _, _ in }) throws(CarFitError) -> RefreshOutcome<JSON> {
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
        return .stored(.obj(["added": .int(Int64(added)), "pool": .int(Int64(pool)), "failed": .int(Int64(failures.count))]))
    }

    /// One GET of the patterns source: its valid patterns, or why it failed.
    static func fetchPatterns(_ url: String, http: HTTPClient) -> Result<[Pattern], CarFitError> {
        let shown = String(url.prefix(200))
        let answer: HTTPResponseBody
        do throws(HTTPError) {
            answer = try http.source(.get(url), source: "patterns", maxBytes: maxPatternBodyBytes)
        } catch {
            return .failure(CarFitError(error))
        }
        if HTTPClient.isRefusal(answer.response.status) {
            return .failure(.unauthorized(url, status: answer.response.status, what: "patterns"))
        }
        guard answer.response.isSuccess else {
            return .failure(.unavailable(url, "http_status",
                "\(shown) answered with HTTP status \(answer.response.status) instead of a patterns document.",
                httpStatus: answer.response.status))
        }
        let request: Fields
        switch JanssonParser.parse(bytes: answer.body) {
        case .success(.array(let records)): request = Fields(JSONObject(["patterns": .array(records)]))
        case .success(.object(let object)): request = Fields(object)
        case .success:
            return .failure(.unavailable(url, "not_document", "\(shown) answered with JSON that is not a patterns document."))
        case .failure(let e):
            return .failure(.unavailable(url, answer.body.isEmpty ? "empty" : "not_json",
                "\(shown) answered with text that is not JSON (line \(e.line), column \(e.column): \(e.text)) instead of a patterns document."))
        }
        do throws(CarFitError) {
            return .success(try PatternImport(document: request).patterns)
        } catch {
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
