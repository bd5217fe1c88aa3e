import CarFitCore
import CarFitIO
import CarFitNet
import CarFitStore

/// The patterns, carousel and images use-cases: the pattern pool in the database, the feed
/// drawn from it, and the image pipeline (which guards itself: these need not hold the core).
public struct ImagesService {
    public let patterns: PatternStore
    public let images: ImagePipeline

    public init(patterns: PatternStore, images: ImagePipeline) {
        self.patterns = patterns
        self.images = images
    }

    /// Adds the document's valid patterns to the pool: the colourlovers array itself, or an
    /// object with a `patterns` array.
    public func importPatterns(_ bytes: UnsafeRawBufferPointer) throws(CarFitError) -> JSON {
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

    public func generateCarousel(_ request: Fields) throws(CarFitError) -> JSON {
        let feed = try CarouselFeed(request: request)
        return feed.document(pool: try patterns.all())
    }

    public func prefetch(_ request: Fields) throws(CarFitError) -> JSON {
        let urls = try ImageRequest.urls(request)
        let priority = try ImageRequest.priority(request)
        do throws(ImageLoadError) {
            return .obj(["queued": .int(Int64(try images.prefetch(urls, priority: priority)))])
        } catch {
            throw CarFitError(error)
        }
    }

    public func cancel(_ request: Fields) throws(CarFitError) -> JSON {
        let urls = try ImageRequest.urls(request)
        do throws(ImageLoadError) {
            return .obj(["cancelled": .int(Int64(try images.cancel(urls)))])
        } catch {
            throw CarFitError(error)
        }
    }

    public func stats() throws(CarFitError) -> JSON {
        do throws(ImageLoadError) {
            return try images.stats()
        } catch {
            throw CarFitError(error)
        }
    }

    /// `{"url"}` → the image and `{"url", "bytes", "source", "contentType"}`.
    public func load(_ request: Fields) throws(CarFitError) -> (bytes: [UInt8], response: JSON) {
        let url = try ImageRequest.url(request)
        let image: ImagePipeline.Image
        do throws(ImageLoadError) {
            image = try images.load(url)
        } catch {
            throw CarFitError(error)
        }
        return (image.bytes, .obj(["url": .string(url), "bytes": .int(Int64(image.bytes.count)),
                                    "source": .string(image.source.rawValue),
                                    "contentType": .string(image.format.contentType)]))
    }
}
