import CarFitHTTP
import Foundation
import XCTest

/// Runs `body`, which must fail with `reason`; returns the error for further checks.
@discardableResult
func assertFails<T>(_ reason: HTTPError.Reason, file: StaticString = #filePath, line: UInt = #line,
                    _ body: () throws(HTTPError) -> T) -> HTTPError? {
    do throws(HTTPError) {
        let value = try body()
        XCTFail("expected \(reason.rawValue), got \(summary(value))", file: file, line: line)
        return nil
    } catch {
        XCTAssertEqual(error.reason, reason, "\(error.message)", file: file, line: line)
        XCTAssertFalse(error.message.isEmpty, file: file, line: line)
        return error
    }
}

/// A short description of an answer (never a whole body, which may be huge).
func summary(_ value: Any) -> String {
    switch value {
    case let answer as HTTPResponseBody: "status \(answer.response.status), \(answer.body.count) body bytes"
    case let response as HTTPResponse: "status \(response.status), \(response.bodyBytes) body bytes"
    case let download as HTTPDownload: "status \(download.response.status), \(download.response.bodyBytes) bytes in a file"
    default: String(describing: type(of: value))
    }
}

/// Seconds since `start` (a `DispatchTime`).
func secondsSince(_ start: DispatchTime) -> Double {
    Double(DispatchTime.now().uptimeNanoseconds - start.uptimeNanoseconds) / 1e9
}

/// Values gathered from several threads.
final class Collected<Element>: @unchecked Sendable {
    private let lock = NSLock()
    private var items: [Element] = []

    func append(_ item: Element) {
        lock.lock()
        items.append(item)
        lock.unlock()
    }

    var values: [Element] {
        lock.lock()
        defer { lock.unlock() }
        return items
    }
}
