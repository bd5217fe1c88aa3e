import CarFitCore

extension Core {
    /// Fetches `sources.visits` and imports it as `visits.import` does: the document is read
    /// by the import's streaming reader, which commits the snapshot only after the document's
    /// last byte; anything that reader does not take is parsed whole, so that a document that
    /// is not a visits document is reported as such. Any failure leaves the stored visits as
    /// they were. The core is locked only once the body has arrived.
    func refreshVisits() throws(CarFitError) -> JSON {
        guard let url = config.sources.visits else {
            throw .invalid("sources.visits", "No visits source is configured: set sources.visits when opening the core.")
        }
        let body = try SourceFetch.fetch(url, timeoutMs: config.timeoutMs, what: "visits")
        let streamed = body.bytes.withUnsafeBytes { bytes -> Result<JSON, CarFitError> in
            do throws(CarFitError) {
                return .success(try serialized { () throws(CarFitError) in
                    try VisitDocumentStream.importVisits(bytes, into: visits, threads: config.importThreads) ?? .null
                })
            } catch {
                return .failure(error)
            }
        }
        if case .success(let response) = streamed, !response.isNull { return response }
        if case .failure(let error) = streamed { throw error }
        let document = try SourceFetch.document(body, what: "visits")
        let snapshot: VisitSnapshot
        do throws(CarFitError) {
            snapshot = try VisitSnapshot(document: document)
        } catch {
            throw SourceFetch.notDocument(url, what: "visits", error)
        }
        return try serialized { () throws(CarFitError) in
            try visits.replaceAll(with: snapshot.visits)
            return snapshot.response
        }
    }

    /// Fetches `sources.articles` and imports it as `articles.import` does; a failure keeps the cache.
    func refreshArticles() throws(CarFitError) -> JSON {
        guard let url = config.sources.articles else {
            throw .invalid("sources.articles", "No articles source is configured: set sources.articles when opening the core.")
        }
        let document = try SourceFetch.document(url, timeoutMs: config.timeoutMs, what: "articles")
        let snapshot: ArticleSnapshot
        do throws(CarFitError) {
            snapshot = try ArticleSnapshot(document: document)
        } catch {
            throw SourceFetch.notDocument(url, what: "articles", error)
        }
        return try serialized { () throws(CarFitError) in try storeArticles(snapshot) }
    }
}
