/// The articles of a Cars API document, `{"status": "success", "content": [...]}` (read by the
/// articles document's decoder).
public typealias ArticleSnapshot = RecordImport<Article>

extension RecordImport where Record == Article {
    public var articles: [Article] { accepted }
}
