import Foundation
import XCTest
@testable import CarFitCore
@testable import CarFitIO

/// The reader the bulk imports use instead of jansson accepts no text jansson refuses, reads
/// what it accepts as jansson does, and gives every record the answer jansson's tree gives.
final class ElementReaderTests: XCTestCase {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()
    static let suite = root.appendingPathComponent("Tests/CarFitABITests/Fixtures/JSONTestSuite/test_parsing")

    func cases() throws -> [(name: String, bytes: [UInt8])] {
        let names = try FileManager.default.contentsOfDirectory(atPath: Self.suite.path).sorted()
        return try names.filter { $0.hasSuffix(".json") }.map {
            ($0, [UInt8](try Data(contentsOf: Self.suite.appendingPathComponent($0))))
        }
    }

    /// jansson's reading of `bytes` (as every request is parsed), or nil when it refuses them.
    func jansson(_ bytes: [UInt8]) -> JSON? {
        guard case .success(let value) = JanssonParser.parse(bytes: bytes) else { return nil }
        return value
    }

    /// The reader's reading of `bytes`, converted whole, or nil when it refuses them.
    func reader(_ bytes: [UInt8]) -> JSON? {
        bytes.withUnsafeBufferPointer { buffer -> JSON? in
            guard let base = buffer.baseAddress else { return nil }
            var r = ElementReader(base, count: buffer.count)
            guard let value = r.value(), r.atEnd() else { return nil }
            return value
        }
    }

    func readerSkips(_ bytes: [UInt8]) -> Bool {
        bytes.withUnsafeBufferPointer { buffer -> Bool in
            guard let base = buffer.baseAddress else { return false }
            var r = ElementReader(base, count: buffer.count)
            return r.skipValue() && r.atEnd()
        }
    }

    func testEveryJSONTestSuiteCase() throws {
        let all = try cases()
        XCTAssertEqual(all.count, 318)
        var refusedValid: [String] = []
        for (name, bytes) in all {
            let expected = jansson(bytes)
            let read = reader(bytes)
            let skipped = readerSkips(bytes)
            if name.hasPrefix("n_") {
                XCTAssertNil(read, "\(name) accepted")
                XCTAssertFalse(skipped, "\(name) passed over")
            }
            // Never accepts what jansson refuses; reads what it accepts as jansson does.
            if expected == nil {
                XCTAssertNil(read, "\(name): jansson refuses it")
                XCTAssertFalse(skipped, "\(name): jansson refuses it")
            } else if let read {
                XCTAssertEqual(read, expected, name)
            }
            XCTAssertEqual(skipped, read != nil, name)
            if name.hasPrefix("y_"), expected != nil, read == nil { refusedValid.append(name) }
            // The same verdict for the text as a member of a record, read and passed over.
            for record in [#"{"startTimeUtc":"2021-05-13T15:35:00","houseOwnerFirstName":"#, #"{"other":"#,
                           #"{"startTimeUtc":"2021-05-13T15:35:00","tasks":[{"title":"#] {
                let closing = record.contains("tasks") ? "}]}" : "}"
                let text = Array(record.utf8) + bytes + Array(closing.utf8)
                let outcome = text.withUnsafeBytes { VisitDocumentStream.readRecord($0, index: 0) }
                let tree = jansson(text)
                if tree == nil { XCTAssertNil(outcome, "\(name) in \(record)") }
                if let outcome, let tree {
                    XCTAssertEqual(outcome, Visit.decode(VisitDocumentStream.recordMembers(tree), index: 0), "\(name) in \(record)")
                }
            }
        }
        // The valid texts it leaves to jansson: only the documented ones (escaped U+0000 is
        // refused by jansson too, so it is not among them).
        XCTAssertEqual(refusedValid, [], "valid texts left to jansson")
    }

    /// An empty element (`[1,,2]`, `[1,]`) is not a record: jansson refuses it.
    func testAnEmptyElementIsNotRead() {
        for text in ["", " ", "\n\t "] {
            let bytes = Array(text.utf8) + [0x5D]
            let read = bytes.withUnsafeBytes { VisitDocumentStream.readRecord(UnsafeRawBufferPointer(rebasing: $0[0..<(bytes.count - 1)]), index: 0) }
            XCTAssertNil(read, "\(Array(text.utf8))")
            XCTAssertFalse(readerSkips(Array(text.utf8)))
        }
    }

