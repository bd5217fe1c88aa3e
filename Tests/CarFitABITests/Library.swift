import Foundation
import XCTest
#if canImport(Glibc)
import Glibc
#endif

/// The built libcarfit.so, loaded with dlopen and driven exactly as a C host drives it.
///
/// Found through `CARFIT_LIBRARY` (a path), else next to the test bundle (`.build/<config>/`).
final class Library: @unchecked Sendable {
    typealias ResponseOut = UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>
    typealias OperationFn = @convention(c) (OpaquePointer?, UnsafePointer<CChar>?, ResponseOut?) -> Int32
    typealias OpenFn = @convention(c) (UnsafePointer<CChar>?, UnsafeMutablePointer<OpaquePointer?>?, ResponseOut?) -> Int32
    typealias CallFn = @convention(c) (OpaquePointer?, UnsafePointer<CChar>?, UnsafePointer<CChar>?, ResponseOut?) -> Int32
    typealias CloseFn = @convention(c) (OpaquePointer?) -> Void
    typealias FreeFn = @convention(c) (UnsafeMutableRawPointer?) -> Void
    typealias VersionFn = @convention(c) () -> UnsafePointer<CChar>?
    typealias StatusNameFn = @convention(c) (Int32) -> UnsafePointer<CChar>?

    static let shared: Library? = Library()
    nonisolated(unsafe) static var loadError = ""

    let path: String
    let handle: UnsafeMutableRawPointer
    let openFn: OpenFn
    let callFn: CallFn
    let closeFn: CloseFn
    let freeFn: FreeFn
    let versionFn: VersionFn
    let statusNameFn: StatusNameFn

    private init?() {
        guard let path = Library.locate() else {
            Library.loadError = "libcarfit.so not found: build it (swift build -c release) or set CARFIT_LIBRARY"
            return nil
        }
        guard let handle = dlopen(path, RTLD_NOW | RTLD_LOCAL) else {
            Library.loadError = "dlopen failed: " + String(cString: dlerror())
            return nil
        }
        self.path = path
        self.handle = handle
        func sym<T>(_ name: String, _: T.Type) -> T? {
            guard let p = dlsym(handle, name) else { return nil }
            return unsafeBitCast(p, to: T.self)
        }
        guard let open = sym("carfit_open", OpenFn.self), let call = sym("carfit_call", CallFn.self),
              let close = sym("carfit_close", CloseFn.self), let free = sym("carfit_free", FreeFn.self),
              let version = sym("carfit_version", VersionFn.self),
              let statusName = sym("carfit_status_name", StatusNameFn.self) else {
            Library.loadError = "\(path) does not export the carfit_open … carfit_status_name functions"
            return nil
        }
        openFn = open
        callFn = call
        closeFn = close
        freeFn = free
        versionFn = version
        statusNameFn = statusName
    }

    static func locate() -> String? {
        if let env = ProcessInfo.processInfo.environment["CARFIT_LIBRARY"], !env.isEmpty { return env }
        var exe = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath()
        while exe.path != "/" {
            let candidate = exe.appendingPathComponent("libcarfit.so").path
            if FileManager.default.fileExists(atPath: candidate) { return candidate }
            exe = exe.deletingLastPathComponent()
        }
        return nil
    }

    /// A named export of the operation shape.
    func operation(_ name: String) -> OperationFn? {
        guard let p = dlsym(handle, name) else { return nil }
        return unsafeBitCast(p, to: OperationFn.self)
    }

    func take(_ p: UnsafeMutablePointer<CChar>?) -> String? {
        guard let p else { return nil }
        defer { freeFn(p) }
        return String(cString: p)
    }
}

/// A response: status, text and the decoded object (decoded by Foundation, independently of
/// the library's own encoder).
struct Reply {
    var status: Int32
    var text: String?
    var object: [String: Any]

    init(_ status: Int32, _ text: String?) {
        self.status = status
        self.text = text
        let data = Data((text ?? "").utf8)
        object = (try? JSONSerialization.jsonObject(with: data)) as? [String: Any] ?? [:]
    }

    var error: [String: Any] { object["error"] as? [String: Any] ?? [:] }
    var code: String? { error["code"] as? String }
    var field: String? { error["field"] as? String }
}

/// An open core for one test.
final class TestCore: @unchecked Sendable {
    let lib: Library
    private(set) var handle: OpaquePointer?

    init(_ lib: Library, config: String = #"{"now": "2020-09-10T07:00:00Z", "timeZone": "Europe/Copenhagen"}"#) throws {
        self.lib = lib
        var core: OpaquePointer?
        var response: UnsafeMutablePointer<CChar>?
        let status = lib.openFn(config, &core, &response)
        let text = lib.take(response)
        guard status == 0, let core else { throw NSError(domain: "carfit_open", code: Int(status), userInfo: ["response": text ?? ""]) }
        handle = core
    }

    deinit { close() }

    func close() {
        lib.closeFn(handle)
        handle = nil
    }

    @discardableResult
    func call(_ method: String, _ request: String?) -> Reply {
        var response: UnsafeMutablePointer<CChar>?
        let status = lib.callFn(handle, method, request, &response)
        return Reply(status, lib.take(response))
    }

    /// Calls with a raw C string request (bytes a Swift String could not carry).
    @discardableResult
    func call(_ method: String, raw request: UnsafePointer<CChar>) -> Reply {
        var response: UnsafeMutablePointer<CChar>?
        let status = lib.callFn(handle, method, request, &response)
        return Reply(status, lib.take(response))
    }

    /// Calls the named export `carfit_<area>_<verb>` directly.
    @discardableResult
    func export(_ symbol: String, _ request: String?) -> Reply {
        guard let fn = lib.operation(symbol) else { return Reply(-1, nil) }
        var response: UnsafeMutablePointer<CChar>?
        let status = fn(handle, request, &response)
        return Reply(status, lib.take(response))
    }
}

/// Files of the repository, located from this source file.
enum Repo {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    static func text(_ relative: String) throws -> String {
        try String(contentsOf: root.appendingPathComponent(relative), encoding: .utf8)
    }
    static var fixtures: URL { root.appendingPathComponent("examples/data") }
}

class ABITestCase: XCTestCase {
    private var loaded: Library?

    /// Loads the library before each test. Not built (no `CARFIT_LIBRARY` and no libcarfit.so
    /// next to the test bundle): the test is skipped with a message saying how to build it, so
    /// the other suites still run. Named by `CARFIT_LIBRARY` (as `scripts/test` does) but not
    /// loadable: the test fails, since a run that asked for the ABI suite must not pass without it.
    override func setUpWithError() throws {
        try super.setUpWithError()
        if let lib = Library.shared {
            loaded = lib
            return
        }
        let requested = !(ProcessInfo.processInfo.environment["CARFIT_LIBRARY"] ?? "").isEmpty
        if requested { throw LibraryUnavailable(message: Library.loadError) }
        throw XCTSkip("ABI tests skipped: \(Library.loadError)")
    }

    /// The loaded library (set by `setUpWithError`, which skips or fails the test without it).
    var lib: Library {
        guard let loaded else { preconditionFailure("ABITestCase.setUpWithError did not run: \(Library.loadError)") }
        return loaded
    }
}

/// The library named by `CARFIT_LIBRARY` could not be loaded.
struct LibraryUnavailable: Error, CustomStringConvertible {
    var message: String
    var description: String { "CARFIT_LIBRARY is set but the library cannot be used: \(message)" }
}
