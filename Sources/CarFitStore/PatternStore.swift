import CarFitCore

/// The carousel's pattern pool. Importing adds to it; a pattern already in the pool (same image
/// URL) is updated in place and keeps its position.
public struct PatternStore {
    public let db: Database

    public init(_ db: Database) { self.db = db }

    /// Adds or updates `patterns` in one transaction; on failure the pool stays as it was.
    public func add(_ patterns: [Pattern]) throws(CarFitError) {
        try db.transaction { () throws(CarFitError) in
            let upsert = try db.statement("""
                INSERT INTO patterns (image_url, title, colors) VALUES (?1, ?2, ?3)
                ON CONFLICT (image_url) DO UPDATE SET title = excluded.title, colors = excluded.colors
                """)
            for p in patterns {
                upsert.reset()
                try upsert.bind(1, p.imageUrl)
                try upsert.bind(2, p.title)
                try upsert.bind(3, p.colors.joined(separator: ","))
                _ = try upsert.step()
            }
            upsert.reset()
        }
    }

    /// The pool in round robin order.
    public func all() throws(CarFitError) -> [Pattern] {
        let s = try db.statement("SELECT image_url, title, colors FROM patterns ORDER BY seq")
        defer { s.reset() }
        var out: [Pattern] = []
        while try s.step() {
            let colors = (s.text(2) ?? "").split(separator: ",").map(String.init)
            out.append(Pattern(imageUrl: s.text(0) ?? "", title: s.text(1), colors: colors))
        }
        return out
    }

    public func count() throws(CarFitError) -> Int {
        Int(try db.scalarInt("SELECT count(*) FROM patterns") ?? 0)
    }
}