    /// The usual reader reads exactly the members `Visit.decode` reads.
    func testUsualMembersAreTheDecodedOnes() {
        XCTAssertEqual(Set(VisitDocumentStream.usualKeys.names), Set(Visit.memberNames))
        XCTAssertEqual(VisitDocumentStream.usualKeys.names.count, Visit.memberNames.count)
        XCTAssertEqual(VisitDocumentStream.usualKeys.names.last, "tasks")
        XCTAssertEqual(Array(VisitDocumentStream.usualKeys.names[11...13]),
                       ["houseOwnerLatitude", "houseOwnerLongitude", "visitTimeUsed"])
    }

    /// Texts near the edges of what jansson accepts.
    func testEdges() {
        let accepted = [
            #"-9223372036854775808"#, #"9223372036854775807"#, #"1e-400"#, #"-0"#, #"0.5e+3"#, #"1E2"#,
            #""\ud83d\ude00""#, #""é\u00e9\/\b\f\n\r\t""#, #"{"a":1,"a":2}"#, #"[ true , false , null ]"#,
            #""\uFFFF""#, "\"\u{10FFFF}\"",
        ]
        let refused = [
            #"9223372036854775808"#, #"-9223372036854775809"#, #"1e400"#, #"-1e400"#, #"01"#, #"1."#, #".1"#,
            #"+1"#, #"1e"#, #""\ud83d""#, #""\ude00""#, #""\ud83d\u0041""#, #""\u0000""#, #""\x""#,
            "\"\u{01}\"", #"{"a" 1}"#, #"[1,]"#, #"{"a":1,}"#, #"tru"#, #"nul"#, #"[1 2]"#, #""abc"#, "",
        ]
        for text in accepted {
            let bytes = Array(text.utf8)
            XCTAssertNotNil(jansson(bytes), text)
            XCTAssertEqual(reader(bytes), jansson(bytes), text)
        }
        for text in refused {
            XCTAssertNil(reader(Array(text.utf8)), text)
        }
        // Invalid UTF-8: overlong, a surrogate, past U+10FFFF, cut short, a stray continuation.
        for bytes: [UInt8] in [[0x22, 0xC0, 0xAF, 0x22], [0x22, 0xED, 0xA0, 0x80, 0x22], [0x22, 0xF4, 0x90, 0x80, 0x80, 0x22],
                               [0x22, 0xE2, 0x82, 0x22], [0x22, 0x80, 0x22], [0x22, 0xF5, 0x80, 0x80, 0x80, 0x22]] {
            XCTAssertNil(jansson(bytes))
            XCTAssertNil(reader(bytes), "\(bytes)")
        }
    }

