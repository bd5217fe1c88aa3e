import CarFitCore

/// What one refresh's request brought: a document that was stored (with the validators of its
/// answer, for the next conditional request), or a 304 for the validators sent.
public enum RefreshOutcome {
    case stored(JSON, etag: String?, lastModified: String?)
    case notModified
}
