import XCTest
@testable import CarFitCore

final class UUIDv4Tests: XCTestCase {
    func testShapeVersionAndVariant() {
        var random = CarFitCore.SplitMix64(seed: 42)
        var seen = Set<String>()
        for _ in 0..<1_000 {
            let id = UUIDv4.make(using: &random)
            XCTAssertTrue(UUIDv4.isValid(id), id)
            XCTAssertTrue(seen.insert(id).inserted)
            // Foundation parses it and writes the same bits back.
            XCTAssertEqual(UUID(uuidString: id)?.uuidString.lowercased(), id)
        }
    }

    func testBitsComeFromTheGenerator() {
        struct Fixed: RandomNumberGenerator { var value: UInt64; mutating func next() -> UInt64 { value } }
        var zeros = Fixed(value: 0), ones = Fixed(value: .max)
        XCTAssertEqual(UUIDv4.make(using: &zeros), "00000000-0000-4000-8000-000000000000")
        XCTAssertEqual(UUIDv4.make(using: &ones), "ffffffff-ffff-4fff-bfff-ffffffffffff")
        var a = CarFitCore.SplitMix64(seed: 3), b = CarFitCore.SplitMix64(seed: 3)
        XCTAssertEqual(UUIDv4.make(using: &a), UUIDv4.make(using: &b))
    }

    func testValidation() {
        for text in ["", "00000000-0000-4000-8000-00000000000", "00000000-0000-1000-8000-000000000000",
                     "00000000-0000-4000-c000-000000000000", "00000000-0000-4000-8000-00000000000G",
                     "00000000-0000-4000-8000-00000000000A", "000000000000-4000-8000-0000000000000"] {
            XCTAssertFalse(UUIDv4.isValid(text), text)
        }
    }
}
