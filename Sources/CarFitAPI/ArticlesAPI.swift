import CarFitCore
import CarFitIO
import CarFitServices
import CarFitStore

/// The articles operations: the import of a document, the list with its published texts, the
/// date text.
public enum ArticlesAPI {
    /// Replaces the stored articles with the document's valid records; the articles source's
    /// validators no longer describe what is stored, so its next refresh asks unconditionally
    /// (`SourcesService.imported`).
    public static func importArticles(_ service: ArticlesService, sources: SourcesService? = nil,
                                      _ request: Fields) throws(CarFitError) -> JSON {
        let answer = try service.importArticles(try ArticleSnapshot(document: request))
        try sources?.imported("articles")
        return answer.json
    }

    /// `articles.import` of the request's bytes: the document read straight from them
    /// (`ArticlesDocument.picked`, jansson's parse of the whole text where it cannot be), its
    /// members' types checked by `check` (the boundary's request check) before it is imported.
    public static func importArticles(_ service: ArticlesService, sources: SourcesService? = nil,
                                      _ bytes: UnsafeRawBufferPointer,
                                      check: (Fields) throws(CarFitError) -> Void) throws(CarFitError) -> JSON {
        let request = try ArticlesDocument.picked.fields(bytes)
        try check(request)
        return try importArticles(service, sources: sources, request)
    }

    public static func list(_ service: ArticlesService, _ request: Fields) throws(CarFitError) -> JSON {
        let hour24 = try request.bool("hour24")
        let (rows, updatedAt) = try service.list()
        var items: [JSON] = []
        for row in rows {
            items.append(.obj([
                "id": row.id.json,
                "title": .string(row.title),
                "ingress": .str(row.ingress),
                "imageUrl": .str(row.imageUrl),
                "dateTime": .string(row.published.iso),
                "published": .string(ArticleDate.listText(row.published, clock: service.clock, hour24: hour24)),
                "tags": .array(row.tags.map(\.json)),
                "content": .array(row.content.map(\.json)),
            ]))
        }
        return .obj(["articles": .array(items), "updatedAt": .str(updatedAt?.iso)])
    }

    /// `{"date": instant, "hour24"?}` → `{"text"}`.
    public static func formatDate(_ service: ArticlesService, _ request: Fields) throws(CarFitError) -> JSON {
        let text = try request.requiredString("date")
        guard let instant = Instant(iso: text) else {
            throw .invalid("date", "date \"\(text.prefix(40))\" is not an ISO 8601 instant such as \"2018-05-25T14:13:00Z\".")
        }
        guard let formatted = service.formatDate(instant, hour24: try request.bool("hour24")) else {
            throw .invalid("date", "date \"\(text.prefix(40))\" falls outside the years 1 to 9999 in the configured time zone.")
        }
        return .obj(["text": .string(formatted)])
    }
}

// MARK: - Responses

extension ArticlesService.Imported: APIResponse {
    /// `{"imported", "rejected", "updatedAt"}`: `articles.import` and a refresh that stored.
    public var json: JSON {
        .obj(["imported": .int(Int64(imported)), "rejected": .array(rejected.map(\.json)), "updatedAt": .string(updatedAt.iso)])
    }
}

/// The entry points of the operation table (`Manifest.operations`), one per operation, named
/// after its verb: each picks from the core what the function above needs.
extension ArticlesAPI {
    public static func `import`(_ context: some OperationContext, _ bytes: UnsafeRawBufferPointer, check: MemberCheck, progress: ProgressStart) throws(CarFitError) -> JSON {
        try importArticles(context.articles, sources: context.sources, bytes, check: check)
    }
    public static func refresh(_ context: some OperationContext, _ request: Fields) throws(CarFitError) -> JSON {
        try context.refresh(.articles, request)
    }
    public static func list(_ context: some OperationContext, _ request: Fields) throws(CarFitError) -> JSON {
        try list(context.articles, request)
    }
    public static func formatDate(_ context: some OperationContext, _ request: Fields) throws(CarFitError) -> JSON {
        try formatDate(context.articles, request)
    }
}
