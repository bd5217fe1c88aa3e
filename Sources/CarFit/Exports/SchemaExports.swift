import CarFitCore
import Glibc

// The machine-readable contract of include/carfit.h.

/// The schema's text as a static NUL-terminated string, made once and never freed.
private enum SchemaString {
    nonisolated(unsafe) static let text: UnsafePointer<CChar>? = carfitSchemaText.withCString { UnsafePointer(strdup($0)) }
}

@c public func carfit_schema() -> UnsafePointer<CChar>? {
    SchemaString.text
}
