import CarFitCore

/// The Cars API document, `{"status": "success", "content": [...]}`, read into an
/// `ArticleSnapshot`: each record validated on its own (`ArticlesDocument.article`).
extension RecordImport where Record == Article {
    /// A document without a `content` array, whose `status` is present and not `"success"`, or
    /// with records of which none is valid, is `invalid` (and nothing may be stored from it).
    public init(document f: Fields) throws(CarFitError) {
        if let v = f.value("status") {
            guard case .string(let status) = v, status == "success" else {
                throw .invalid("status", "The document's status is not \"success\": the source reported a failure.")
            }
        }
        guard let content = f.object["content"], case .array(let records) = content else {
            throw .invalid("content", "The document has no content array of articles.")
        }
        self.init(records, decode: ArticlesDocument.article)
        try requireAccepted(field: "content", record: "article")
    }
}

public enum ArticlesDocument {
    /// The members of a source record that `article` reads; a reader may pass only these.
    public static let memberNames = ["id", "title", "dateTime", "content", "ingress", "image", "tags"]

    /// The document's members that `RecordImport(document:)` reads, its records with only
    /// `memberNames`: what the import reads straight from the bytes.
    /// Made on each use (a few small tables): kept in a global, its indirect cases would sit
    /// behind tagged pointers that a leak checker cannot follow.
    public static var picked: PickedDocument {
        PickedDocument(.object([
            ("status", .whole), ("content", .records(.record(memberNames))),
        ]))
    }

    /// Validates one source record (`content[index]` of the document). `id` (a whole number or
    /// a non-empty string), `title` and `dateTime` are required; `ingress` and `image` may be
    /// null or missing; `tags` and `content` may be null or missing (then empty) but must be
    /// arrays when present, and every content block an object of strings or nulls.
    public static func article(_ value: JSON, index: Int) -> Result<Article, Rejection> {
        RecordImport.decode(value, index: index, article)
    }

    static func article(_ f: Fields) throws(CarFitError) -> Article {
        let id: ArticleID
        switch f.value("id") {
        case .int(let i)?: id = .int(i)
        case .double(let d)? where d.rounded() == d && abs(d) < 9.0e15: id = .int(Int64(d))
        case .string(let s)? where !s.isEmpty: id = .string(s)
        case nil: throw .invalid("id", "id is required.")
        default: throw .invalid("id", "id must be a whole number or a non-empty string.")
        }
        let title = try f.requiredString("title")
        let dateText = try f.requiredString("dateTime")
        guard let published = ArticleDate.parseSource(dateText) else {
            throw .invalid("dateTime", "dateTime \"\(dateText.prefix(40))\" is not a valid date and time in the form dd.MM.yyyy HH:mm.")
        }
        var blocks: [ArticleBlock] = []
        if let items = try f.array("content") {
            blocks.reserveCapacity(items.count)
            for (i, item) in items.enumerated() {
                let path = f.path("content") + "[\(i)]"
                guard case .object(let o) = item else { throw .invalid(path, "\(path) must be an object.") }
                let b = Fields(o, path: path)
                blocks.append(ArticleBlock(type: try b.string("type"), subject: try b.string("subject"),
                                           description: try b.string("description")))
            }
        }
        let ingress = try f.string("ingress")
        let image = try f.string("image")
        let tags = try f.array("tags") ?? []
        return Article(id: id, title: title, ingress: ingress, imageUrl: image,
                       published: published, tags: tags.map(ArticleTag.init), content: blocks)
    }
}
