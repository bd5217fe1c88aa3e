import CarFitHTTP

/// Why the image pipeline could not answer; the caller turns it into its own error.
public enum ImageLoadError: Error, Sendable, Equatable {
    /// The pipeline was closed before the call.
    case closed
    /// The pipeline was closed while the image was loading.
    case closedDuringLoad
    /// The transfer failed.
    case transfer(HTTPError)
    /// The server answered with a status other than 2xx.
    case httpStatus(url: String, status: Int)
    /// The body is not a PNG, JPEG, GIF or WebP image.
    case notAnImage(url: String)
    /// A load this call waited for ended without a result (a bug).
    case noResult
}
