// The one operation with bytes out, `carfit_images_data` (the others' exports are generated:
// Generated/Exports.swift). The boundary finds its operation in `Manifest` by the function's own name.

/// Bytes out: `*bytes` a new buffer of `*length` bytes (freed with `carfit_free`).
@c public func carfit_images_data(_ core: OpaquePointer?, _ request: CarfitRequest?, _ bytes: UnsafeMutablePointer<UnsafeMutablePointer<UInt8>?>?, _ length: UnsafeMutablePointer<UInt>?, _ response: CarfitResponse?) -> Int32 { Boundary.binary(core, request, bytes, length, response) }
