import CarFitCore
import CarFitIO

/// The stored articles snapshot: the offline cache of the Cars feed, with the instant of the
/// last successful import.
public struct ArticleStore {
    public let db: Database
    static let updatedAtKey = "articles.updatedAt"

    public init(_ db: Database) { self.db = db }

    /// One stored article; `tags` and `content` are the JSON texts written by `replaceAll`.
    public struct Row: Sendable {
        public var id: JSON
        public var title: String
        public var ingress: String?
        public var imageUrl: String?
        public var published: Instant
        public var tags: String
        public var content: String
    }

    /// Replaces every stored article with `articles` and records `updatedAt`, in one
    /// transaction: on any failure the previous snapshot stays exactly as it was.
    public func replaceAll(with articles: [Article], updatedAt: Instant) throws(CarFitError) {
        try db.transaction { () throws(CarFitError) in
            try db.execute("DELETE FROM articles")
            let insert = try db.statement("""
                INSERT INTO articles (seq, article_id, title, ingress, image_url, published_ms, tags, content)
                VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8)
                """)
            for (seq, a) in articles.enumerated() {
                insert.reset()
                try insert.bind(1, Int64(seq))
                switch a.id {
                case .int(let i): try insert.bind(2, .int(i))
                case .string(let s): try insert.bind(2, .text(s))
                }
                try insert.bind(3, a.title)
                try insert.bind(4, a.ingress)
                try insert.bind(5, a.imageUrl)
                try insert.bind(6, a.published.milliseconds)
                try insert.bind(7, a.tagsText)
                try insert.bind(8, ArticlesDocument.contentText(a.content))
                _ = try insert.step()
            }
            insert.reset()
            try db.run("INSERT OR REPLACE INTO meta (key, value) VALUES (?1, ?2)",
                       [.text(ArticleStore.updatedAtKey), .text(updatedAt.iso)])
        }
    }

    /// Every stored article, newest first; equal dates in snapshot order.
    public func all() throws(CarFitError) -> [Row] {
        let s = try db.statement("""
            SELECT article_id, title, ingress, image_url, published_ms, tags, content
            FROM articles ORDER BY published_ms DESC, seq
            """)
        defer { s.reset() }
        var out: [Row] = []
        while try s.step() {
            let id: JSON
            switch s.value(0) {
            case .int(let i): id = .int(i)
            case .text(let t): id = .string(t)
            case .double(let d): id = .double(d)
            case .null: id = .null
            }
            out.append(Row(id: id, title: s.text(1) ?? "", ingress: s.text(2), imageUrl: s.text(3),
                           published: Instant(milliseconds: s.int(4) ?? 0),
                           tags: s.text(5) ?? "[]", content: s.text(6) ?? "[]"))
        }
        return out
    }

    /// The instant of the last successful import, or nil if there was none.
    public func updatedAt() throws(CarFitError) -> Instant? {
        let rows = try db.query("SELECT value FROM meta WHERE key = ?1", [.text(ArticleStore.updatedAtKey)])
        guard let first = rows.first?.first, case .text(let text) = first else { return nil }
        return Instant(iso: text)
    }

    public func count() throws(CarFitError) -> Int {
        Int(try db.scalarInt("SELECT count(*) FROM articles") ?? 0)
    }
}
