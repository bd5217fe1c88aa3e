import XCTest
@testable import CarFitIO

/// The attachments' SHA-256: FIPS 180-2's known answers, fed in chunks of every size.
final class SHA256Tests: XCTestCase {
    private func digest(_ bytes: [UInt8], chunk: Int) -> String? {
        let hash = SHA256()
        var i = 0
        repeat {
            let end = min(bytes.count, i + chunk)
            hash.update(Array(bytes[i..<end]))
            i = end
        } while i < bytes.count
        return hash.finish()
    }

    func testKnownAnswers() {
        let vectors: [(String, String)] = [
            ("", "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"),
            ("abc", "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"),
            ("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq",
             "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1"),
        ]
        for (text, hex) in vectors {
            for chunk in [1, 3, 63, 64, 65, 1000] { XCTAssertEqual(digest(Array(text.utf8), chunk: chunk), hex, "\(text) / \(chunk)") }
        }
        XCTAssertEqual(digest(Array(repeating: 0x61, count: 1_000_000), chunk: 4096),
                       "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0")
    }

    func testFinishIsOnce() {
        let hash = SHA256()
        hash.update(Array("abc".utf8))
        XCTAssertNotNil(hash.finish())
        XCTAssertNil(hash.finish())
    }
}
