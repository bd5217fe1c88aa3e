import CarFitCore

/// What one refresh of a source came to: no request at all (the last success is younger than
/// the `maxAgeSeconds` asked for), a 304 for the validators sent, or a document that was
/// fetched and stored (what its import brought: the area's own type).
public enum RefreshOutcome<Imported> {
    case fresh
    case notModified
    case stored(Imported)

    /// The `source` event's status a refresh with this outcome publishes: none without a request.
    public var eventStatus: String? {
        switch self {
        case .fresh: nil
        case .notModified: "not_modified"
        case .stored: "ok"
        }
    }
}

/// Records a refresh's success (with the validators of the answer that was stored: its ETag
/// and Last-Modified). An area's refresh runs it inside the transaction that stores the
/// fetched document, so the document and its bookkeeping are committed together.
public typealias RefreshCommit = (_ etag: String?, _ lastModified: String?) throws(CarFitError) -> Void
