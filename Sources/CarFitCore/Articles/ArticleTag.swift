/// One of an article's tags as the source gave it: any value of its document (the library
/// stores and answers tags, it never reads them). Object members keep their order.
public indirect enum ArticleTag: Sendable, Equatable {
    case null
    case bool(Bool)
    case int(Int64)
    case double(Double)
    case string(String)
    case array([ArticleTag])
    case object([Member])

    /// A member of an object tag.
    public struct Member: Sendable, Equatable {
        public var name: String
        public var value: ArticleTag

        public init(_ name: String, _ value: ArticleTag) {
            self.name = name
            self.value = value
        }
    }
}
