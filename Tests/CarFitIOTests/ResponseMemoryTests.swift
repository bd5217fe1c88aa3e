import Dispatch
import XCTest
@testable import CarFitIO

#if canImport(Glibc)
import Glibc
#endif

/// The memory of a large answer freed by the host holds the next large answer.
final class ResponseMemoryTests: XCTestCase {
    override func setUp() { ResponseMemory.release() }
    override func tearDown() { ResponseMemory.release() }

    /// A finished answer's text, as the host gets it.
    private func answer(capacity: Int, text: String) throws -> UnsafeMutablePointer<CChar> {
        var buffer = JSONBuffer(capacity: capacity)
        buffer.appendString(text)
        let taken = buffer.takeCString()
        return try XCTUnwrap(taken)
    }

    func testAFreedLargeAnswerHoldsTheNextOne() throws {
        let first = try answer(capacity: 1 << 18, text: "first")
        let address = UnsafeMutableRawPointer(first)
        ResponseMemory.recycle(first)
        let second = try answer(capacity: 1 << 18, text: "second")
        XCTAssertEqual(UnsafeMutableRawPointer(second), address)
        XCTAssertEqual(String(cString: second), "\"second\"")
        // Taken: the next large answer gets memory of its own.
        let third = try answer(capacity: 1 << 18, text: "third")
        XCTAssertNotEqual(UnsafeMutableRawPointer(third), address)
        ResponseMemory.recycle(second)
        ResponseMemory.recycle(third)
    }

    func testAKeptBlockTooSmallForTheAnswerIsNotUsed() throws {
        let small = try answer(capacity: 1 << 17, text: "small")
        ResponseMemory.recycle(small)
        let large = try answer(capacity: 1 << 20, text: "large")
        XCTAssertEqual(String(cString: large), "\"large\"")
        XCTAssertNil(ResponseMemory.take(atLeast: 1), "the small block was freed, not kept")
        ResponseMemory.recycle(large)
        let kept = try XCTUnwrap(ResponseMemory.take(atLeast: 1 << 20))
        XCTAssertEqual(kept.block, UnsafeMutableRawPointer(large))
        XCTAssertGreaterThanOrEqual(kept.capacity, 1 << 20)
        free(kept.block)
    }

    func testSmallAndHugeBlocksAreFreedNotKept() throws {
        for size in [16, ResponseMemory.smallest / 2, ResponseMemory.largest * 2] {
            let block = try XCTUnwrap(malloc(size))
            ResponseMemory.recycle(block)
            XCTAssertNil(ResponseMemory.take(atLeast: 1), "\(size)")
        }
        ResponseMemory.recycle(nil)
        XCTAssertNil(ResponseMemory.take(atLeast: 1))
    }

    /// Threads answering and freeing at once: every answer is whole (run under the sanitizers
    /// too, which would see a block used by two at once or freed twice).
    func testThreadsAnsweringAtOnceEachGetTheirOwnMemory() {
        let text = String(repeating: "x", count: 100_000)
        DispatchQueue.concurrentPerform(iterations: 8) { thread in
            for round in 0..<200 {
                let expected = "\(thread)-\(round)-" + text
                var buffer = JSONBuffer(capacity: 1 << 17)
                buffer.appendString(expected)
                guard let taken = buffer.takeCString() else { return XCTFail("no answer") }
                XCTAssertEqual(String(cString: taken), "\"\(expected)\"")
                ResponseMemory.recycle(taken)
            }
        }
    }
}
