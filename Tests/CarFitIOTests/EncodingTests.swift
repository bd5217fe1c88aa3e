import Foundation
import XCTest
@testable import CarFitCore
@testable import CarFitIO

/// The byte-level encoder and the fixed-width date and time texts it is fed.
final class EncodingTests: XCTestCase {
    /// A plain reference encoder for strings: one scalar at a time, no fast paths.
    private func reference(_ s: String) -> String {
        var out = "\""
        for scalar in s.unicodeScalars {
            switch scalar.value {
            case 0x22: out += "\\\""
            case 0x5C: out += "\\\\"
            case 0x0A: out += "\\n"
            case 0x0D: out += "\\r"
            case 0x09: out += "\\t"
            case 0x08: out += "\\b"
            case 0x0C: out += "\\f"
            case 0x00..<0x20: out += String(format: "\\u%04x", Int(scalar.value))
            case 0x2028: out += "\\u2028"
            case 0x2029: out += "\\u2029"
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out + "\""
    }

    func testStringsOfEveryLengthAndEscapePosition() {
        // Escapes and non-ASCII at every offset of strings long enough for the 8-byte scan.
        let specials = ["\"", "\\", "\n", "\u{01}", "\u{1F}", "\u{2028}", "\u{2029}", "é", "ø", "€", "\u{7F}", " "]
        for length in 0...40 {
            let plain = String(repeating: "a", count: length)
            XCTAssertEqual(JSON.string(plain).encoded(), reference(plain))
            for special in specials {
                for position in stride(from: 0, through: length, by: max(1, length / 7)) {
                    var text = plain
                    text.insert(contentsOf: special, at: text.index(text.startIndex, offsetBy: position))
                    XCTAssertEqual(JSON.string(text).encoded(), reference(text), "\(length) \(position) \(special.debugDescription)")
                }
            }
        }
        XCTAssertEqual(JSON.string("Søren Østergaard, Nørregade 12 \"st. tv\"").encoded(),
                       #""Søren Østergaard, Nørregade 12 \"st. tv\"""#)
    }

    func testIntegersAndNesting() {
        for i: Int64 in [0, 1, -1, 9, 10, -10, 978, 123_456_789, Int64.max, Int64.min] {
            XCTAssertEqual(JSON.int(i).encoded(), String(i))
        }
        let nested: JSON = .obj(["a": [1, [2, .obj(["b": "c"])], [], .obj([:])], "d": .null, "e": false])
        XCTAssertEqual(nested.encoded(), #"{"a":[1,[2,{"b":"c"}],[],{}],"d":null,"e":false}"#)
        XCTAssertEqual(nested.encodedBytes(), Array(nested.encoded().utf8))
    }

    func testLargeOutputGrowsAndEndsWithNUL() throws {
        let big: JSON = .array((0..<20_000).map { .obj(["i": .int(Int64($0)), "s": "Kgs. Lyngby æøå"]) })
        let text = big.encoded()
        XCTAssertTrue(text.hasPrefix(#"[{"i":0,"s":"Kgs. Lyngby æøå"},{"i":1,"#))
        var buffer = JSONBuffer(capacity: 1)
        big.encode(into: &buffer)
        let count = buffer.count
        XCTAssertEqual(count, text.utf8.count)
        let taken = buffer.takeCString()
        let c = try XCTUnwrap(taken)
        defer { free(c) }
        XCTAssertEqual(String(cString: c), text)
    }

    func testKeptEncodingIsTheSameTextAndIsDroppedOnChange() throws {
        let document: JSON = .obj(["month": 9, "days": [.obj(["date": "2020-09-01", "visits": 3])]])
        let kept = document.keepingEncoding()
        XCTAssertEqual(kept, document)
        XCTAssertEqual(kept.encoded(), document.encoded())
        XCTAssertEqual(JSON.array([kept, kept]).encoded(), "[\(document.encoded()),\(document.encoded())]")
        var object = try XCTUnwrap(kept.objectValue)
        object["month"] = 10
        XCTAssertEqual(JSON.object(object).encoded(), #"{"month":10,"days":[{"date":"2020-09-01","visits":3}]}"#)
        object["days"] = nil
        XCTAssertEqual(JSON.object(object).encoded(), #"{"month":10}"#)
        XCTAssertEqual(JSON.int(3).keepingEncoding(), .int(3))
    }

    func testDateAndTimeTexts() throws {
        XCTAssertEqual(CivilDate(year: 1, month: 1, day: 1)?.description, "0001-01-01")
        XCTAssertEqual(CivilDate(year: 987, month: 6, day: 5)?.description, "0987-06-05")
        XCTAssertEqual(CivilDate(year: 2020, month: 12, day: 31)?.description, "2020-12-31")
        XCTAssertEqual(Instant(milliseconds: 0).iso, "1970-01-01T00:00:00Z")
        XCTAssertEqual(Instant(milliseconds: -1).iso, "1969-12-31T23:59:59Z")
        XCTAssertEqual(try XCTUnwrap(Instant(iso: "2020-09-10T08:05:09.999Z")).iso, "2020-09-10T08:05:09Z")
        XCTAssertEqual(try XCTUnwrap(Instant(iso: "9999-12-31T23:59:59Z")).iso, "9999-12-31T23:59:59Z")
        XCTAssertEqual(try XCTUnwrap(Instant(iso: "0001-01-01T00:00:00Z")).iso, "0001-01-01T00:00:00Z")
        // Outside years 1-9999 the date part reads 0000-01-01, as before.
        XCTAssertEqual(Instant(milliseconds: Int64(CivilDate.minDayNumber - 1) * 86_400_000 + 3_600_000).iso, "0000-01-01T01:00:00Z")
        for minute in stride(from: 0, to: 1440, by: 7) {
            let h = minute / 60, m = minute % 60
            XCTAssertEqual(Clock.timeText(minuteOfDay: minute, hour24: true), String(format: "%02d:%02d", h, m))
            XCTAssertEqual(Clock.timeText(minuteOfDay: minute, hour24: false),
                           String(format: "%02d:%02d %@", h % 12 == 0 ? 12 : h % 12, m, h < 12 ? "AM" : "PM"))
        }
    }
}
