import CarFitCore
import CarFitStore

/// The carousel feed: the pattern pool lives in the database, so these run under the core's lock.
let carouselOperations: [(String, Operation)] = [
    ("patterns.import", { core, request throws(CarFitError) in try core.importPatterns(request) }),
    ("carousel.generate", { core, request throws(CarFitError) in try core.generateCarousel(request) }),
]

/// The image pipeline guards itself and `images.data` blocks on the network: these run without
/// the core's lock (`Operations.concurrent`). `carfit_images_data`, with its binary
/// out-parameter, has no method name.
let imageOperations: [(String, Operation)] = [
    ("images.prefetch", { core, request throws(CarFitError) in try core.prefetchImages(request) }),
    ("images.cancel", { core, request throws(CarFitError) in try core.cancelImages(request) }),
    ("images.stats", { core, _ throws(CarFitError) in try core.images.stats() }),
]

/// `patterns.import` also takes the colourlovers array itself.
let arrayRequestMembers: [String: String] = ["patterns.import": "patterns"]

extension Core {
    var patterns: PatternStore { PatternStore(db) }

    /// Adds the document's valid patterns to the pool.
    func importPatterns(_ request: Fields) throws(CarFitError) -> JSON {
        let document = try PatternImport(document: request)
        try patterns.add(document.patterns)
        return document.response(pool: try patterns.count())
    }

    func generateCarousel(_ request: Fields) throws(CarFitError) -> JSON {
        let feed = try CarouselFeed(request: request)
        return feed.document(pool: try patterns.all())
    }

    func prefetchImages(_ request: Fields) throws(CarFitError) -> JSON {
        let urls = try ImageRequest.urls(request)
        let priority = try ImageRequest.priority(request)
        return .obj(["queued": .int(Int64(try images.prefetch(urls, priority: priority)))])
    }

    func cancelImages(_ request: Fields) throws(CarFitError) -> JSON {
        let urls = try ImageRequest.urls(request)
        return .obj(["cancelled": .int(Int64(try images.cancel(urls)))])
    }

    /// `{"url"}` → the image and `{"url", "bytes", "source", "contentType"}`.
    func loadImage(_ request: Fields) throws(CarFitError) -> (bytes: [UInt8], response: JSON) {
        let url = try ImageRequest.url(request)
        let image = try images.load(url)
        return (image.bytes, .obj(["url": .string(url), "bytes": .int(Int64(image.bytes.count)),
                                    "source": .string(image.source.rawValue),
                                    "contentType": .string(image.format.contentType)]))
    }
}
