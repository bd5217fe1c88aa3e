// Patterns, carousel and images. Each export is one line: the boundary finds its operation in `Manifest` by the function's own name.

@c public func carfit_patterns_import(_ core: OpaquePointer?, _ request: CarfitRequest?, _ response: CarfitResponse?) -> Int32 { Boundary.export(core, request, response) }
@c public func carfit_patterns_refresh(_ core: OpaquePointer?, _ request: CarfitRequest?, _ response: CarfitResponse?) -> Int32 { Boundary.export(core, request, response) }
@c public func carfit_carousel_generate(_ core: OpaquePointer?, _ request: CarfitRequest?, _ response: CarfitResponse?) -> Int32 { Boundary.export(core, request, response) }
/// Bytes out: `*bytes` a new buffer of `*length` bytes (freed with `carfit_free`).
@c public func carfit_images_data(_ core: OpaquePointer?, _ request: CarfitRequest?, _ bytes: UnsafeMutablePointer<UnsafeMutablePointer<UInt8>?>?, _ length: UnsafeMutablePointer<UInt>?, _ response: CarfitResponse?) -> Int32 { Boundary.binary(core, request, bytes, length, response) }
@c public func carfit_images_prefetch(_ core: OpaquePointer?, _ request: CarfitRequest?, _ response: CarfitResponse?) -> Int32 { Boundary.export(core, request, response) }
@c public func carfit_images_cancel(_ core: OpaquePointer?, _ request: CarfitRequest?, _ response: CarfitResponse?) -> Int32 { Boundary.export(core, request, response) }
@c public func carfit_images_stats(_ core: OpaquePointer?, _ request: CarfitRequest?, _ response: CarfitResponse?) -> Int32 { Boundary.export(core, request, response) }
