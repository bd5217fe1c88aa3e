/// One article of the Cars news feed as stored: the source record with its date parsed and its
/// content blocks reduced to the three members the screen shows.
public struct Article: Sendable, Equatable {
    public var id: ArticleID
    public var title: String
    public var ingress: String?
    public var imageUrl: String?
    public var published: Instant
    /// The source's tags, as given.
    public var tags: [JSON]
    public var content: [ArticleBlock]

    public init(id: ArticleID, title: String, ingress: String?, imageUrl: String?, published: Instant,
                tags: [JSON], content: [ArticleBlock]) {
        self.id = id
        self.title = title
        self.ingress = ingress
        self.imageUrl = imageUrl
        self.published = published
        self.tags = tags
        self.content = content
    }
}

extension Article {
    /// Validates one source record (`content[index]` of the document). `id` (a whole number or
    /// a non-empty string), `title` and `dateTime` are required; `ingress` and `image` may be
    /// null or missing; `tags` and `content` may be null or missing (then empty) but must be
    /// arrays when present, and every content block an object of strings or nulls.
    public static func decode(_ value: JSON, index: Int) -> Result<Article, Rejection> {
        RecordImport.decode(value, index: index, decode)
    }

    static func decode(_ f: Fields) throws(CarFitError) -> Article {
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
        return Article(id: id, title: title, ingress: try f.string("ingress"), imageUrl: try f.string("image"),
                       published: published, tags: try f.array("tags") ?? [], content: blocks)
    }
}
