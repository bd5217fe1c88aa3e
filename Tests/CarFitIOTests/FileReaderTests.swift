import Foundation
import XCTest
@testable import CarFitCore
@testable import CarFitIO

/// A visits document read from a file through a window that moves along it imports exactly
/// as the same bytes in memory, wherever the window's edges fall; a file that ends early is
/// declined, never read past its end.
final class FileReaderTests: XCTestCase {
    /// Collects the records a streamed import writes.
    final class Collector: RecordSink {
        var records: [String] = []
        var committed = false
        var rolledBack = false
        func append(_ record: Visit) throws(CarFitError) { records.append("\(record)") }
        func commit() throws(CarFitError) { committed = true }
        func rollback() { rolledBack = true }
    }

    var directory: URL!

    override func setUpWithError() throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("carfit-filereader-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    }

    override func tearDownWithError() throws {
        try? FileManager.default.removeItem(at: directory)
    }

    var sample: Data {
        get throws {
            let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
                .deletingLastPathComponent()
            return try Data(contentsOf: root.appendingPathComponent("examples/data/carfit.json"))
        }
    }

    func fromMemory(_ text: Data, threads: Int) throws -> (StreamedImport, Collector) {
        let sink = Collector()
        let outcome = try text.withUnsafeBytes { bytes in
            try VisitDocumentStream.importVisits(bytes, threads: threads, begin: { () throws(CarFitError) in sink })
        }
        return (outcome, sink)
    }

    func fromFile(_ text: Data, threads: Int, chunk: Int) throws -> (StreamedImport, Collector) {
        let path = directory.appendingPathComponent("visits.json").path
        try text.write(to: URL(fileURLWithPath: path))
        let file = try FileReader(path: path, field: "file", chunkBytes: chunk)
        let sink = Collector()
        let outcome = try VisitDocumentStream.importVisits(file: file, threads: threads, begin: { () throws(CarFitError) in sink })
        return (outcome, sink)
    }

    func testEveryWindowSizeImportsAsFromMemory() throws {
        // Members before and after the array (a number and a literal at the very end) put a
        // window's edge inside every kind of token for some chunk size.
        var text = try sample
        let object = try XCTUnwrap(try JSONSerialization.jsonObject(with: text) as? [String: Any])
        XCTAssertNotNil(object["data"])
        text = Data(#"{"before": {"x": [1, 2.5, "\"quoted\\"]}, "#.utf8) + text.dropFirst()
        let close = try XCTUnwrap(text.lastIndex(of: UInt8(ascii: "}")))
        text = Data(text[text.startIndex..<close]) + Data(#", "count": 123456, "ok": true}"#.utf8)
        let (expected, memory) = try fromMemory(text, threads: 0)
        guard case .imported(let response) = expected else { return XCTFail("the sample is declined in memory") }
        XCTAssertEqual(memory.records.count, 7)
        for chunk in [1, 2, 3, 5, 7, 13, 64, 1000, 1 << 20] {
            for threads in [0, 2] {
                let (outcome, file) = try fromFile(text, threads: threads, chunk: chunk)
                guard case .imported(let got) = outcome else { return XCTFail("declined with chunk \(chunk)") }
                XCTAssertEqual(got, response, "chunk \(chunk)")
                XCTAssertEqual(file.records, memory.records, "chunk \(chunk)")
                XCTAssertTrue(file.committed)
            }
        }
    }

    func testAFileThatEndsEarlyIsDeclinedAndRolledBack() throws {
        let text = try sample
        for cut in [text.count / 3, text.count / 2, text.count - 2] {
            let (outcome, sink) = try fromFile(text.prefix(cut), threads: 2, chunk: 256)
            guard case .declined = outcome else { return XCTFail("a document cut at \(cut) was imported") }
            XCTAssertFalse(sink.committed)
        }
    }

    func testAFileTruncatedAfterOpeningIsReadAsItIsNow() throws {
        let path = directory.appendingPathComponent("visits.json").path
        let text = try sample
        try text.write(to: URL(fileURLWithPath: path))
        let file = try FileReader(path: path, field: "file", chunkBytes: 64)
        XCTAssertEqual(file.count, text.count)
        XCTAssertEqual(truncate(path, off_t(text.count / 2)), 0)
        let sink = Collector()
        let outcome = try VisitDocumentStream.importVisits(file: file, threads: 0, begin: { () throws(CarFitError) in sink })
        guard case .declined = outcome else { return XCTFail("a truncated file was imported") }
        XCTAssertNil(file.failure)
        XCTAssertThrowsError(try JanssonParser.object(file: file, what: "visits file")) { error in
            XCTAssertEqual((error as? CarFitError)?.status, .badJSON)
        }
    }
}
