import CarFitCore
import CarFitStore

extension Core {
    var patterns: PatternStore { PatternStore(db) }

    /// Adds the document's valid patterns to the pool: the colourlovers array itself, or an
    /// object with a `patterns` array.
    func importPatterns(_ bytes: UnsafeRawBufferPointer) throws(CarFitError) -> JSON {
        var request = Fields(JSONObject())
        if let base = bytes.baseAddress, bytes.count > 0 {
            switch try JanssonParser.parse(base.assumingMemoryBound(to: CChar.self), length: bytes.count) {
            case .array(let records): request = Fields(JSONObject(["patterns": .array(records)]))
            case .object(let object): request = Fields(object)
            default:
                throw CarFitError(.badJSON, "The request must be the colourlovers array or a JSON object.",
                                  extra: JSONObject(["line": 1, "column": 1, "position": 0]))
            }
        }
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
