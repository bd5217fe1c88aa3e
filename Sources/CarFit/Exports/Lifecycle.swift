import CCarFit
import CarFitAPI
import CarFitCore
import CarFitIO
import CarFitSystem
#if canImport(Glibc)
import Glibc
#endif

// The lifecycle and utility functions of include/carfit.h.

/// The library's version: the header's CARFIT_VERSION, so the two cannot disagree.
let carfitVersion = CARFIT_VERSION

/// Static NUL-terminated strings handed to C, made once and never freed.
private enum StaticStrings {
    nonisolated(unsafe) static let version: UnsafePointer<CChar>? = make(carfitVersion)
    nonisolated(unsafe) static let names: [UnsafePointer<CChar>?] = Status.allCases.map { make($0.name) }
    nonisolated(unsafe) static let unknown: UnsafePointer<CChar>? = make("unknown")

    static func make(_ s: String) -> UnsafePointer<CChar>? { s.withCString { UnsafePointer(strdup($0)) } }
}

@c public func carfit_open(
    _ config: UnsafePointer<CChar>?, _ core: UnsafeMutablePointer<OpaquePointer?>?,
    _ response: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?
) -> Int32 {
    core?.pointee = nil
    response?.pointee = nil
    let result: Result<JSON, CarFitError>
    do throws(CarFitError) {
        guard let core else { throw CarFitError(.misuse, "The core out-parameter is NULL.", field: "core") }
        let request = try Boundary.parse(try Boundary.requestBytes(config, limit: Int.max), what: "config")
        var environment: [String: String] = [:]
        for key in ["LC_ALL", "LC_TIME", "LANG"] {
            if let value = getenv(key) { environment[key] = String(cString: value) }
        }
        let config = try CoreConfig(request, localeHour24: Clock.localeUses24Hour(environment: environment),
                                    processors: max(1, sysconf(Int32(_SC_NPROCESSORS_ONLN))), zoneFiles: SystemZoneFiles())
        let opened = try Core(config: config)
        core.pointee = Handles.shared.register(opened)
        result = .success(.obj(["version": .string(carfitVersion), "database": .string(opened.config.database)]))
    } catch {
        result = .failure(error)
    }
    return Boundary.finish(result, response)
}

@c public func carfit_close(_ core: OpaquePointer?) {
    Handles.shared.remove(core)?.close()
}

@c public func carfit_free(_ pointer: UnsafeMutableRawPointer?) {
    free(pointer)
}

@c public func carfit_version() -> UnsafePointer<CChar>? {
    StaticStrings.version
}

/// The header's CARFIT_VERSION_NUMBER: MAJOR * 10000 + MINOR * 100 + PATCH.
@c public func carfit_version_number() -> Int32 {
    Int32(CARFIT_VERSION_NUMBER)
}

@c public func carfit_status_name(_ status: Int32) -> UnsafePointer<CChar>? {
    guard let s = Status(rawValue: status) else { return StaticStrings.unknown }
    let i = Int(s.rawValue)
    return StaticStrings.names.indices.contains(i) ? StaticStrings.names[i] : StaticStrings.unknown
}

@c public func carfit_call(
    _ core: OpaquePointer?, _ method: UnsafePointer<CChar>?, _ request: UnsafePointer<CChar>?,
    _ response: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?
) -> Int32 {
    guard let method else {
        return Boundary.finish(.failure(CarFitError(.misuse, "The method name is NULL.", field: "method")), response)
    }
    return Boundary.call(String(cString: method), core, request, response)
}
