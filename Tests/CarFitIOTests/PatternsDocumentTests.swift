import XCTest
@testable import CarFitCore
@testable import CarFitIO

/// The patterns documents: each record, an import request's bytes, a source's answer.
final class PatternsDocumentTests: XCTestCase {
    func testPatternRecords() throws {
        let good = try PatternsDocument.pattern(.obj(["imageUrl": "http://x/1.png", "title": " Quiet Dawn ",
                                            "colors": ["000000", "#00ff63"], "id": 1000]), index: 0).get()
        XCTAssertEqual(good, Pattern(imageUrl: "http://x/1.png", title: "Quiet Dawn", colors: ["000000", "00FF63"]))
        XCTAssertEqual(good.placeholderColor, "#000000")
        let bare = try PatternsDocument.pattern(.obj(["imageUrl": "https://x/2.png", "colors": .null]), index: 0).get()
        XCTAssertEqual(bare.colors, [])
        XCTAssertNil(bare.placeholderColor)

        let cases: [(JSON, String?)] = [
            (.obj(["title": "No image"]), "imageUrl"),
            (.obj(["imageUrl": "file:///etc/passwd"]), "imageUrl"),
            (.obj(["imageUrl": "http://x/3.png", "colors": ["12345G"]]), "colors[0]"),
            (.obj(["imageUrl": "http://x/3.png", "colors": ["123456", 7]]), "colors[1]"),
            (.obj(["imageUrl": "http://x/3.png", "title": 5]), "title"),
            ("just a string", nil),
        ]
        for (record, field) in cases {
            guard case .failure(let rejection) = PatternsDocument.pattern(record, index: 4) else { XCTFail("\(record)"); continue }
            XCTAssertEqual(rejection.index, 4)
            XCTAssertEqual(rejection.field, field)
        }
    }

    func testImportDocument() throws {
        let doc = try PatternImport(document: Fields(JSONObject(["patterns": [
            .obj(["imageUrl": "http://x/1.png"]), .obj(["imageUrl": 5]), .obj(["imageUrl": "http://x/2.png"]),
        ]])))
        XCTAssertEqual(doc.patterns.map(\.imageUrl), ["http://x/1.png", "http://x/2.png"])
        XCTAssertEqual(doc.rejected.map(\.index), [1])
        XCTAssertThrowsError(try PatternImport(document: Fields(JSONObject(["data": []])))) { error in
            XCTAssertEqual((error as? CarFitError)?.field, "patterns")
        }
    }

    private func request(_ text: String) throws(CarFitError) -> PatternImport {
        let result = Array(text.utf8).withUnsafeBytes { bytes in
            Result { () throws(CarFitError) in try PatternImport(request: bytes) }
        }
        return try result.get()
    }

    func testImportRequests() throws {
        // The colourlovers array itself, or an object with a patterns array.
        XCTAssertEqual(try request(#"[{"imageUrl": "http://x/1.png"}, 5]"#).patterns.map(\.imageUrl), ["http://x/1.png"])
        XCTAssertEqual(try request(#"[{"imageUrl": "http://x/1.png"}, 5]"#).rejected.map(\.index), [1])
        XCTAssertEqual(try request(#"{"patterns": [{"imageUrl": "http://x/2.png"}]}"#).patterns.count, 1)
        func refused(_ text: String) -> CarFitError? {
            do throws(CarFitError) {
                _ = try request(text)
                return nil
            } catch {
                return error
            }
        }
        XCTAssertEqual(refused("")?.status, .invalid)
        XCTAssertEqual(refused("")?.field, "patterns")
        XCTAssertEqual(refused(#"{"data": []}"#)?.field, "patterns")
        XCTAssertEqual(refused("7")?.status, .badJSON)
        XCTAssertEqual(refused("[1,")?.status, .badJSON)
    }

    func testSourceAnswers() throws {
        func answer(_ text: String) -> Result<PatternImport, PatternsDocument.AnswerFailure> {
            PatternsDocument.answer(Array(text.utf8), shown: "http://p.test/random")
        }
        guard case .success(let found) = answer(#"[{"imageUrl": "http://x/1.png", "colors": ["abcdef"]}]"#) else {
            return XCTFail("refused")
        }
        XCTAssertEqual(found.patterns, [Pattern(imageUrl: "http://x/1.png", title: nil, colors: ["ABCDEF"])])
        for (text, reason) in [("7", "not_document"), ("[1,\n", "not_json"), ("", "empty"), ("<html>", "not_json")] {
            guard case .failure(.unusable(let given, let message)) = answer(text) else { XCTFail(text); continue }
            XCTAssertEqual(given, reason, text)
            XCTAssertTrue(message.hasPrefix("http://p.test/random answered with "), message)
        }
        guard case .failure(.refused(let error)) = answer(#"{"data": []}"#) else { return XCTFail("no patterns array") }
        XCTAssertEqual(error.field, "patterns")
    }
}
