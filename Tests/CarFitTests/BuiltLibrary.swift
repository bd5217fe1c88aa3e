import Foundation
import XCTest
#if canImport(Glibc)
import Glibc
#endif

/// The built libcarfit.so opened with dlopen, as a C host opens it: `CARFIT_LIBRARY`, else the
/// first libcarfit.so in a folder above the test bundle. Missing, the test is skipped.
struct BuiltLibrary {
    typealias ResponseOut = UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>
    typealias OperationFn = @convention(c) (OpaquePointer?, UnsafePointer<CChar>?, ResponseOut?) -> Int32
    typealias OpenFn = @convention(c) (UnsafePointer<CChar>?, UnsafeMutablePointer<OpaquePointer?>?, ResponseOut?) -> Int32
    typealias CallFn = @convention(c) (OpaquePointer?, UnsafePointer<CChar>?, UnsafePointer<CChar>?, ResponseOut?) -> Int32
    typealias CloseFn = @convention(c) (OpaquePointer?) -> Void
    typealias FreeFn = @convention(c) (UnsafeMutableRawPointer?) -> Void

    let path: String
    let handle: UnsafeMutableRawPointer

    init() throws {
        guard let path = BuiltLibrary.locate() else {
            throw XCTSkip("libcarfit.so not found: build it (swift build) or set CARFIT_LIBRARY")
        }
        guard let handle = dlopen(path, RTLD_NOW | RTLD_LOCAL) else {
            throw XCTSkip("dlopen \(path) failed: " + String(cString: dlerror()))
        }
        self.path = path
        self.handle = handle
    }

    static func locate() -> String? {
        if let env = ProcessInfo.processInfo.environment["CARFIT_LIBRARY"], !env.isEmpty { return env }
        var folder = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath()
        while folder.path != "/" {
            let candidate = folder.appendingPathComponent("libcarfit.so").path
            if FileManager.default.fileExists(atPath: candidate) { return candidate }
            folder = folder.deletingLastPathComponent()
        }
        return nil
    }

    func function<T>(_ name: String, _: T.Type) throws -> T {
        guard let pointer = dlsym(handle, name) else { throw XCTSkip("\(name) is not exported by \(path)") }
        return unsafeBitCast(pointer, to: T.self)
    }

    func take(_ pointer: UnsafeMutablePointer<CChar>?) -> String {
        guard let pointer else { return "" }
        defer { (try? function("carfit_free", FreeFn.self))?(pointer) }
        return String(cString: pointer)
    }

    func open() throws -> OpaquePointer? {
        var core: OpaquePointer?
        var response: UnsafeMutablePointer<CChar>?
        let status = try function("carfit_open", OpenFn.self)(
            #"{"now": "2020-09-10T07:00:00Z", "timeZone": "Europe/Copenhagen", "hour24": true}"#, &core, &response)
        let text = take(response)
        guard status == 0, core != nil else { throw XCTSkip("carfit_open failed: \(text)") }
        return core
    }

    func close(_ core: OpaquePointer?) {
        (try? function("carfit_close", CloseFn.self))?(core)
    }

    /// The named export of `method`.
    func named(_ method: String, _ core: OpaquePointer?, _ request: String) throws -> (status: Int32, text: String) {
        let symbol = "carfit_" + method.replacingOccurrences(of: ".", with: "_")
        guard let pointer = dlsym(handle, symbol) else { return (-1, "\(symbol) is not exported") }
        var response: UnsafeMutablePointer<CChar>?
        let status = unsafeBitCast(pointer, to: OperationFn.self)(core, request, &response)
        return (status, take(response))
    }

    /// `carfit_call` with `method`.
    func call(_ method: String, _ core: OpaquePointer?, _ request: String) -> (status: Int32, text: String) {
        guard let call = try? function("carfit_call", CallFn.self) else { return (-1, "carfit_call is not exported") }
        var response: UnsafeMutablePointer<CChar>?
        let status = call(core, method, request, &response)
        return (status, take(response))
    }
}
