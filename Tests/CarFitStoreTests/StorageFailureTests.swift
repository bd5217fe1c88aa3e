import CSQLite
import CarFitCore
import Foundation
import XCTest
@testable import CarFitStore

/// Storage errors name the file and say what is in the way, in words a user can act on, with
/// none of the database engine's own vocabulary.
final class StorageFailureTests: XCTestCase {
    /// Opens `path` and returns the error it fails with.
    func openRefusal(_ path: String, busyTimeoutMs: Int32 = 10_000, file: StaticString = #filePath,
                     line: UInt = #line) -> CarFitError? {
        do {
            _ = try Database(path: path, busyTimeoutMs: busyTimeoutMs)
            XCTFail("\(path) opened", file: file, line: line)
            return nil
        } catch {
            return error
        }
    }

    /// The message is plain: no engine function names, codes or call names.
    func assertPlain(_ message: String, file: StaticString = #filePath, line: UInt = #line) {
        for jargon in ["sqlite3_", "SQLITE_", "(step)", "(prepare)", "(bind)", "The database failed", "errno"] {
            XCTAssertFalse(message.contains(jargon), "\(jargon) in: \(message)", file: file, line: line)
        }
    }

    func testAMissingDirectoryIsNamed() throws {
        let path = try TestDatabase.temporaryPath()
        defer { TestDatabase.remove(path) }
        let directory = URL(fileURLWithPath: path).deletingLastPathComponent().appendingPathComponent("no/such").path
        let error = try XCTUnwrap(openRefusal(directory + "/carfit.db"))
        XCTAssertEqual(error.status, .storage)
        XCTAssertEqual(error.field, "database")
        XCTAssertEqual(error.message, "Cannot open the database \"\(directory)/carfit.db\": the directory \"\(directory)\" does "
                       + "not exist. Create it, or choose a database path in an existing directory.")
        assertPlain(error.message)
    }

    func testADirectoryIsNotADatabaseFile() throws {
        let path = try TestDatabase.temporaryPath()
        defer { TestDatabase.remove(path) }
        let directory = URL(fileURLWithPath: path).deletingLastPathComponent().path
        let error = try XCTUnwrap(openRefusal(directory))
        XCTAssertEqual(error.field, "database")
        XCTAssertTrue(error.message.hasPrefix("Cannot open the database \"\(directory)\": that is a directory, not a file."),
                      error.message)
        assertPlain(error.message)
    }