    /// Records of every kind give the answer jansson's tree gives, the last of a repeated member
    /// included; nesting past the reader's depth is left to jansson.
    func testRecordsAsJansson() {
        let records = [
            #"{"startTimeUtc":"2021-05-13T15:35:00","houseOwnerFirstName":" Mette ","houseOwnerLastName":"R\u00e6v","tasks":[{"title":"Vask","timesInMinutes":45,"price":249.0},{"title":"x","x":[[{}]]},3],"visitTimeUsed":90,"houseOwnerLatitude":55.7,"houseOwnerLongitude":12}"#,
            #"{"startTimeUtc":"2021-05-13T15:35:00","startTimeUtc":"nope"}"#,
            #"{"startTimeUtc":"nope","startTimeUtc":"2021-05-13T15:35:00","visitState":"Done","visitState":null}"#,
            #"{"startTimeUtc":"2021-05-13T15:35:00","tasks":{"title":"x"}}"#,
            #"{"startTimeUtc":"2021-05-13T15:35:00","tasks":[{"timesInMinutes":1.5}]}"#,
            #"{"startTimeUtc":"2021-05-13T15:35:00","houseOwnerLatitude":"55"}"#,
            #"{"st\u0061rtTimeUtc":"2021-05-13T15:35:00","visitTimeUsed":1e2}"#,
            #"{}"#, #"[]"#, #"3"#, #"null"#,
            // Records the usual reader takes whole, and ones it leaves to the member reader.
            #"{"visitId":"a","homeBobEmployeeId":null,"startTimeUtc":"2021-05-13T15:35:00Z","houseOwnerFirstName":"A","houseOwnerLastName":null,"visitState":"Done","expectedTime":"15:00/17:00","houseOwnerAddress":" Vej 1 ","houseOwnerZip":"2500","houseOwnerCity":"Valby","houseOwnerMobilePhone":"+45","houseOwnerLatitude":-90,"houseOwnerLongitude":180.0,"visitTimeUsed":100000,"tasks":[{"title":"  ","timesInMinutes":0},{"title":null,"timesInMinutes":null,"x":{"y":[1,2]}},{}]}"#,
            #"{"startTimeUtc":"2021-05-13T15:35:00","tasks":[{"timesInMinutes":45.0}]}"#,
            #"{"startTimeUtc":"2021-05-13T15:35:00","tasks":[{"timesInMinutes":100001}]}"#,
            #"{"startTimeUtc":"2021-05-13T15:35:00","tasks":[{"title":"a","title":"b"}]}"#,
            #"{"startTimeUtc":"2021-05-13T15:35:00","tasks":[{"title":3}]}"#,
            #"{"startTimeUtc":"2021-05-13T15:35:00","tasks":[null]}"#,
            #"{"startTimeUtc":"2021-05-13T15:35:00","tasks":null,"visitTimeUsed":90.0}"#,
            #"{"startTimeUtc":"2021-05-13T15:35:00","visitTimeUsed":"90"}"#,
            #"{"startTimeUtc":"2021-05-13T15:35:00","visitTimeUsed":-1}"#,
            #"{"startTimeUtc":"2021-05-13T15:35:00","visitTimeUsed":[90]}"#,
            #"{"startTimeUtc":"2021-05-13T15:35:00","houseOwnerLatitude":90.000001}"#,
            #"{"startTimeUtc":"2021-05-13T15:35:00","houseOwnerLongitude":true}"#,
            #"{"startTimeUtc":"2021-05-13T15:35:00","visitId":"a","visitId":"b"}"#,
            #"{"startTimeUtc":"2021-05-13T15:35:00","visitId":7}"#,
            #"{"startTimeUtc":"2021-13-13T15:35:00"}"#,
            #"{"startTimeUtc":null}"#,
            #"{"start\u0054imeUtc":"2021-05-13T15:35:00","h\u006fuseOwnerCity":"\u00c5rhus"}"#,
            #"{"startTimeUtc":"2021-05-13T15:35:00","deep":"# + String(repeating: "[", count: 100) + String(repeating: "]", count: 100) + "}",
        ]
        for text in records {
            let bytes = Array(text.utf8)
            guard let tree = jansson(bytes) else { return XCTFail("jansson refuses \(text)") }
            let expected = Visit.decode(VisitDocumentStream.recordMembers(tree), index: 4)
            let read = bytes.withUnsafeBytes { VisitDocumentStream.readRecord($0, index: 4) }
            if text.contains("\"houseOwnerZip\":\"2500\"") || text.contains("u00c5rhus") {
                let usual = bytes.withUnsafeBufferPointer { buffer -> Visit? in
                    guard let base = buffer.baseAddress else { return nil }
                    var r = ElementReader(base, count: buffer.count)
                    return VisitDocumentStream.usualRecord(&r)
                }
                XCTAssertNotNil(usual, "read whole by the usual reader: \(text)")
            }
            if text.contains("deep") {
                XCTAssertNil(read, "nesting past the reader's depth is jansson's")
            } else {
                XCTAssertEqual(read, expected, text)
            }
        }
    }
}

extension VisitDocumentStream {
    /// `recordMembers` of a value already converted (the test parses with `JanssonParser`).
    static func recordMembers(_ value: JSON) -> JSON {
        guard case .object(let object) = value else { return .null }
        var picked = JSONObject()
        for name in Visit.memberNames {
            guard let member = object[name] else { continue }
            if name == "tasks", case .array(let tasks) = member {
                picked.appendDistinct(name, .array(tasks.map { task -> JSON in
                    guard case .object(let t) = task else { return task }
                    var p = JSONObject()
                    for n in Visit.taskMemberNames { if let v = t[n] { p.appendDistinct(n, v) } }
                    return .object(p)
                }))
            } else {
                picked.appendDistinct(name, member)
            }
        }
        return .object(picked)
    }
}
