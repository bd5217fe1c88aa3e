import CarFitCore
import CarFitHTTP
import CarFitNet

/// What a request of the network is for, as its errors name it: the member that configures its
/// URL (the field of a URL that is not http or https), what it fetches or sends, and what a
/// failure leaves as it was.
public struct NetworkTarget: Sendable, Equatable {
    /// The config or request member naming the URL: `sources.visits`, `sources.visitUpdates`, `url`.
    public var field: String
    /// What the request is for, in messages: "visits document", "washer's updates".
    public var what: String
    /// A sentence said after every failure: "Every change stays pending." (none: nothing to say).
    public var stays: String?

    public init(field: String, what: String, stays: String? = nil) {
        self.field = field
        self.what = what
        self.stays = stays
    }

    /// A request's own URL (an image's): field `url`.
    public static let request = NetworkTarget(field: "url", what: "image")
    /// The washer's updates (`sources.visitUpdates`).
    public static let visitUpdates = NetworkTarget(field: "sources.visitUpdates", what: "washer's updates",
                                                   stays: "Every change stays pending.")
    /// The washer's positions (`sources.locations`).
    public static let locations = NetworkTarget(field: "sources.locations", what: "washer's positions",
                                                stays: "Every point stays pending.")
    /// The attachments' uploads (`sources.attachments`).
    public static let attachments = NetworkTarget(field: "sources.attachments", what: "attachment",
                                                  stays: "Every attachment not yet uploaded stays pending.")
    /// A refresh of the source `name` ("visits", "articles"): its document.
    public static func source(_ name: String) -> NetworkTarget {
        NetworkTarget(field: "sources.\(name)", what: "\(name) document")
    }

    /// `message` followed by `stays`.
    func said(_ message: String) -> String { stays.map { "\(message) \($0)" } ?? message }
}

/// The one classification of what the network did to a request, for every refresh, every part
/// of a push (updates, positions, attachments) and the images:
///
/// - a transfer that failed (`HTTPError`) is `unavailable` with the transfer's reason, but a URL
///   that is not http or https, or a request that cannot be made, is `invalid` (reason
///   `not_http` or `invalid_request`, field the member naming the URL): nothing was sent;
/// - an answer of 401 or 403 is `unauthorized`, reason `unauthorized`;
/// - any other status than 2xx (and than 304 where the caller asked for one) is `unavailable`,
///   reason `http_status`;
/// - an answer that is not what the request expects is `unavailable` with the caller's reason
///   (`malformed`, `not_json`, …).
///
/// Every one carries `reason` and `url` (and `httpStatus` where an answer came) in its error
/// document and the same typed as its `cause`.
extension CarFitError {
    /// A failed transfer to `target`.
    public init(_ failure: HTTPError, _ target: NetworkTarget) {
        let reason = failure.reason.rawValue
        let url = String(failure.url.prefix(2000))
        switch failure.reason {
        case .notHTTP, .invalidRequest:
            self = CarFitError(.invalid, target.said(failure.message), field: target.field,
                               details: Details(url: url), cause: Cause(reason: reason))
        default:
            let message = failure.reason == .timeout ? "The request timed out: \(failure.message)" : failure.message
            self = .unavailable(failure.url, reason, target.said(message), isNetwork: failure.isNetworkFailure)
        }
    }

    /// A failed transfer of a request's own URL (an image): field `url`.
    public init(_ failure: HTTPError) {
        self.init(failure, .request)
    }

    /// The error of an answer's `status` from `url`, nil for a 2xx: `unauthorized` for a 401 or
    /// 403, else `unavailable` with reason `http_status`.
    static func answered(_ status: Int, url: String, _ target: NetworkTarget) -> CarFitError? {
        if HTTPClient.isRefusal(status) { return .unauthorized(url, status: status, what: target.what) }
        guard !(200..<300).contains(status) else { return nil }
        return .httpStatus(status, url: url, target)
    }

    /// An answer's status other than 2xx, 401 and 403: `unavailable`, reason `http_status`.
    static func httpStatus(_ status: Int, url: String, _ target: NetworkTarget) -> CarFitError {
        let phrase = HTTPClient.phrase(status)
        let named = phrase.isEmpty ? "" : " (\(phrase))"
        return .unavailable(url, "http_status",
                            target.said("\(url.prefix(200)) answered with HTTP status \(status)\(named) to the request for the \(target.what)."),
                            httpStatus: status)
    }

    /// An answer from `url` that is not what the request expects: `unavailable` with `reason`
    /// ("malformed", …); `what` says what is wrong ("is not JSON").
    static func badAnswer(_ reason: String, url: String, _ target: NetworkTarget, _ what: String) -> CarFitError {
        .unavailable(url, reason, target.said("The answer of \(url.prefix(200)) to the request for the \(target.what) \(what)."))
    }

    /// `unavailable` with its `reason`, `httpStatus` (when an answer came) and `url`, and any
    /// further `details`; the reason and status are its typed `cause`.
    static func unavailable(_ url: String, _ reason: String, _ message: String, httpStatus: Int? = nil,
                            isNetwork: Bool = false, details: Details = Details()) -> CarFitError {
        var details = details
        details.url = String(url.prefix(2000))
        return CarFitError(.unavailable, message, details: details,
                           cause: Cause(reason: reason, httpStatus: httpStatus, isNetwork: isNetwork))
    }

    /// A source's 401 or 403 answer: `unauthorized` with `reason` "unauthorized", `httpStatus`
    /// and `url`. The message says what to do and never carries the token.
    static func unauthorized(_ url: String, status: Int, what: String) -> CarFitError {
        let phrase = HTTPClient.phrase(status)
        let named = phrase.isEmpty ? "" : " (\(phrase))"
        return CarFitError(.unauthorized,
            "\(url.prefix(200)) refused the request for the \(what) with HTTP status \(status)\(named): sign in to the planner again.",
            details: Details(url: String(url.prefix(2000))),
            cause: Cause(reason: "unauthorized", httpStatus: status))
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
