import CarFitCore
import Foundation
import XCTest
@testable import CarFitStore

/// The encrypting VFS: with a key no file holds stored text or SQLite's header, a wrong or
/// missing key is refused before any file changes, a damaged block is an error, and a plaintext
/// database is encrypted in place.
final class DatabaseCryptTests: XCTestCase {
    let key = EncryptionKey(hex: String(repeating: "3c", count: 32))
    let otherKey = EncryptionKey(hex: String(repeating: "A7", count: 32))
    let marker = "Holtermann-Akademivej"

    func directoryBytes(_ path: String) throws -> [String: Data] {
        let directory = URL(fileURLWithPath: path).deletingLastPathComponent()
        var found: [String: Data] = [:]
        for name in try FileManager.default.contentsOfDirectory(atPath: directory.path) {
            found[name] = try Data(contentsOf: directory.appendingPathComponent(name))
        }
        return found
    }

    func assertNoLeak(_ path: String, file: StaticString = #filePath, line: UInt = #line) throws {
        for (name, data) in try directoryBytes(path) {
            XCTAssertNil(data.range(of: Data(marker.utf8)), "\(name) holds the marker", file: file, line: line)
            XCTAssertNil(data.range(of: Data("SQLite format 3\u{0}".utf8)), "\(name) holds SQLite's header", file: file, line: line)
        }
    }

    func fill(_ db: Database, rows: Int = 300) throws {
        try db.execute("CREATE TABLE IF NOT EXISTS notes(id INTEGER PRIMARY KEY, body TEXT)")
        try db.transaction { () throws(CarFitError) in
            for i in 0..<rows { try db.run("INSERT INTO notes(body) VALUES (?)", [.text("\(marker) \(i)")]) }
        }
    }

    func testKeysParseInEitherCaseAndNothingElse() {
        XCTAssertNotNil(key)
        XCTAssertEqual(EncryptionKey(hex: String(repeating: "ab", count: 32)), EncryptionKey(hex: String(repeating: "AB", count: 32)))
        XCTAssertNil(EncryptionKey(hex: String(repeating: "ab", count: 31)))
        XCTAssertNil(EncryptionKey(hex: String(repeating: "g0", count: 32)))
        XCTAssertFalse("\(String(describing: key))".contains("3c3c"))
    }

    func testAnEncryptedDatabaseHoldsNoTextAndReadsBack() throws {
        let path = try TestDatabase.temporaryPath()
        defer { TestDatabase.remove(path) }
        let db = try Database(path: path, key: key)
        try fill(db)
        try assertNoLeak(path)  // while open: the WAL holds the rows
        db.close()
        try assertNoLeak(path)
        let again = try Database(path: path, key: key)
        XCTAssertEqual(try again.scalarInt("SELECT count(*) FROM notes WHERE body LIKE ?", [.text("\(marker)%")]), 300)
        again.close()
        XCTAssertEqual(DatabaseCrypt.probe(path, key: key), .encrypted(keyMatches: true))
        XCTAssertEqual(DatabaseCrypt.probe(path, key: otherKey), .encrypted(keyMatches: false))
    }

    func testTheSameRowsWithoutAKeyAreVisible() throws {
        // The leak check above can fail.
        let path = try TestDatabase.temporaryPath()
        defer { TestDatabase.remove(path) }
        let db = try Database(path: path)
        try fill(db)
        db.close()
        XCTAssertNotNil(try directoryBytes(path)["carfit.db"]?.range(of: Data(marker.utf8)))
    }

    func testWrongAndMissingKeysAreRefusedWithoutTouchingFiles() throws {
        let path = try TestDatabase.temporaryPath()
        defer { TestDatabase.remove(path) }
        let db = try Database(path: path, key: key)
        try fill(db)
        db.close()
        let before = try directoryBytes(path)
        for (given, reason) in [(otherKey, "wrong_key"), (nil, "key_required")] {
            do throws(CarFitError) {
                _ = try Database(path: path, key: given)
                XCTFail("opened with \(reason)")
            } catch {
                XCTAssertEqual(error.status, .unauthorized)
                XCTAssertEqual(error.reason, reason)
            }
        }
        XCTAssertEqual(try directoryBytes(path), before)
    }

    func testDamagedBlocksAreAnErrorNotWrongData() throws {
        let path = try TestDatabase.temporaryPath()
        defer { TestDatabase.remove(path) }
        let db = try Database(path: path, key: key)
        try fill(db, rows: 2000)
        db.close()
        var bytes = try Data(contentsOf: URL(fileURLWithPath: path))
        let blocks = (bytes.count - 64) / 4124
        XCTAssertGreaterThan(blocks, 3)
        for block in 1..<blocks { bytes[64 + block * 4124 + 100] ^= 0x01 }  // inside each block's ciphertext
        try bytes.write(to: URL(fileURLWithPath: path))
        do throws(CarFitError) {
            let damaged = try Database(path: path, key: key)
            defer { damaged.close() }
            _ = try damaged.query("SELECT body FROM notes")
            XCTFail("damaged blocks were read")
        } catch {
            XCTAssertEqual(error.status, .storage)
        }
    }

    func testAPlaintextDatabaseIsEncryptedInPlaceAtOpen() throws {
        let path = try TestDatabase.temporaryPath()
        defer { TestDatabase.remove(path) }
        let plain = try Database(path: path)
        try fill(plain)
        plain.close()
        XCTAssertEqual(DatabaseCrypt.probe(path, key: key), .plaintext)
        let db = try Database(path: path, key: key)
        XCTAssertEqual(try db.scalarInt("SELECT count(*) FROM notes"), 300)
        db.close()
        try assertNoLeak(path)
        XCTAssertEqual(DatabaseCrypt.probe(path, key: key), .encrypted(keyMatches: true))
        XCTAssertFalse(FileManager.default.fileExists(atPath: DatabaseCrypt.pendingName(path)))
    }

    func testAnInterruptedEncryptionStartsOverFromThePlaintext() throws {
        let path = try TestDatabase.temporaryPath()
        defer { TestDatabase.remove(path) }
        let plain = try Database(path: path)
        try fill(plain)
        plain.close()
        // What a crash before the rename leaves: a partial copy beside the intact plaintext.
        try Data(repeating: 0x5a, count: 10_000).write(to: URL(fileURLWithPath: DatabaseCrypt.pendingName(path)))
        let db = try Database(path: path, key: key)
        XCTAssertEqual(try db.scalarInt("SELECT count(*) FROM notes"), 300)
        db.close()
        try assertNoLeak(path)
        XCTAssertFalse(FileManager.default.fileExists(atPath: DatabaseCrypt.pendingName(path)))
    }
}
