import Foundation
import XCTest
@testable import CarFitCore
@testable import CarFitIO

/// The articles and catalog documents read straight from their bytes (`PickedDocument`) give
/// exactly the answers of jansson's whole tree: the same records, rejections and errors (with
/// jansson's line, column and position), for the sample data, the edge cases, every case of
/// JSONTestSuite inside a record, and random mutations of the documents.
final class PickedDocumentTests: XCTestCase {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    enum Outcome<R: Equatable>: Equatable {
        case imported([R], [Rejection])
        case refused(String)
    }

    /// An error as its document shows it: code, message, field and details.
    static func shown(_ error: CarFitError) -> String { error.document.encoded() }

    /// The request as the boundary parsed it before (jansson's whole tree), then `decode`.
    func viaJansson<R>(_ bytes: [UInt8], _ decode: (Fields) throws(CarFitError) -> RecordImport<R>) -> Outcome<R> {
        bytes.withUnsafeBytes { raw -> Outcome<R> in
            do throws(CarFitError) {
                let r = try decode(try JanssonParser.object(raw))
                return .imported(r.accepted, r.rejected)
            } catch {
                return .refused(Self.shown(error))
            }
        }
    }

    /// The request read by `picked` (jansson where it cannot), then `decode`; `fast` tells
    /// whether the bytes were read without jansson.
    func viaPicked<R>(_ bytes: [UInt8], _ picked: PickedDocument,
                      _ decode: (Fields) throws(CarFitError) -> RecordImport<R>) -> (Outcome<R>, fast: Bool) {
        bytes.withUnsafeBytes { raw -> (Outcome<R>, fast: Bool) in
            let fast = picked.read(raw) != nil
            do throws(CarFitError) {
                let r = try decode(try picked.fields(raw))
                return (.imported(r.accepted, r.rejected), fast)
            } catch {
                return (.refused(Self.shown(error)), fast)
            }
        }
    }

    static func articles(_ f: Fields) throws(CarFitError) -> ArticleSnapshot { try ArticleSnapshot(document: f) }
    static func catalog(_ f: Fields) throws(CarFitError) -> CatalogImport { try CatalogImport(document: f) }

    /// Both kinds of document compared on `text`; whether each was read without jansson.
    @discardableResult
    func same(_ bytes: [UInt8], _ label: @autoclosure () -> String = "",
              file: StaticString = #filePath, line: UInt = #line) -> (articles: Bool, catalog: Bool) {
        let (a, fastA) = viaPicked(bytes, ArticlesDocument.picked, Self.articles)
        XCTAssertEqual(a, viaJansson(bytes, Self.articles), "articles: \(label())", file: file, line: line)
        let (c, fastC) = viaPicked(bytes, CatalogDocument.picked, Self.catalog)
        XCTAssertEqual(c, viaJansson(bytes, Self.catalog), "catalog: \(label())", file: file, line: line)
        return (fastA, fastC)
    }

    func same(_ text: String, file: StaticString = #filePath, line: UInt = #line) -> (articles: Bool, catalog: Bool) {
        same(Array(text.utf8), text, file: file, line: line)
    }

    func sample(_ name: String) throws -> [UInt8] {
        [UInt8](try Data(contentsOf: Self.root.appendingPathComponent("examples/data/\(name)")))
    }

    func testSampleDataIsReadWithoutJansson() throws {
        let articles = try sample("articles.json")
        XCTAssertTrue(same(articles, "articles.json").articles)
        guard case .imported(let read, let rejected) = viaPicked(articles, ArticlesDocument.picked, Self.articles).0 else {
            return XCTFail("articles.json refused")
        }
        XCTAssertEqual(read.count, 9)
        XCTAssertEqual(rejected, [])
        let catalog = try sample("catalog.json")
        XCTAssertTrue(same(catalog, "catalog.json").catalog)
        guard case .imported(let products, _) = viaPicked(catalog, CatalogDocument.picked, Self.catalog).0 else {
            return XCTFail("catalog.json refused")
        }
        XCTAssertEqual(products.count, 10)
    }

