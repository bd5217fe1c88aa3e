import Foundation
import XCTest
import CarFitCore
@testable import CarFitStore

/// A database written by libcarfit 1.2 (`Fixtures/database-1.2.sqlite`, made by
/// `Fixtures/make-database-1.2.py` with the 1.2 library: articles whose tags and content were
/// JSON text, the push's last failure as JSON text, visits and a pending change) is migrated to
/// columns with everything it held; the stores keep no JSON text.
final class Database12Tests: XCTestCase {
    static let fixture = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("Fixtures/database-1.2.sqlite")

    func opened() throws -> (Database, String) {
        let path = try TestDatabase.temporaryPath()
        try FileManager.default.copyItem(atPath: Database12Tests.fixture.path, toPath: path)
        return (try Database(path: path), path)
    }

    func testTheArticlesTagsAndContentComeThroughTheMigration() throws {
        let (db, path) = try opened()
        defer { TestDatabase.remove(path) }
        XCTAssertEqual(try db.scalarInt("PRAGMA user_version"), Schema.currentVersion)
        let rows = try ArticleStore(db).all()
        XCTAssertEqual(rows.map(\.id), [.int(7), .string("x-1"), .int(12)])
        XCTAssertEqual(rows[0].title, "Winter tyres")
        XCTAssertEqual(rows[0].ingress, "Time to change")
        XCTAssertEqual(rows[0].imageUrl, "https://img.example/7.jpg")
        XCTAssertEqual(rows[0].published.iso, "2020-09-10T08:00:00Z")
        XCTAssertEqual(rows[0].tags, [.string("tyres"), .string("winter"), .int(3), .double(2.5), .bool(true), .null,
                                      .object([.init("a", .array([.int(1), .string("b")])), .init("c", .object([]))]),
                                      .array([])])
        XCTAssertEqual(rows[0].content, [ArticleBlock(type: "text", subject: "Q7", description: "Grip \"on\" ice ✓"),
                                         ArticleBlock(type: nil, subject: "", description: nil),
                                         ArticleBlock(type: nil, subject: nil, description: nil)])
        XCTAssertEqual(rows[1].tags, [])
        XCTAssertEqual(rows[1].content, [])
        XCTAssertEqual(rows[2].tags, [])
        XCTAssertEqual(try ArticleStore(db).updatedAt()?.iso, "2020-09-10T07:00:00Z")
        let columns = try db.query("SELECT name FROM pragma_table_info('articles')").compactMap { row -> String? in
            if case .text(let name)? = row.first { return name }
            return nil
        }
        XCTAssertFalse(columns.contains("tags") || columns.contains("content"), "\(columns)")
    }

    func testTheSyncFailureVisitsAndOutboxComeThroughTheMigration() throws {
        let (db, path) = try opened()
        defer { TestDatabase.remove(path) }
        let state = try SyncStore(db).state()
        XCTAssertEqual(state.lastError, SyncFailure(reason: "refused",
                                                    message: "http://127.0.0.1:1/updates refused the connection. Every change stays pending.",
                                                    at: Instant(milliseconds: 1_599_721_200_000), httpStatus: nil))
        XCTAssertEqual(state.consecutiveFailures, 1)
        XCTAssertEqual(state.lastAttemptAt?.iso, "2020-09-10T07:00:00Z")
        XCTAssertEqual(try SyncStore(db).pendingCount(), 1)
        XCTAssertEqual(try TestDatabase.visitNames(db).count, 2)
        // Written again in columns, read back the same; an HTTP status too.
        var changed = state
        changed.lastError = SyncFailure(reason: "http_status", message: "m \"quoted\"", at: Instant(milliseconds: 5_000), httpStatus: 503)
        try SyncStore(db).save(changed)
        XCTAssertEqual(try SyncStore(db).state().lastError, changed.lastError)
        changed.lastError = nil
        try SyncStore(db).save(changed)
        XCTAssertNil(try SyncStore(db).state().lastError)
    }

    func testTagsOfEveryKindRoundTripThroughTheirRows() throws {
        let db = try Database(path: ":memory:")
        let deep: ArticleTag = .array([.array([.object([.init("", .array([.null]))])]), .string("")])
        let tags: [ArticleTag] = [deep, .object([.init("x", .int(.min)), .init("x", .double(-0.5)), .init("y", .bool(false))]),
                                  .int(.max), .string("ü z")]
        let article = Article(id: .string("a"), title: "T", ingress: nil, imageUrl: nil, published: Instant(milliseconds: 0),
                              tags: tags, content: [])
        let other = Article(id: .int(2), title: "U", ingress: nil, imageUrl: nil, published: Instant(milliseconds: 1),
                            tags: [], content: [ArticleBlock(type: "t", subject: nil, description: "d")])
        try ArticleStore(db).replaceAll(with: [article, other], updatedAt: Instant(milliseconds: 9))
        let rows = try ArticleStore(db).all()
        XCTAssertEqual(rows.map(\.tags), [[], tags])
        XCTAssertEqual(rows.map(\.content), [other.content, []])
        // A damaged row is a storage error, not a wrong answer.
        try db.execute("UPDATE article_tags SET parent = 99 WHERE node = 3")
        XCTAssertThrowsError(try ArticleStore(db).all()) { XCTAssertEqual(($0 as? CarFitError)?.status, .storage) }
    }
}
