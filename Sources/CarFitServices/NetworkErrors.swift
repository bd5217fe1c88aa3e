import CarFitCore
import CarFitNet

/// The statuses and error documents of the network module's failures.
extension CarFitError {
    /// `unavailable` with `httpStatus` (when an answer came), any `extra` members, `reason` and
    /// `url` in the error document, and the same typed as its `cause`.
    static func unavailable(_ url: String, _ reason: String, _ message: String, httpStatus: Int? = nil,
                            isNetwork: Bool = false, extra: JSONObject = JSONObject()) -> CarFitError {
        var e = JSONObject()
        if let httpStatus { e["httpStatus"] = .int(Int64(httpStatus)) }
        for key in extra.keys { e[key] = extra[key] }
        e["reason"] = .string(reason)
        e["url"] = .string(String(url.prefix(2000)))
        return CarFitError(.unavailable, message, extra: e,
                           cause: Cause(reason: reason, httpStatus: httpStatus, isNetwork: isNetwork))
    }

    /// A source's 401 or 403 answer: `unauthorized` with `reason` "unauthorized", `httpStatus`
    /// and `url`. The message says what to do and never carries the token.
    static func unauthorized(_ url: String, status: Int, what: String) -> CarFitError {
        let phrase = HTTPClient.phrase(status)
        let named = phrase.isEmpty ? "" : " (\(phrase))"
        return CarFitError(.unauthorized,
            "\(url.prefix(200)) refused the request for the \(what) with HTTP status \(status)\(named): sign in to the planner again.",
            extra: JSONObject(["reason": "unauthorized", "httpStatus": .int(Int64(status)), "url": .string(String(url.prefix(2000)))]),
            cause: Cause(reason: "unauthorized", httpStatus: status))
    }

    /// A failed transfer: `unavailable` with its reason; a URL that is not http or https is
    /// `invalid`, field `url`.
    public init(_ failure: HTTPFailure) {
        switch failure.reason {
        case .notHTTP: self = CarFitError(.invalid, failure.message, field: "url")
        default: self = .unavailable(failure.url, failure.reason.rawValue, failure.message, isNetwork: failure.isNetworkFailure)
        }
    }

    /// An image that could not be loaded: `unavailable` (transfer, non-2xx), `invalid` (not an
    /// image, field `url`), `misuse` (the core closed).
    public init(_ failure: ImageLoadError) {
        switch failure {
        case .closed:
            self = CarFitError(.misuse, "The core is closed.")
        case .closedDuringLoad:
            self = CarFitError(.misuse, "The core was closed while the image was loading.")
        case .transfer(let transfer):
            self = CarFitError(transfer)
        case .httpStatus(let url, let status):
            self = .unavailable(url, "http_status", "\(url.prefix(200)) answered with HTTP status \(status).", httpStatus: status)
        case .notAnImage(let url):
            self = CarFitError(.invalid, "\(url.prefix(200)) is not a PNG, JPEG, GIF or WebP image.", field: "url")
        case .noResult:
            self = CarFitError(.internal, "A shared image load ended without a result.")
        }
    }

    /// An image directory that cannot be used: `storage`, field `images.directory`.
    public init(_ failure: ImageDirectoryError) {
        self = CarFitError(.storage, failure.message, field: "images.directory")
    }
}