    /// The shapes, rejections and refusals the document tests cover, and the places where
    /// jansson's reading differs from a naive one (repeated keys, escapes in keys, numbers).
    func testEdgesAsJansson() {
        let fast = [
            #"{"status":"success","content":[]}"#,
            #"{"content":[{"id":1,"title":"T","dateTime":"25.05.2018 14:13"}]}"#,
            #"{"status":"error","content":[]}"#,
            #"{"status":null,"content":[{"id":"x","title":"T","dateTime":"25.05.2018 14:13","tags":[{"b":1,"a":[2.50,1e2,-0]},"t",{"a":1,"a":2,"c":3}]}]}"#,
            #"{"status":"success","content":[{"id":1.0,"title":"T","dateTime":"25.05.2018 14:13","content":[{"type":"text","subject":null},{"type":1}]},{"id":9.5e15,"title":"T","dateTime":"25.05.2018 14:13"},{"id":"","title":"T"},{"id":true},3,null,[],{"id":2,"title":"T","dateTime":"31.02.2018 14:13"},{"id":2,"title":"T","dateTime":"25.05.2018 14:13","content":{}},{"id":2,"title":"T","dateTime":"25.05.2018 14:13","content":[3]},{"id":2,"title":"T","dateTime":"25.05.2018 14:13","tags":"x"},{"id":2,"title":"T","dateTime":"25.05.2018 14:13","ingress":5}]}"#,
            #"{"content":[{"id":1}],"content":[{"id":2,"title":"T","dateTime":"25.05.2018 14:13"}]}"#,
            #"{"content":[{"id":1,"title":"T","dateTime":"25.05.2018 14:13","title":"U","id":"z"}]}"#,
            #"{"c\u006Fntent":[{"\u0069d":1,"title":"\u00e6\ud83d\ude00","dateTime":"25.05.2018 14:13"}]}"#,
            #"{"content":[{"id":1,"title":"T","dateTime":"25.05.2018 14:13"}],"status":"success","extra":{"deep":[[[{"x":null}]]]}}"#,
            #"{"content":[{"id":1,"title":"x"},{"id":2}]}"#,
            #"{"content":"x"}"#, #"{"content":{}}"#, #"{"content":null}"#, #"{}"#, #"{"status":3}"#,
            #"{"Products":{"List":[{"Id":101,"Name":" A ","PriceRetail":34.99,"Labels":[{"Url":" u "}],"Varietal":{"WineType":{"Name":"Red"}}}],"Total":1}}"#,
            #"{"Products":{"List":[{"Id":"x","Name":"A","PriceRetail":"34.99","Labels":[],"Varietal":null},{"Id":1.5,"Name":"A","PriceRetail":1},{"Id":1,"Name":"  ","PriceRetail":1},{"Id":1,"Name":"A","PriceRetail":-1},{"Id":1,"Name":"A","PriceRetail":"1.999"},{"Id":1,"Name":"A","PriceRetail":1,"Labels":[3]},{"Id":1,"Name":"A","PriceRetail":1,"Labels":{}},{"Id":1,"Name":"A","PriceRetail":1,"Varietal":{"WineType":3}},{"Id":1,"Name":"A","PriceRetail":true},{"Id":9223372036854775807,"Name":"A","PriceRetail":92233720368547758},{},7]}}"#,
            #"{"Products":{"List":{}}}"#, #"{"Products":{}}"#, #"{"Products":[]}"#, #"{"Products":null,"products":[]}"#,
            #"{"Products":"x","products":[{"id":1,"name":"A","price":1}]}"#,
            #"{"products":[{"id":1,"name":"A","price":1,"category":" Red ","description":"d","imageUrl":null},{"id":1,"name":"B","price":2}],"products":[{"id":2,"name":"C","price":3}]}"#,
            #"{"products":{}}"#,
            #"{"Products":{"List":[{"Id":1,"Name":"A","PriceRetail":1}],"List":[{"Id":2,"Name":"B","PriceRetail":2}]}}"#,
            "{\"products\":[{\"id\":\"" + String(repeating: "x", count: 201) + "\",\"name\":\"A\",\"price\":1}]}",
            " \n\t{\"content\":[]} \n",
        ]
        for text in fast {
            let read = same(text)
            XCTAssertTrue(read.articles && read.catalog, "read without jansson: \(text)")
        }
        let jansson = [
            "", " ", "[]", "3", "null", "\"x\"", "{", "{\"content\":[}", "{\"content\":[1,]}", "{} {}", "{}x",
            "{\"content\":[{\"id\":1,\"title\":\"a\u{0}b\"}]}", "{\"content\":[{\"title\":\"\\u0000\"}]}",
            "{\"content\":[{\"title\":\"\\ud800\"}]}", "{\"content\":[{\"id\":9223372036854775808}]}",
            "{\"content\":[{\"id\":1e999}]}", "{\"content\":[\"\\x\"]}",
            "{\"content\":" + String(repeating: "[", count: 100) + String(repeating: "]", count: 100) + "}",
            "{\"x\":" + String(repeating: "{\"a\":", count: 70) + "1" + String(repeating: "}", count: 70) + "}",
            "{\"content\":[{\"id\":1,\"title\":\"T\",\"dateTime\":\"25.05.2018 14:13\"}]\n\n  ,}",
        ]
        for text in jansson {
            let read = same(text)
            XCTAssertFalse(read.articles || read.catalog, "left to jansson: \(text)")
        }
        // Invalid UTF-8 in a record and in a member passed over.
        for bytes: [UInt8] in [[0x7B, 0x22, 0x63, 0x22, 0x3A, 0x22, 0xFF, 0x22, 0x7D],
                               Array(#"{"content":[{"id":1,"title":""#.utf8) + [0xC3, 0x28] + Array(#""}]}"#.utf8),
                               [0xEF, 0xBB, 0xBF] + Array("{}".utf8)] {
            let read = same(bytes, "\(bytes)")
            XCTAssertFalse(read.articles || read.catalog)
        }
    }

    func suiteCases() throws -> [(name: String, bytes: [UInt8])] {
        let suite = Self.root.appendingPathComponent("Tests/CarFitABITests/Fixtures/JSONTestSuite/test_parsing")
        let names = try FileManager.default.contentsOfDirectory(atPath: suite.path).sorted().filter { $0.hasSuffix(".json") }
        return try names.map { ($0, [UInt8](try Data(contentsOf: suite.appendingPathComponent($0)))) }
    }

    /// Every JSONTestSuite case as an article's and a product's member, inside a member passed
    /// over, as a record of its own and as a document member.
    func testEveryJSONTestSuiteCaseInARecord() throws {
        let cases = try suiteCases()
        XCTAssertEqual(cases.count, 318)
        var fast = 0
        for (name, v) in cases {
            let documents: [[UInt8]] = [
                Array(#"{"status":"success","content":[{"id":1,"title":"#.utf8) + v + Array(#","dateTime":"25.05.2018 14:13","tags":["#.utf8)
                    + v + Array(#"],"content":[{"type":"#.utf8) + v + Array(#"}],"other":"#.utf8) + v + Array("},".utf8) + v + Array("]}".utf8),
                Array(#"{"content":[{"id":"#.utf8) + v + Array(#","title":"T","dateTime":"25.05.2018 14:13"}],"status":"#.utf8) + v + Array("}".utf8),
                Array(#"{"Products":{"List":[{"Id":1,"Name":"#.utf8) + v + Array(#","PriceRetail":1,"Varietal":{"WineType":{"Name":"#.utf8)
                    + v + Array(#"}},"Labels":["#.utf8) + v + Array(#"],"other":"#.utf8) + v + Array("},".utf8) + v + Array(#"],"Total":"#.utf8) + v + Array("}}".utf8),
                Array(#"{"products":[{"id":1,"name":"A","price":"#.utf8) + v + Array("}]}".utf8),
            ]
            for document in documents {
                let read = same(document, name)
                if read.articles { fast += 1 }
            }
        }
        XCTAssertGreaterThan(fast, 300, "most valid cases are read without jansson")
    }

    /// A small deterministic generator (SplitMix64).
    struct Random {
        var state: UInt64
        mutating func next() -> UInt64 {
            state &+= 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return z ^ (z >> 31)
        }
        mutating func below(_ n: Int) -> Int { Int(next() % UInt64(max(1, n))) }
    }

    /// Random mutations of the sample documents: bytes dropped, inserted, repeated and swapped.
    func testMutatedDocumentsAsJansson() throws {
        var random = Random(state: 42)
        let pieces: [[UInt8]] = ["{", "}", "[", "]", ",", ":", "\"", "\\", " ", "0", "-", "1e5", ".5", "true", "null",
                                 "\\u00e9", "\\ud800", "\"id\":", "\"Id\":", "\"content\":", "\"List\":", "\u{0}", "\u{7F}", "é"]
            .map { Array($0.utf8) } + [[0xFF], [0xC3]]
        var fast = 0, total = 0
        for name in ["articles.json", "catalog.json"] {
            let original = try sample(name)
            for _ in 0..<1500 {
                var bytes = original
                for _ in 0..<(1 + random.below(3)) {
                    let at = random.below(bytes.count)
                    switch random.below(4) {
                    case 0: bytes.remove(at: at)
                    case 1: bytes.insert(contentsOf: pieces[random.below(pieces.count)], at: at)
                    case 2:
                        let end = min(bytes.count, at + 1 + random.below(40))
                        bytes.insert(contentsOf: bytes[at..<end], at: random.below(bytes.count))
                    default:
                        let other = random.below(bytes.count)
                        bytes.swapAt(at, other)
                    }
                }
                let read = same(bytes, "\(name) mutated: \(String(decoding: bytes, as: UTF8.self))")
                if read.articles || read.catalog { fast += 1 }
                total += 1
            }
        }
        XCTAssertGreaterThan(fast, total / 10, "mutations that stay JSON are read without jansson")
    }

    /// A refresh's body read from its file: the same value or the same problem either way.
    func testSourceDocumentAsJansson() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("picked-\(getpid())")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let bodies: [[UInt8]] = [
            try sample("articles.json"), try sample("catalog.json"), Array("<html>".utf8), Array("[1]".utf8),
            Array(#"{"content":[{"id":1}"#.utf8), Array(#"{"content":[{"id":1}]} x"#.utf8), Array(#"{"content":[3]}"#.utf8),
            Array(#"{"Products":{"List":[{"Id":1,"Name":"A","PriceRetail":1}]}}"#.utf8), Array(#"{"x":1}"#.utf8), [],
        ]
        for (i, body) in bodies.enumerated() {
            let path = dir.appendingPathComponent("\(i).json").path
            FileManager.default.createFile(atPath: path, contents: Data(body))
            for contentType in [nil, "text/html"] as [String?] {
                let file = try FileReader(path: path, field: "body", chunkBytes: 7)
                let again = try FileReader(path: path, field: "body", chunkBytes: 7)
                let articles = SourceDocument.read(file, contentType: contentType, picked: ArticlesDocument.picked, Self.articles)
                let before = SourceDocument.read(again, contentType: contentType, Self.articles)
                XCTAssertEqual(describe(articles), describe(before), "body \(i)")
                let file2 = try FileReader(path: path, field: "body", chunkBytes: 7)
                let again2 = try FileReader(path: path, field: "body", chunkBytes: 7)
                XCTAssertEqual(describe(SourceDocument.read(file2, contentType: contentType, picked: CatalogDocument.picked, Self.catalog)),
                               describe(SourceDocument.read(again2, contentType: contentType, Self.catalog)), "body \(i)")
            }
        }
    }

    func describe<R>(_ result: Result<RecordImport<R>, SourceDocument.Problem>) -> String {
        switch result {
        case .success(let r): return "\(r.accepted) \(r.rejected)"
        case .failure(.refused(let e)): return "refused " + Self.shown(e)
        case .failure(.unreadable(let e)): return "unreadable " + Self.shown(e)
        case .failure(let other): return "\(other)"
        }
    }
}
