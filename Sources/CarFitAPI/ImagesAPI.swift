import CarFitCore
import CarFitIO
import CarFitNet
import CarFitServices

/// The image operations: their requests read, their documents written.
public enum ImagesAPI {
    public static func generateCarousel(_ service: ImagesService, _ request: Fields) throws(CarFitError) -> JSON {
        let rows = try service.generateCarousel(try CarouselRequest(request).feed)
        return .obj(["rows": .array(rows.map(\.json))])
    }

    public static func prefetch(_ service: ImagesService, _ request: Fields) throws(CarFitError) -> JSON {
        let r = try PrefetchRequest(request)
        return .obj(["queued": .int(Int64(try service.prefetch(r.urls, priority: r.priority)))])
    }

    public static func cancel(_ service: ImagesService, _ request: Fields) throws(CarFitError) -> JSON {
        .obj(["cancelled": .int(Int64(try service.cancel(try ImageURLs(request).urls)))])
    }

    public static func stats(_ service: ImagesService) throws(CarFitError) -> JSON {
        try service.stats().json
    }

    /// The image's bytes and `{"url", "bytes", "source", "contentType"}`.
    public static func load(_ service: ImagesService, _ request: Fields) throws(CarFitError) -> (bytes: [UInt8], response: JSON) {
        let url = try ImageURL(request).url
        let image = try service.load(url)
        return (image.bytes, .obj(["url": .string(url), "bytes": .int(Int64(image.bytes.count)),
                                   "source": .string(image.source.rawValue),
                                   "contentType": .string(image.format.contentType)]))
    }
}

// MARK: - Requests

/// `carfit_images_data`: `{"url"}`, an absolute http or https URL.
public struct ImageURL: APIRequest {
    public var url: String
    public init(_ f: Fields) throws(CarFitError) {
        url = try f.requiredString("url")
        guard ImageRequest.isHTTPURL(url) else {
            throw .invalid(f.path("url"), "url must be an absolute http or https URL.")
        }
    }
}

/// `images.cancel`: `{"urls": [...]}`, each checked, duplicates dropped (the first kept).
public struct ImageURLs: APIRequest {
    public var urls: [String]
    public init(_ f: Fields) throws(CarFitError) {
        guard let given = try f.strings("urls") else {
            throw .invalid(f.path("urls"), "urls is required: an array of image URLs.")
        }
        var seen = Set<String>()
        urls = []
        for (i, url) in given.enumerated() {
            guard ImageRequest.isHTTPURL(url) else {
                throw .invalid("\(f.path("urls"))[\(i)]", "urls[\(i)] must be an absolute http or https URL.")
            }
            if seen.insert(url).inserted { urls.append(url) }
        }
    }
}

/// `images.prefetch`: `{"urls": [...], "priority": "low" | "normal" | "high"}`, `normal` when absent.
public struct PrefetchRequest: APIRequest {
    public var urls: [String]
    public var priority: PrefetchPriority
    public init(_ f: Fields) throws(CarFitError) {
        urls = try ImageURLs(f).urls
        if let name = try f.string("priority") {
            guard let priority = PrefetchPriority(name: name) else {
                throw .invalid(f.path("priority"), "priority must be \"low\", \"normal\" or \"high\".")
            }
            self.priority = priority
        } else {
            priority = .normal
        }
    }
}

/// `carousel.generate`: `{"rows": 1...1000, "columns": 1...1000, "seed": integer (0)}`; rows
/// and columns required.
public struct CarouselRequest: APIRequest {
    public var feed: CarouselFeed
    public init(_ f: Fields) throws(CarFitError) {
        let rows = Int(try f.requiredInt("rows", in: 1...Int64(CarouselFeed.maxRows)))
        let columns = Int(try f.requiredInt("columns", in: 1...Int64(CarouselFeed.maxColumns)))
        let seed = try f.int("seed", in: Int64.min...Int64.max) ?? 0
        feed = CarouselFeed(rows: rows, columns: columns, seed: seed)
    }
}

// MARK: - Responses

extension CarouselFeed.Row: APIResponse {
    /// `{"index", "title", "tiles": [{"id", "title", "color", "imageUrl"}]}`
    public var json: JSON {
        .obj(["index": .int(Int64(index)), "title": .string(title), "tiles": .array(tiles.map { tile in
            var object = JSONObject()
            object["id"] = .string(tile.id)
            object["title"] = .string(tile.title)
            object["color"] = .string(tile.color)
            object["imageUrl"] = .str(tile.imageUrl)
            return .object(object)
        })])
    }
}

extension ImagePipeline.Stats.Level: APIResponse {
    /// `{"count", "bytes", "limit"}`
    public var json: JSON { .obj(["count": .int(count), "bytes": .int(bytes), "limit": .int(limit)]) }
}

extension ImagePipeline.Stats: APIResponse {
    /// `{"memory", "disk", "requests", "prefetch"}`
    public var json: JSON {
        .obj([
            "memory": memory.json,
            "disk": disk.json,
            "requests": .obj(["network": .int(network), "coalesced": .int(coalesced), "memoryHits": .int(memoryHits),
                              "diskHits": .int(diskHits), "failures": .int(failures)]),
            "prefetch": .obj(["queued": .int(queued), "loading": .int(loading)]),
        ])
    }
}

/// The entry points of the operation table (`Manifest.operations`), one per operation, named
/// after its verb: each picks from the core what the function above needs.
extension ImagesAPI {
    public static func data(_ context: some OperationContext, _ request: Fields) throws(CarFitError) -> (bytes: [UInt8], response: JSON) {
        try load(context.images, request)
    }
    public static func prefetch(_ context: some OperationContext, _ request: Fields) throws(CarFitError) -> JSON {
        try prefetch(context.images, request)
    }
    public static func cancel(_ context: some OperationContext, _ request: Fields) throws(CarFitError) -> JSON {
        try cancel(context.images, request)
    }
    public static func stats(_ context: some OperationContext, _ request: Fields) throws(CarFitError) -> JSON {
        try stats(context.images)
    }
}

/// The carousel operation: `carousel.generate` (its API is `ImagesAPI`'s).
public enum CarouselAPI {
    public static func generate(_ context: some OperationContext, _ request: Fields) throws(CarFitError) -> JSON {
        try ImagesAPI.generateCarousel(context.images, request)
    }
}
