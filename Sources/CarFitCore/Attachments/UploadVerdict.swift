/// What an upload's answer means for the attachment sent.
public enum UploadVerdict: Sendable, Equatable {
    /// Any 2xx: the server holds it.
    case uploaded
    /// A 4xx the server will answer again however often it is sent (not 401, 403, 408 or
    /// 429): the attachment is marked failed and never sent again; the push goes on.
    case refused
    /// Anything else (a 5xx, 408, 429, 401, 403, a redirect left over): the upload stops and
    /// everything not yet uploaded stays pending.
    case retryLater

    public init(status: Int) {
        switch status {
        case 200...299: self = .uploaded
        case 401, 403, 408, 429: self = .retryLater
        case 400...499: self = .refused
        default: self = .retryLater
        }
    }
}
