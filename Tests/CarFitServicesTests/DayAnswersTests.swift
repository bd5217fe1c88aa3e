import XCTest
import CarFitCore
import CarFitServices
import CarFitStore

/// The day list's kept answers: served only under the stamp they were kept at, kept on the
/// second ask (a first ask only remembers the request), renewed for the day a host showed.
final class DayAnswersTests: XCTestCase {
    private func day(_ n: Int) throws -> CivilDate { try XCTUnwrap(CivilDate(year: 2020, month: 9, day: n)) }

    private func isFirst(_ l: DayAnswers.Lookup) -> Bool { if case .first = l { return true } else { return false } }
    private func isAgain(_ l: DayAnswers.Lookup) -> Bool { if case .again = l { return true } else { return false } }
    private func kept(_ l: DayAnswers.Lookup) -> [UInt8]? { if case .kept(let text) = l { return text } else { return nil } }

    func testAnswerIsServedOnlyUnderItsStamp() throws {
        let db = try Database(path: ":memory:")
        try db.execute("CREATE TABLE t (x)")
        let answers = DayAnswers()
        let key = DayAnswers.Key(dates: [try day(10)], employeeId: nil, hour24: true)
        let stamp = try db.changeStamp()
        XCTAssertTrue(isFirst(answers.lookup(key, at: stamp)))
        XCTAssertTrue(isAgain(answers.lookup(key, at: stamp)))
        answers.keep(key, at: stamp, text: Array("answer".utf8))
        XCTAssertEqual(kept(answers.lookup(key, at: stamp)), Array("answer".utf8))
        // Another request of the same day is another answer.
        let other = DayAnswers.Key(dates: [try day(10)], employeeId: "w1", hour24: true)
        XCTAssertTrue(isFirst(answers.lookup(other, at: stamp)))
        // A write changes the stamp: the kept text is not served.
        try db.run("INSERT INTO t VALUES (1)")
        let changed = try db.changeStamp()
        XCTAssertNotEqual(changed, stamp)
        XCTAssertTrue(isAgain(answers.lookup(key, at: changed)))
        answers.drop(key)
        XCTAssertTrue(isAgain(answers.lookup(key, at: stamp)))
    }

    func testShownDaysAreTheLatestSingleDayRequests() throws {
        let db = try Database(path: ":memory:")
        let stamp = try db.changeStamp()
        let answers = DayAnswers()
        let single = DayAnswers.Key(dates: [try day(10)], employeeId: nil, hour24: true)
        let several = DayAnswers.Key(dates: [try day(10), try day(11)], employeeId: nil, hour24: true)
        let washer = DayAnswers.Key(dates: [try day(10)], employeeId: "w1", hour24: true)
        for key in [single, several, washer] { _ = answers.lookup(key, at: stamp) }
        XCTAssertEqual(answers.shown(try day(10)), [washer, single])
        XCTAssertEqual(answers.shown(try day(10), limit: 1), [washer])
        XCTAssertEqual(answers.shown(try day(11)), [])
        // Only the latest requests are remembered.
        for n in 12..<(12 + 8) { _ = answers.lookup(DayAnswers.Key(dates: [try day(n)], employeeId: nil, hour24: true), at: stamp) }
        XCTAssertEqual(answers.shown(try day(10)), [])
        XCTAssertTrue(isFirst(answers.lookup(single, at: stamp)))
    }

    func testTooLargeAnAnswerIsNotKept() throws {
        let db = try Database(path: ":memory:")
        let stamp = try db.changeStamp()
        let answers = DayAnswers()
        let key = DayAnswers.Key(dates: [try day(10)], employeeId: nil, hour24: false)
        _ = answers.lookup(key, at: stamp)
        answers.keep(key, at: stamp, text: [UInt8](repeating: 0x20, count: (1 << 20) + 1))
        XCTAssertTrue(isAgain(answers.lookup(key, at: stamp)))
    }
}
