/// The articles of a Cars API document: `{"status": "success", "content": [...]}`.
public typealias ArticleSnapshot = RecordImport<Article>

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
        self.init(records, decode: Article.decode)
        try requireAccepted(field: "content", record: "article")
    }

    public var articles: [Article] { accepted }
}
