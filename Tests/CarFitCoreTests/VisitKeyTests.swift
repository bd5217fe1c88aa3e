import XCTest
@testable import CarFitCore

final class VisitKeyTests: XCTestCase {
    func instant(_ iso: String) -> Instant {
        guard let i = Instant(iso: iso) else { XCTFail(iso); return Instant(milliseconds: 0) }
        return i
    }

    /// The sample's (visitId, startTimeUtc) pairs in snapshot order.
    func samplePairs() throws -> [(visitId: String?, start: Instant)] {
        let url = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .appendingPathComponent("../../examples/data/carfit.json").standardized
        let any = try JSONSerialization.jsonObject(with: Data(contentsOf: url))
        let data = try XCTUnwrap((any as? [String: Any])?["data"] as? [[String: Any]])
        return data.map { ($0["visitId"] as? String, instant(($0["startTimeUtc"] as? String) ?? "")) }
    }

    func testSampleKeysAreUniqueAndRepetitionsCount() throws {
        let pairs = try samplePairs()
        let keys = VisitKey.assign(pairs)
        XCTAssertEqual(keys.count, pairs.count)
        XCTAssertEqual(Set(keys.map(\.text)).count, pairs.count)
        // The sample repeats a pair: its second record is repetition 1.
        XCTAssertEqual(keys.filter { $0.repetition == 1 }.count, 2)
        XCTAssertEqual(keys.filter { $0.repetition > 1 }.count, 0)
    }

    func testTheDeepLinkIsOnePathSegmentThatDecodesToTheKey() throws {
        let key = VisitKey(visitId: "a!$&'()*+,;=:@/?#[] é~%|z", start: instant("2020-09-10T09:30:00Z"), repetition: 2)
        // Only A-Z a-z 0-9 - . _ ~ stay as they are: the sub-delimiters, ":" and "@" too are
        // escaped, as are the key's own escapes ("%7C" becomes "%257C").
        XCTAssertEqual(key.deepLink,
                       "carfit://visit/a%21%24%26%27%28%29%2A%2B%2C%3B%3D%3A%40%2F%3F%23%5B%5D%20%C3%A9%257E%2525%257Cz"
                           + "%7C1599730200000%7C2")
        let segment = try XCTUnwrap(key.deepLink.split(separator: "/", omittingEmptySubsequences: false).last)
        XCTAssertEqual(segment.removingPercentEncoding, key.text)
        XCTAssertEqual(VisitKey(visitId: nil, start: Instant(milliseconds: -1)).deepLink, "carfit://visit/~%7C-1%7C0")
    }

    func testTheSameVisitGetsTheSameKeyInEverySnapshot() throws {
        let pairs = try samplePairs()
        let before = VisitKey.assign(pairs)
        // A later snapshot: other visits removed and added around them, same relative order of
        // each pair's repetitions.
        var later = pairs
        later.remove(at: 0)
        later.insert((visitId: "new", start: instant("2020-09-12T10:00:00Z")), at: 2)
        later.append((visitId: "other", start: instant("2020-09-13T10:00:00Z")))
        let after = Set(VisitKey.assign(later).map(\.text))
        for key in before.dropFirst() { XCTAssertTrue(after.contains(key.text), key.text) }
        XCTAssertFalse(after.contains(before[0].text))
    }

    func testStartSpellingsOfOneInstantGiveOneKey() {
        let a = VisitKey(visitId: "v", start: instant("2020-09-10T08:05:00"))
        let b = VisitKey(visitId: "v", start: instant("2020-09-10T10:05:00+02:00"))
        XCTAssertEqual(a.text, b.text)
        XCTAssertEqual(a.text, "v|1599725100000|0")
    }

    func testTextRoundTripsForAwkwardIds() {
        let start = Instant(milliseconds: -62_135_596_800_000)  // 0001-01-01
        for id in [nil, "", "~", "%", "a|b", "|", "%7C", "~|0|0", "æøå 🚗", "a\u{0}b", "\u{0600}", "x\u{0600}", "\u{301}", "e\u{301}", String(repeating: "x", count: 1_000)] {
            for repetition in [0, 1, 12, Int.max] {
                let key = VisitKey(visitId: id, start: start, repetition: repetition)
                XCTAssertEqual(VisitKey(text: key.text), key, key.text)
            }
        }
        XCTAssertEqual(VisitKey(visitId: nil, start: Instant(milliseconds: 5)).text, "~|5|0")
        XCTAssertEqual(VisitKey(visitId: "~", start: Instant(milliseconds: 5)).text, "%7E|5|0")
        XCTAssertNotEqual(VisitKey(visitId: nil, start: start).text, VisitKey(visitId: "", start: start).text)
        // Each normalisation of an id reads back as itself, scalar for scalar (the store
        // compares ids byte by byte).
        XCTAssertEqual(VisitKey(text: "e\u{301}|5|0")?.visitId.map { Array($0.unicodeScalars) }, ["e", "\u{301}"])
        XCTAssertEqual(VisitKey(text: "\u{e9}|5|0")?.visitId.map { Array($0.unicodeScalars) }, ["\u{e9}"])
    }

    func testDistinctKeysNeverShareText() {
        // Ids built from the separator and escape characters cannot collide.
        var random = CarFitCore.SplitMix64(seed: 99)
        let alphabet: [Character] = ["a", "|", "%", "~", "7", "C", "E", "2", "5", "0"]
        var texts: [String: VisitKey] = [:]
        for _ in 0..<5_000 {
            let length = random.below(6)
            let id = random.below(8) == 0 ? nil : String((0..<length).map { _ in alphabet[random.below(alphabet.count)] })
            let key = VisitKey(visitId: id, start: Instant(milliseconds: Int64(random.below(3)) - 1), repetition: random.below(3))
            if let other = texts[key.text] { XCTAssertEqual(other, key) }
            texts[key.text] = key
        }
    }

    func testTextThatNoKeyHasIsRejected() {
        for text in ["", "v", "v|1", "v|1|", "v||0", "v|1|0|0", "v|x|0", "v|1|-1", "v|1|+1", "v|01|0", "v|1|00",
                     "v|-0|0", "a%7|1|0", "a%41|1|0", "a%7c|1|0", "~~|1|0", "v|99999999999999999999|0",
                     "v|1|99999999999999999999", String(repeating: "v", count: 5_000) + "|1|0"] {
            XCTAssertNil(VisitKey(text: text), text)
        }
    }
}
