import CarFitCore
import CarFitIO
import CarFitNet
import CarFitStore

/// The articles use-cases: import, refresh from the configured source, the list with its
/// published texts, and the date text.
public struct ArticlesService {
    public let articles: ArticleStore
    public let clock: Clock

    public init(articles: ArticleStore, clock: Clock) {
        self.articles = articles
        self.clock = clock
    }

    /// What an import stored: how many articles, the records rejected, and the instant of the
    /// import (the list's `updatedAt` from now on).
    public struct Imported: Sendable {
        public var imported: Int
        public var rejected: [Rejection]
        public var updatedAt: Instant
    }

    /// Replaces the stored articles with the snapshot's valid records.
    public func importArticles(_ snapshot: ArticleSnapshot) throws(CarFitError) -> Imported {
        try store(snapshot)
    }

    /// Writes a snapshot and the instant of this import.
    func store(_ snapshot: ArticleSnapshot) throws(CarFitError) -> Imported {
        let now = clock.now
        try articles.replaceAll(with: snapshot.articles, updatedAt: now)
        return Imported(imported: snapshot.articles.count, rejected: snapshot.rejected, updatedAt: now)
    }

    /// Fetches `source` and imports it as `importArticles` does; a failure keeps the stored
    /// articles. `lock` is taken only once the document has arrived.
    /// `progress` hears the download's bytes (its `finish` is the caller's, once all succeeded).
    public func refresh(url: String, http: HTTPClient, validators: SourceValidators = SourceValidators(),
                        lock: some Serializer, progress: ProgressReporter? = nil,
                        commit: RefreshCommit = { _, _ in }) throws(CarFitError) -> RefreshOutcome<Imported> {
        switch try SourceFetch.fetch(url, http: http, validators: validators, what: "articles",
                                                     progress: progress) {
        case .notModified: return .notModified
        case .body(let body): return .stored(try refresh(body, lock: lock, commit: commit))
        }
    }

    /// Imports a fetched body as the refresh does, `commit` in the import's transaction.
    func refresh(_ body: SourceFetch.Body, lock: some Serializer, commit: RefreshCommit = { _, _ in }) throws(CarFitError) -> Imported {
        let snapshot = try SourceFetch.document(body, what: "articles", picked: ArticlesDocument.picked, ArticleSnapshot.init(document:))
        let db = articles.db
        return try lock.locked { () throws(CarFitError) in
            try db.transaction { () throws(CarFitError) in
                let answer = try store(snapshot)
                try commit(body.response.etag, body.response.lastModified)
                return answer
            }
        }
    }

    /// The stored articles, newest first, and the instant of the last import.
    public func list() throws(CarFitError) -> (articles: [ArticleStore.Row], updatedAt: Instant?) {
        (try articles.all(), try articles.updatedAt())
    }

    /// `instant` as an article's date text in the core's zone and locale (12- or 24-hour: the
    /// config's style, or the locale's, unless `hour24` says); nil when it falls outside the years 1 to 9999 there.
    public func formatDate(_ instant: Instant, hour24: Bool?) -> String? {
        ArticleDate.text(instant, clock: clock, hour24: hour24)
    }
}
