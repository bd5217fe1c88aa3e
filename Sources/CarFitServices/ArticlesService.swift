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

    /// Replaces the stored articles with the document's valid records.
    public func importArticles(_ request: Fields) throws(CarFitError) -> JSON {
        try store(try ArticleSnapshot(document: request))
    }

    /// Writes a snapshot and the instant of this import; the response is `import`'s.
    func store(_ snapshot: ArticleSnapshot) throws(CarFitError) -> JSON {
        let now = clock.now
        try articles.replaceAll(with: snapshot.articles, updatedAt: now)
        guard case .object(var response) = snapshot.response else { return snapshot.response }
        response["updatedAt"] = .string(now.iso)
        return .object(response)
    }

    /// Fetches `source` and imports it as `importArticles` does; a failure keeps the stored
    /// articles. `lock` is taken only once the document has arrived.
    /// `progress` hears the download's bytes (its `finish` is the caller's, once all succeeded).
    public func refresh(url: String, http: HTTPClient, validators: SourceValidators = SourceValidators(),
                        lock: some Serializer, progress: ProgressReporter? = nil,
                        commit: RefreshCommit = { _, _ in }) throws(CarFitError) -> RefreshOutcome<JSON> {
        switch try SourceFetch.fetch(url, http: http, validators: validators, what: "articles",
                                                     progress: progress) {
        case .notModified: return .notModified
        case .body(let body): return .stored(try refresh(body, lock: lock, commit: commit))
        }
    }

    /// Imports a fetched body as the refresh does, `commit` in the import's transaction.
    func refresh(_ body: SourceFetch.Body, lock: some Serializer, commit: RefreshCommit = { _, _ in }) throws(CarFitError) -> JSON {
        let url = body.url
        let document = try SourceFetch.document(body, what: "articles")
        let snapshot: ArticleSnapshot
        do throws(CarFitError) {
            snapshot = try ArticleSnapshot(document: document)
        } catch {
            throw SourceFetch.notDocument(url, what: "articles", error)
        }
        let db = articles.db
        return try lock.locked { () throws(CarFitError) in
            try db.transaction { () throws(CarFitError) in
                let answer = try store(snapshot)
                try commit(body.response.etag, body.response.lastModified)
                return answer
            }
        }
    }

    /// The stored articles, newest first, with their published texts.
    public func list(_ request: Fields) throws(CarFitError) -> JSON {
        let hour24 = try request.bool("hour24") ?? clock.hour24
        var items: [JSON] = []
        for row in try articles.all() {
            items.append(.obj([
                "id": row.id,
                "title": .string(row.title),
                "ingress": .str(row.ingress),
                "imageUrl": .str(row.imageUrl),
                "dateTime": .string(row.published.iso),
                "published": .string(ArticleDate.listText(row.published, clock: clock, hour24: hour24)),
                "tags": try ArticlesService.storedArray(row.tags),
                "content": try ArticlesService.storedArray(row.content),
            ]))
        }
        return .obj(["articles": .array(items), "updatedAt": .str(try articles.updatedAt()?.iso)])
    }

    /// `{"date": instant, "hour24": bool}` → `{"text"}`.
    public func formatDate(_ request: Fields) throws(CarFitError) -> JSON {
        let text = try request.requiredString("date")
        guard let instant = Instant(iso: text) else {
            throw .invalid("date", "date \"\(text.prefix(40))\" is not an ISO 8601 instant such as \"2018-05-25T14:13:00Z\".")
        }
        let hour24 = try request.bool("hour24") ?? clock.hour24
        guard let formatted = ArticleDate.text(instant, clock: clock, hour24: hour24) else {
            throw .invalid("date", "date \"\(text.prefix(40))\" falls outside the years 1 to 9999 in the configured time zone.")
        }
        return .obj(["text": .string(formatted)])
    }

    /// A JSON array stored as text by `ArticleStore`.
    static func storedArray(_ text: String) throws(CarFitError) -> JSON {
        guard case .success(let value) = JanssonParser.parse(bytes: Array(text.utf8)), case .array = value else {
            throw CarFitError(.storage, "A stored article is damaged (its tags or content are not a JSON array); import the articles again.")
        }
        return value
    }
}