    func testATextFileIsNotADatabaseAndIsLeftAlone() throws {
        let path = try TestDatabase.temporaryPath()
        defer { TestDatabase.remove(path) }
        let text = Data(String(repeating: "these are my notes, not a database\n", count: 200).utf8)
        try text.write(to: URL(fileURLWithPath: path))
        // A file without SQLite's header may be an encrypted database: opened without a key, a
        // key is asked for, and the file is left as it is.
        let error = try XCTUnwrap(openRefusal(path))
        XCTAssertEqual(error.status, .unauthorized)
        XCTAssertEqual(error.reason, "key_required")
        XCTAssertEqual(error.field, "encryption")
        XCTAssertEqual(error.message, "Cannot open the database \"\(path)\": the file is encrypted, or is not a libcarfit "
                       + "database. Open it with its key (encryption.key), or choose another path.")
        XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: path)), text)
        assertPlain(error.message)
    }

    /// Root may write any file, so a read-only file is tested as another user by the binding's
    /// tests; here the check that follows the open is driven with a read-only file system's
    /// answer instead.
    func testAReadOnlyFileOrDiskIsNamed() throws {
        let path = try TestDatabase.temporaryPath()
        defer { TestDatabase.remove(path) }
        XCTAssertEqual(StorageFailure.obstacle(path: path, systemError: EROFS), .readOnlyFileSystem)
        XCTAssertEqual(StorageFailure(path: path, code: SQLITE_READONLY, systemError: EROFS, message: "attempt to write a readonly database",
                                      busyTimeoutMs: 10).openError.message,
                       "Cannot open the database \"\(path)\": the file lies on a read-only file system. Choose a database path "
                       + "on a writable disk.")
        XCTAssertEqual(StorageFailure(path: path, reason: .readOnlyFile).openError.message,
                       "Cannot open the database \"\(path)\": the file is read-only. Make it writable (chmod u+w), or choose another path.")
        if getuid() != 0 {
            _ = try Database(path: path)
            XCTAssertEqual(chmod(path, 0o444), 0)
            let error = try XCTUnwrap(openRefusal(path))
            XCTAssertTrue(error.message.contains("the file is read-only"), error.message)
        }
    }

    func testAFullDiskChangesNothingAndSaysSo() throws {
        let path = try TestDatabase.temporaryPath()
        defer { TestDatabase.remove(path) }
        let db = try Database(path: path)
        let store = VisitStore(db)
        try store.replaceAll(with: [TestDatabase.visit("kept")])
        // The file may not grow past its present size: as full as a disk can be.
        let pages = try XCTUnwrap(try db.scalarInt("PRAGMA page_count"))
        _ = try db.query("PRAGMA max_page_count = \(pages + 2)")
        let many = (0..<5_000).map { TestDatabase.visit(String(repeating: "n", count: 200) + "\($0)", minutes: Int64($0)) }
        XCTAssertThrowsError(try store.replaceAll(with: many)) { error in
            let e = error as? CarFitError
            XCTAssertEqual(e?.status, .storage)
            XCTAssertNil(e?.field)
            XCTAssertEqual(e?.message, "Cannot use the database \"\(path)\": the disk holding it is full, so nothing was "
                           + "changed. Free some space, then try again.")
            self.assertPlain(e?.message ?? "")
        }
        XCTAssertEqual(try TestDatabase.visitNames(db), ["kept"])
    }

    func testALockHeldPastTheBusyTimeoutNamesTheWait() throws {
        let path = try TestDatabase.temporaryPath()
        defer { TestDatabase.remove(path) }
        let holder = try Database(path: path)
        let waiter = try Database(path: path, busyTimeoutMs: 50)
        let level = try holder.beginTransaction()
        defer { holder.rollback(level) }
        try holder.run("INSERT INTO meta (key, value) VALUES ('held', 'yes')")
        XCTAssertThrowsError(try waiter.transaction { () throws(CarFitError) in
            try waiter.run("INSERT INTO meta (key, value) VALUES ('waited', 'yes')")
        }) { error in
            let e = error as? CarFitError
            XCTAssertEqual(e?.status, .storage)
            XCTAssertEqual(e?.message, "Cannot use the database \"\(path)\": another program is writing to it and kept it "
                           + "locked for more than 50 ms. Try again once it has finished, or close the other program.")
        }
        XCTAssertEqual(StorageFailure.seconds(10_000), "10 s")
    }

    func testEveryKindOfFailureReadsPlainly() {
        let path = "/data/carfit.db"
        // Extended codes: the primary code in the low byte (sqlite3.h's macros are not imported).
        let ioWrite = SQLITE_IOERR | (3 << 8), ioRead = SQLITE_IOERR | (1 << 8), unique = SQLITE_CONSTRAINT | (8 << 8)
        let codes: [(Int32, Int32, String)] = [
            (SQLITE_CORRUPT, 0, "the file is damaged. Restore it from a backup"),
            (SQLITE_NOTADB, 0, "not a libcarfit database"),
            (SQLITE_FULL, 0, "the disk holding it is full"),
            (ioWrite, ENOSPC, "the disk holding it is full"),
            (ioRead, EIO, "reading or writing the file failed (Input/output error). Check the disk"),
            (SQLITE_BUSY, 0, "kept it locked for more than 10 s"),
            (SQLITE_NOMEM, 0, "there is not enough memory"),
            (unique, 0, "UNIQUE constraint failed: visits.key."),
        ]
        for (code, system, words) in codes {
            let message = StorageFailure(path: path, code: code, systemError: system,
                                         message: code == unique ? "UNIQUE constraint failed: visits.key" : "x",
                                         busyTimeoutMs: 10_000).error.message
            XCTAssertTrue(message.hasPrefix("Cannot use the database \"/data/carfit.db\": "), message)
            XCTAssertTrue(message.contains(words), "\(words) not in: \(message)")
            assertPlain(message)
        }
        XCTAssertEqual(StorageFailure(path: ":memory:", reason: .outOfMemory).error.message,
                       "Cannot use the in-memory database: there is not enough memory. Close other programs, then try again.")
        XCTAssertEqual(StorageFailure.directory(of: "carfit.db"), ".")
        XCTAssertEqual(StorageFailure.directory(of: "/carfit.db"), "/")
        XCTAssertEqual(StorageFailure.directory(of: "/a/b/carfit.db"), "/a/b")
    }
}
