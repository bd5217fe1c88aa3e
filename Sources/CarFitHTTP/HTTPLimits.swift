/// The bounds of one transfer. A hostile or broken server cannot make a request wait longer,
/// follow more redirects or deliver more bytes than these.
public struct HTTPLimits: Sendable, Equatable {
    /// Connecting, and each wait for data (the longest time without a byte arriving, checked
    /// at least every 100 ms), in ms.
    public var timeoutMs: Int
    /// The whole transfer, from the first connection to the last byte, in ms.
    public var totalTimeoutMs: Int
    /// The most body bytes delivered, counted after gzip or deflate decoding. A declared
    /// `Content-Length` above it fails before the body is read.
    public var maxBodyBytes: Int64
    /// The most redirects followed; one more, or a loop, fails with reason `redirects`.
    public var maxRedirects: Int
    /// The most header bytes accepted over every response of a transfer (redirects included).
    public var maxHeaderBytes: Int
    /// The slowest rate accepted, in bytes per second: a transfer that moves fewer bytes than
    /// this per second for `timeoutMs` (in whole seconds, at least one) fails with reason
    /// `timeout`, so a server that drips cannot hold it until `totalTimeoutMs`. 0: no limit.
    public var minBytesPerSecond: Int

    public init(timeoutMs: Int = 10_000, totalTimeoutMs: Int = 120_000, maxBodyBytes: Int64 = 268_435_456,
                maxRedirects: Int = 5, maxHeaderBytes: Int = 1 << 20, minBytesPerSecond: Int = 1024) {
        self.timeoutMs = timeoutMs
        self.totalTimeoutMs = totalTimeoutMs
        self.maxBodyBytes = maxBodyBytes
        self.maxRedirects = maxRedirects
        self.maxHeaderBytes = maxHeaderBytes
        self.minBytesPerSecond = minBytesPerSecond
    }

    /// The limits with every value brought into the range libcurl and the transfer accept.
    var clamped: HTTPLimits {
        HTTPLimits(timeoutMs: min(max(timeoutMs, 1), 86_400_000),
                   totalTimeoutMs: min(max(totalTimeoutMs, 1), 86_400_000),
                   maxBodyBytes: max(maxBodyBytes, 0),
                   maxRedirects: min(max(maxRedirects, 0), 100),
                   maxHeaderBytes: min(max(maxHeaderBytes, 1024), 1 << 30),
                   minBytesPerSecond: min(max(minBytesPerSecond, 0), 1 << 40))
    }
}
