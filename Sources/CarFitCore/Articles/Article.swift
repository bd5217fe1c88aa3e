/// One article of the Cars news feed as stored: the source record with its date parsed and its
/// content blocks reduced to the three members the screen shows.
public struct Article: Sendable, Equatable {
    public var id: ArticleID
    public var title: String
    public var ingress: String?
    public var imageUrl: String?
    public var published: Instant
    /// The source's tags as given (empty when the record had none): the library stores and
    /// answers them, it never reads them.
    public var tags: [ArticleTag]
    public var content: [ArticleBlock]

    public init(id: ArticleID, title: String, ingress: String?, imageUrl: String?, published: Instant,
                tags: [ArticleTag], content: [ArticleBlock]) {
        self.id = id
        self.title = title
        self.ingress = ingress
        self.imageUrl = imageUrl
        self.published = published
        self.tags = tags
        self.content = content
    }
}
