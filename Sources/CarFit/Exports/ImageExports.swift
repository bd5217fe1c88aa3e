import CarFitCore
import Foundation

// Section 8 of the contract: the carousel feed and the image pipeline.

@c public func carfit_patterns_import(_ core: OpaquePointer?, _ request: UnsafePointer<CChar>?, _ response: CarfitResponse?) -> Int32 {
    Boundary.call("patterns.import", core, request, response)
}

@c public func carfit_carousel_generate(_ core: OpaquePointer?, _ request: UnsafePointer<CChar>?, _ response: CarfitResponse?) -> Int32 {
    Boundary.call("carousel.generate", core, request, response)
}

@c public func carfit_images_prefetch(_ core: OpaquePointer?, _ request: UnsafePointer<CChar>?, _ response: CarfitResponse?) -> Int32 {
    Boundary.call("images.prefetch", core, request, response)
}

@c public func carfit_images_cancel(_ core: OpaquePointer?, _ request: UnsafePointer<CChar>?, _ response: CarfitResponse?) -> Int32 {
    Boundary.call("images.cancel", core, request, response)
}

@c public func carfit_images_stats(_ core: OpaquePointer?, _ request: UnsafePointer<CChar>?, _ response: CarfitResponse?) -> Int32 {
    Boundary.call("images.stats", core, request, response)
}

/// The one export with a binary out-parameter: `*bytes` gets a `malloc`ed copy of the image
/// (freed by the host with `carfit_free`), `*length` its size. Runs without the core's lock.
@c public func carfit_images_data(
    _ core: OpaquePointer?, _ request: UnsafePointer<CChar>?,
    _ bytes: UnsafeMutablePointer<UnsafeMutablePointer<UInt8>?>?, _ length: UnsafeMutablePointer<UInt>?,
    _ response: CarfitResponse?
) -> Int32 {
    response?.pointee = nil
    bytes?.pointee = nil
    length?.pointee = 0
    let result: Result<JSON, CarFitError>
    do throws(CarFitError) {
        guard let open = Handles.shared.core(core) else {
            throw CarFitError(.misuse, core == nil ? "The core is NULL." : "The core is closed or not a core.")
        }
        guard let bytes else { throw CarFitError(.misuse, "The bytes out-parameter is NULL.", field: "bytes") }
        guard let length else { throw CarFitError(.misuse, "The length out-parameter is NULL.", field: "length") }
        let fields = try Boundary.parse(try Boundary.requestBytes(request, limit: open.config.maxRequestBytes))
        let loaded = try open.loadImage(fields)  // without the core's lock: the pipeline has its own
        guard let copy = malloc(max(1, loaded.bytes.count))?.assumingMemoryBound(to: UInt8.self) else {
            throw CarFitError(.internal, "Out of memory for an image of \(loaded.bytes.count) bytes.")
        }
        loaded.bytes.withUnsafeBufferPointer { source in
            if let base = source.baseAddress { copy.update(from: base, count: source.count) }
        }
        bytes.pointee = copy
        length.pointee = UInt(loaded.bytes.count)
        result = .success(loaded.response)
    } catch {
        result = .failure(error)
    }
    return Boundary.finish(result, response)
}
