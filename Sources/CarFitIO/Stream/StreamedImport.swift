import CarFitCore

/// What a streamed import made of a document: what it stored, or "declined" when the document is
/// not of the usual shape (nothing was stored; the caller parses it whole, so that errors read
/// as for every other request).
public enum StreamedImport: Sendable {
    case imported(ImportSummary)
    case declined
}
