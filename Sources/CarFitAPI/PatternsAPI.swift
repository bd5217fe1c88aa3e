import CarFitCore
import CarFitIO
import CarFitServices

/// The patterns operations: `patterns.import` (streamed: it reads the request's bytes itself,
/// the colourlovers array or an object with a `patterns` array) and the patterns' answers.
public enum PatternsAPI {
    public static func importPatterns(_ service: ImagesService, _ bytes: UnsafeRawBufferPointer) throws(CarFitError) -> JSON {
        try service.importPatterns(try PatternImport(request: bytes)).json
    }
}

// MARK: - Responses

extension ImagesService.PatternsImported: APIResponse {
    /// `{"imported", "rejected", "pool"}`: `patterns.import`.
    public var json: JSON {
        .obj(["imported": .int(Int64(imported)), "rejected": .array(rejected.map(\.json)), "pool": .int(Int64(pool))])
    }
}

extension ImagesService.PatternsRefreshed: APIResponse {
    /// `{"added", "pool", "failed"}`: a `patterns.refresh` that made its requests.
    public var json: JSON {
        .obj(["added": .int(Int64(added)), "pool": .int(Int64(pool)), "failed": .int(Int64(failed))])
    }
}

/// The entry points of the operation table (`Manifest.operations`), one per operation, named
/// after its verb: each picks from the core what the function above needs.
extension PatternsAPI {
    public static func `import`(_ context: some OperationContext, _ bytes: UnsafeRawBufferPointer, check: MemberCheck, progress: ProgressStart) throws(CarFitError) -> JSON {
        try importPatterns(context.images, bytes)
    }
    public static func refresh(_ context: some OperationContext, _ request: Fields) throws(CarFitError) -> JSON {
        try context.refresh(.patterns, request)
    }
}
