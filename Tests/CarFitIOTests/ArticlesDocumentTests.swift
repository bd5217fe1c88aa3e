import Foundation
import XCTest

@testable import CarFitCore
@testable import CarFitIO

final class ArticlesDocumentTests: XCTestCase {
    /// Foundation's JSON parse of a fixture, as the domain's `JSON`.
    static func json(_ any: Any) -> JSON {
        switch any {
        case let s as String: return .string(s)
        case let n as NSNumber:
            if String(cString: n.objCType) == "c" { return .bool(n.boolValue) }
            if let i = Int64(exactly: n.doubleValue), !"fd".contains(String(cString: n.objCType)) { return .int(i) }
            return .double(n.doubleValue)
        case let a as [Any]: return .array(a.map(json))
        case let o as [String: Any]:
            var obj = JSONObject()
            for (k, v) in o { obj[k] = json(v) }
            return .object(obj)
        default: return .null
        }
    }

    private func fixture() throws -> JSONObject {
        let url = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("examples/data/articles.json")
        let any = try JSONSerialization.jsonObject(with: try Data(contentsOf: url))
        return try XCTUnwrap(ArticlesDocumentTests.json(any).objectValue)
    }

    private func decode(_ record: JSON) -> Result<Article, Rejection> { ArticlesDocument.article(record, index: 4) }

    private let valid: JSONObject = JSONObject([
        "id": 7, "title": "T", "dateTime": "25.05.2018 14:13", "ingress": "I", "image": "https://x/y.jpg",
        "tags": ["a"], "content": [.obj(["type": "text", "subject": "S", "description": "D", "extra": 1])],
    ])

    private func with(_ key: String, _ value: JSON?) -> JSON {
        var o = valid
        o[key] = value
        return .object(o)
    }

    func testSampleDocument() throws {
        let snapshot = try ArticleSnapshot(document: Fields(try fixture()))
        XCTAssertEqual(snapshot.articles.count, 9)
        XCTAssertEqual(snapshot.rejected, [])
        let first = try XCTUnwrap(snapshot.articles.first)
        XCTAssertEqual(first.id, .int(119302))
        XCTAssertEqual(first.title, "Q7 - Greatness starts, when you don't stop.")
        XCTAssertEqual(first.published.iso, "2018-05-25T14:13:00Z")
        XCTAssertEqual(first.imageUrl, "https://www.apphusetreach.no/sites/default/files/audi_q7.jpg")
        XCTAssertEqual(first.content, [ArticleBlock(type: "text", subject: "Q7", description: first.content.first?.description)])
        XCTAssertEqual(first.tags, [])
        XCTAssertEqual(snapshot.articles[2].content, [])
        XCTAssertEqual(snapshot.summary, ImportSummary(imported: 9))
    }

    func testValidRecord() throws {
        let a = try decode(.object(valid)).get()
        XCTAssertEqual(a, Article(id: .int(7), title: "T", ingress: "I", imageUrl: "https://x/y.jpg",
                                  published: try XCTUnwrap(Instant(iso: "2018-05-25T14:13:00Z")), tags: [.string("a")],
                                  content: [ArticleBlock(type: "text", subject: "S", description: "D")]))
        XCTAssertEqual(JSON.array(a.content.map(\.json)).encoded(), #"[{"type":"text","subject":"S","description":"D"}]"#)
        let tags: JSON = ["x", 1, 2.5, true, nil, ["y"], .obj(["b": 1, "a": [.obj([:])]])]
        let kept = try decode(with("tags", tags)).get().tags
        XCTAssertEqual(kept, [.string("x"), .int(1), .double(2.5), .bool(true), .null, .array([.string("y")]),
                              .object([.init("b", .int(1)), .init("a", .array([.object([])]))])])
        XCTAssertEqual(JSON.array(kept.map(\.json)).encoded(), tags.encoded(), "the tags are answered as given")
    }

    func testOptionalMembers() throws {
        var o = valid
        for key in ["ingress", "image", "tags", "content"] { o[key] = nil }
        let a = try decode(.object(o)).get()
        XCTAssertNil(a.ingress)
        XCTAssertNil(a.imageUrl)
        XCTAssertEqual(a.tags, [])
        XCTAssertEqual(a.content, [])
        XCTAssertEqual(try decode(with("content", [.obj([:])])).get().content, [ArticleBlock(type: nil, subject: nil, description: nil)])
        XCTAssertEqual(try decode(with("id", "abc")).get().id, .string("abc"))
        XCTAssertEqual(try decode(with("id", 12.0)).get().id, .int(12))
        XCTAssertEqual(try decode(with("tags", .null)).get().tags, [])
    }

    func testRejections() {
        let cases: [(JSON, String?)] = [
            (with("id", nil), "id"), (with("id", ""), "id"), (with("id", 1.5), "id"), (with("id", true), "id"),
            (with("title", nil), "title"), (with("title", 3), "title"),
            (with("dateTime", nil), "dateTime"), (with("dateTime", "29.02.2019 10:00"), "dateTime"),
            (with("dateTime", "2018-05-25T14:13:00Z"), "dateTime"), (with("dateTime", 1527257580), "dateTime"),
            (with("ingress", 1), "ingress"), (with("image", ["u"]), "image"),
            (with("tags", "a,b"), "tags"), (with("content", "text"), "content"),
            (with("content", [1]), "content[0]"),
            (with("content", [.obj(["type": "text"]), .obj(["subject": 5])]), "content[1].subject"),
            ("not an object", nil),
        ]
        for (record, field) in cases {
            switch decode(record) {
            case .success: XCTFail("accepted \(record.encoded())")
            case .failure(let r):
                XCTAssertEqual(r.index, 4)
                XCTAssertEqual(r.field, field, record.encoded())
                XCTAssertFalse(r.message.isEmpty)
            }
        }
    }

    func testSnapshotKeepsValidRecordsAndReportsTheOthers() throws {
        let doc = JSONObject(["status": "success", "content": [.object(valid), with("dateTime", "31.04.2018 10:00"), .object(valid)]])
        let s = try ArticleSnapshot(document: Fields(doc))
        XCTAssertEqual(s.articles.count, 2)
        XCTAssertEqual(s.rejected.map(\.index), [1])
        XCTAssertEqual(s.rejected.first?.field, "dateTime")
    }

    func testDocumentShape() {
        func refused(_ doc: JSONObject) -> String? {
            do throws(CarFitError) {
                _ = try ArticleSnapshot(document: Fields(doc))
                return nil
            } catch {
                XCTAssertEqual(error.status, .invalid)
                return error.field
            }
        }
        XCTAssertEqual(refused(JSONObject()), "content")
        XCTAssertEqual(refused(JSONObject(["status": "success"])), "content")
        XCTAssertEqual(refused(JSONObject(["status": "success", "content": .obj([:])])), "content")
        XCTAssertEqual(refused(JSONObject(["status": "error", "content": []])), "status")
        XCTAssertEqual(refused(JSONObject(["status": 1, "content": []])), "status")
        XCTAssertNil(refused(JSONObject(["content": []])))
        XCTAssertNil(refused(JSONObject(["status": "success", "content": []])))
    }
}
