/// One block of an article's body.
public struct ArticleBlock: Sendable, Equatable {
    public var type: String?
    public var subject: String?
    public var description: String?

    public init(type: String?, subject: String?, description: String?) {
        self.type = type
        self.subject = subject
        self.description = description
    }
}
