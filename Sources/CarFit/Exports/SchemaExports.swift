import CarFitCore

// The machine-readable contract of include/carfit.h.

/// The schema's text: the static string literal itself, NUL-terminated in the library's
/// read-only data, so it is never allocated, never NULL and never freed.
@c public func carfit_schema() -> UnsafePointer<CChar>? {
    UnsafeRawPointer(carfitSchemaText.utf8Start).assumingMemoryBound(to: CChar.self)
}
