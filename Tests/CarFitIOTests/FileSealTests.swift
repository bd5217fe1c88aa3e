import CarFitCore
import CarFitSystem
import Foundation
import XCTest
@testable import CarFitIO

/// Sealed files: the original bytes back under the key, chunk by chunk; nothing readable in the
/// file; another key, a cut or an altered chunk refused.
final class FileSealTests: XCTestCase {
    let key = FileSeal(key: Array(repeating: 0x42, count: 32), sealsNew: true)
    let other = FileSeal(key: Array(repeating: 0x43, count: 32), sealsNew: true)
    // Over two 64 KiB chunks, and marker text in every chunk.
    let original = Array(String(repeating: "Holtermann, Akademivej 15; ", count: 6000).utf8)

    func sealed(_ bytes: [UInt8]) throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("carfit-seal-\(UUID().uuidString)")
        let fd = open(url.path, O_RDWR | O_CREAT | O_EXCL, 0o600)
        XCTAssertGreaterThanOrEqual(fd, 0)
        defer { close(fd) }
        let writer = try XCTUnwrap(SealedWriter(fd: fd, seal: key))
        bytes.withUnsafeBytes { XCTAssertEqual(writer.write($0), 0) }
        XCTAssertEqual(writer.finish(), 0)
        return url
    }

    func read(_ url: URL, _ seal: FileSeal) throws(CarFitError) -> [UInt8] {
        let fd = open(url.path, O_RDONLY)
        defer { close(fd) }
        return try SealedReader(fd: fd, seal: seal).readAll(expected: 0)
    }

    func testTheOriginalBytesComeBackAndNoneAreInTheFile() throws {
        let url = try sealed(original)
        defer { try? FileManager.default.removeItem(at: url) }
        let stored = try Data(contentsOf: url)
        XCTAssertNil(stored.range(of: Data("Holtermann".utf8)))
        XCTAssertEqual(stored.count, 64 + original.count + 16 * 3)
        XCTAssertEqual(try read(url, key), original)
    }

    func testAnotherKeyACutAndAnAlterationAreRefused() throws {
        let url = try sealed(original)
        defer { try? FileManager.default.removeItem(at: url) }
        XCTAssertThrowsError(try read(url, other))
        XCTAssertThrowsError(try read(url, .plain))
        let whole = try Data(contentsOf: url)
        // Cut at the end of the first chunk: the last chunk never comes.
        try whole.prefix(64 + 65536 + 16).write(to: url)
        XCTAssertThrowsError(try read(url, key))
        var altered = whole
        altered[64 + 70_000] ^= 1
        try altered.write(to: url)
        XCTAssertThrowsError(try read(url, key))
    }

    func testAnEmptyFileSealsAsOneLastChunk() throws {
        let url = try sealed([])
        defer { try? FileManager.default.removeItem(at: url) }
        XCTAssertEqual(try Data(contentsOf: url).count, 64 + 16)
        XCTAssertEqual(try read(url, key), [])
    }
}
