import CarFitCore

/// The stored articles snapshot: the offline cache of the Cars feed, with the instant of the
/// last successful import. An article's content blocks are rows of `article_blocks`, its tags
/// rows of `article_tags` (one row per value, nested values under their parent's row).
public struct ArticleStore {
    public let db: Database
    static let updatedAtKey = "articles.updatedAt"

    public init(_ db: Database) { self.db = db }

    /// One stored article.
    public struct Row: Sendable, Equatable {
        public var id: ArticleID
        public var title: String
        public var ingress: String?
        public var imageUrl: String?
        public var published: Instant
        public var tags: [ArticleTag]
        public var content: [ArticleBlock]
    }

    /// Replaces every stored article with `articles` and records `updatedAt`, in one
    /// transaction: on any failure the previous snapshot stays exactly as it was.
    public func replaceAll(with articles: [Article], updatedAt: Instant) throws(CarFitError) {
        try db.transaction { () throws(CarFitError) in
            try db.execute("DELETE FROM articles; DELETE FROM article_blocks; DELETE FROM article_tags;")
            let insert = try db.statement("""
                INSERT INTO articles (seq, article_id, title, ingress, image_url, published_ms)
                VALUES (?1, ?2, ?3, ?4, ?5, ?6)
                """)
            let block = try db.statement("""
                INSERT INTO article_blocks (article_seq, position, type, subject, description) VALUES (?1, ?2, ?3, ?4, ?5)
                """)
            let tag = try db.statement("""
                INSERT INTO article_tags (article_seq, node, parent, member, kind, value) VALUES (?1, ?2, ?3, ?4, ?5, ?6)
                """)
            defer { insert.reset(); block.reset(); tag.reset() }
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
                _ = try insert.step()
                for (position, b) in a.content.enumerated() {
                    block.reset()
                    try block.bind([.int(Int64(seq)), .int(Int64(position)), b.type.map(SQLValue.text) ?? .null,
                                    b.subject.map(SQLValue.text) ?? .null, b.description.map(SQLValue.text) ?? .null])
                    _ = try block.step()
                }
                var nodes: [TagNode] = []
                TagNode.flatten(.array(a.tags), parent: nil, member: nil, into: &nodes)
                for (node, n) in nodes.enumerated() {
                    tag.reset()
                    try tag.bind([.int(Int64(seq)), .int(Int64(node)), n.parent.map { .int(Int64($0)) } ?? .null,
                                  n.member.map(SQLValue.text) ?? .null, .text(n.kind), n.value])
                    _ = try tag.step()
                }
            }
            try db.run("INSERT OR REPLACE INTO meta (key, value) VALUES (?1, ?2)",
                       [.text(ArticleStore.updatedAtKey), .text(updatedAt.iso)])
        }
    }

    /// Every stored article, newest first; equal dates in snapshot order.
    public func all() throws(CarFitError) -> [Row] {
        let blocks = try self.blocks()
        let tags = try self.tags()
        let s = try db.statement("""
            SELECT seq, article_id, title, ingress, image_url, published_ms
            FROM articles ORDER BY published_ms DESC, seq
            """)
        defer { s.reset() }
        var out: [Row] = []
        while try s.step() {
            let seq = s.int(0) ?? -1
            let id: ArticleID
            switch s.value(1) {
            case .int(let i): id = .int(i)
            case .text(let t): id = .string(t)
            default: throw ArticleStore.damaged
            }
            out.append(Row(id: id, title: s.text(2) ?? "", ingress: s.text(3), imageUrl: s.text(4),
                           published: Instant(milliseconds: s.int(5) ?? 0),
                           tags: tags[seq] ?? [], content: blocks[seq] ?? []))
        }
        return out
    }

    static let damaged = CarFitError(.storage, "A stored article is damaged; import the articles again.")

    /// Every article's content blocks, by the article's `seq`.
    func blocks() throws(CarFitError) -> [Int64: [ArticleBlock]] {
        let s = try db.statement("SELECT article_seq, type, subject, description FROM article_blocks ORDER BY article_seq, position")
        defer { s.reset() }
        var out: [Int64: [ArticleBlock]] = [:]
        while try s.step() {
            out[s.int(0) ?? -1, default: []].append(ArticleBlock(type: s.text(1), subject: s.text(2), description: s.text(3)))
        }
        return out
    }

    /// Every article's tags, by the article's `seq`: each article's rows, in node order, built
    /// back into the array they were taken from.
    func tags() throws(CarFitError) -> [Int64: [ArticleTag]] {
        let s = try db.statement("""
            SELECT article_seq, node, parent, member, kind, value FROM article_tags ORDER BY article_seq, node
            """)
        defer { s.reset() }
        var out: [Int64: [ArticleTag]] = [:]
        var seq: Int64?
        var builder = TagNode.Builder()
        while try s.step() {
            let article = s.int(0) ?? -1
            if article != seq {
                if let seq { out[seq] = try builder.tags() }
                seq = article
                builder = TagNode.Builder()
            }
            guard let node = s.int(1), let kind = s.text(4) else { throw ArticleStore.damaged }
            try builder.add(node: node, parent: s.int(2), member: s.text(3), kind: kind, value: s.value(5))
        }
        if let seq { out[seq] = try builder.tags() }
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

/// One row of `article_tags`: a value of an article's tags, numbered in document order (the
/// tags' array itself is node 0, with no parent); `member` is its name in an object parent;
/// `kind` is `null`, `true`, `false`, `integer`, `real`, `text`, `array` or `object`
/// (SQLite's `json_tree` names, which the migration from JSON text uses); `value` holds an
/// integer, real or text.
struct TagNode {
    var parent: Int?
    var member: String?
    var kind: String
    var value: SQLValue

    /// Appends `tag` and everything under it, in document order.
    static func flatten(_ tag: ArticleTag, parent: Int?, member: String?, into nodes: inout [TagNode]) {
        let me = nodes.count
        switch tag {
        case .null: nodes.append(TagNode(parent: parent, member: member, kind: "null", value: .null))
        case .bool(let b): nodes.append(TagNode(parent: parent, member: member, kind: b ? "true" : "false", value: .null))
        case .int(let i): nodes.append(TagNode(parent: parent, member: member, kind: "integer", value: .int(i)))
        case .double(let d): nodes.append(TagNode(parent: parent, member: member, kind: "real", value: .double(d)))
        case .string(let s): nodes.append(TagNode(parent: parent, member: member, kind: "text", value: .text(s)))
        case .array(let items):
            nodes.append(TagNode(parent: parent, member: member, kind: "array", value: .null))
            for item in items { flatten(item, parent: me, member: nil, into: &nodes) }
        case .object(let members):
            nodes.append(TagNode(parent: parent, member: member, kind: "object", value: .null))
            for m in members { flatten(m.value, parent: me, member: m.name, into: &nodes) }
        }
    }

    /// Builds an article's tags back from its rows, read in node order: each value is complete
    /// once the rows after it are no longer under it.
    struct Builder {
        /// The open arrays and objects, outermost first: node, kind, member name, contents.
        private var open: [(node: Int64, kind: String, member: String?, items: [ArticleTag], members: [ArticleTag.Member])] = []
        private var root: ArticleTag?

        mutating func add(node: Int64, parent: Int64?, member: String?, kind: String, value: SQLValue) throws(CarFitError) {
            guard root == nil else { throw ArticleStore.damaged }
            if let parent {
                while let last = open.last, last.node != parent { try close() }
                guard !open.isEmpty else { throw ArticleStore.damaged }
            } else {
                guard open.isEmpty else { throw ArticleStore.damaged }
            }
            let leaf: ArticleTag
            switch (kind, value) {
            case ("array", _), ("object", _):
                open.append((node, kind, member, [], []))
                return
            case ("null", _): leaf = .null
            case ("true", _): leaf = .bool(true)
            case ("false", _): leaf = .bool(false)
            case ("integer", .int(let i)): leaf = .int(i)
            case ("real", .double(let d)): leaf = .double(d)
            case ("real", .int(let i)): leaf = .double(Double(i))
            case ("text", .text(let t)): leaf = .string(t)
            default: throw ArticleStore.damaged
            }
            try place(leaf, member: member)
        }

        /// The tags: the array of node 0.
        mutating func tags() throws(CarFitError) -> [ArticleTag] {
            while !open.isEmpty { try close() }
            guard case .array(let items)? = root else { throw ArticleStore.damaged }
            return items
        }

        private mutating func close() throws(CarFitError) {
            guard let last = open.popLast() else { throw ArticleStore.damaged }
            try place(last.kind == "array" ? .array(last.items) : .object(last.members), member: last.member)
        }

        private mutating func place(_ tag: ArticleTag, member: String?) throws(CarFitError) {
            guard !open.isEmpty else {
                guard root == nil else { throw ArticleStore.damaged }
                root = tag
                return
            }
            let i = open.count - 1
            if open[i].kind == "array" {
                open[i].items.append(tag)
            } else {
                guard let member else { throw ArticleStore.damaged }
                open[i].members.append(ArticleTag.Member(member, tag))
            }
        }
    }
}
