import AsyncHTTPClient
import Foundation
import NIOCore
import NIOSSL

/// What one request for a push came to, and so what the queue records.
enum PushOutcome: Equatable, Sendable {
    /// The service took it.
    case sent
    /// Try again later: a network failure, 429, 5xx. `retryAfterMillis` is the service's
    /// `Retry-After`, when it gave one.
    case retry(String, retryAfterMillis: Int64?)
    /// The device's token is dead: unregister the device, drop its queue.
    case deadToken(String)
    /// Refused for good: drop this push only.
    case refused(String)
}

/// When a failed push is tried again.
enum RetryPolicy {
    static let firstDelayMillis: Int64 = 1_000
    static let maxDelayMillis: Int64 = 300_000
    /// A `Retry-After` longer than this is taken as this.
    static let maxRetryAfterMillis: Int64 = 86_400_000

    /// 1 s after the first failure, doubling up to 5 minutes, times `jitter` (0.8 … 1.2).
    static func backoffMillis(attempts: Int, jitter: Double) -> Int64 {
        let doublings = min(max(attempts - 1, 0), 20)
        let base = min(firstDelayMillis << Int64(doublings), maxDelayMillis)
        let factor = jitter.isFinite ? min(max(jitter, 0.8), 1.2) : 1
        return Int64((Double(base) * factor).rounded())
    }

    /// The delay before the next try: the backoff, or the service's `Retry-After` when that is longer.
    static func delayMillis(attempts: Int, jitter: Double, retryAfterMillis: Int64?) -> Int64 {
        let backoff = backoffMillis(attempts: attempts, jitter: jitter)
        guard let retryAfter = retryAfterMillis else { return backoff }
        return max(backoff, min(retryAfter, maxRetryAfterMillis))
    }

    /// A `Retry-After` value as milliseconds from `now`: delay-seconds or an HTTP date
    /// (IMF-fixdate, RFC 850 or asctime). Nil when it is neither.
    static func retryAfterMillis(_ value: String?, now: Int64) -> Int64? {
        guard let raw = value?.trimmingCharacters(in: .whitespaces), !raw.isEmpty, raw.utf8.count <= 64 else { return nil }
        if raw.utf8.allSatisfy({ $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }) {
            // Digits only: seconds, taken as the cap when too long to hold.
            guard let seconds = Int64(raw), seconds <= maxRetryAfterMillis / 1000 else { return maxRetryAfterMillis }
            return seconds * 1000
        }
        for format in ["EEE, dd MMM yyyy HH:mm:ss zzz", "EEEE, dd-MMM-yy HH:mm:ss zzz", "EEE MMM d HH:mm:ss yyyy"] {
            let formatter = DateFormatter()
            formatter.locale = Locale(identifier: "en_US_POSIX")
            formatter.timeZone = TimeZone(identifier: "GMT")
            formatter.dateFormat = format
            if let date = formatter.date(from: raw) {
                let millis = date.timeIntervalSince1970 * 1000
                guard millis.isFinite, abs(millis) < 1e15 else { return nil }
                return max(0, Int64(millis) - now)
            }
        }
        return nil
    }
}

/// Reading answers within a bound: a hostile or broken service cannot make the process hold more.
enum AnswerBody {
    static let limit = 64 * 1024

    /// Up to `limit` bytes of the body; the rest is not read. A failure mid-body keeps what came.
    static func read(_ response: HTTPClientResponse) async -> [UInt8] {
        var bytes: [UInt8] = []
        do {
            for try await part in response.body {
                var chunk = part
                let take = min(chunk.readableBytes, limit - bytes.count)
                if let part = chunk.readBytes(length: take) { bytes += part }
                if bytes.count >= limit { break }
            }
        } catch {
            return bytes
        }
        return bytes
    }

    /// The body as a JSON object, or nil (not JSON, not an object, cut short).
    static func object(_ bytes: [UInt8]) -> [String: Any]? {
        guard !bytes.isEmpty, bytes.count < limit else { return nil }
        return (try? JSONSerialization.jsonObject(with: Data(bytes))) as? [String: Any]
    }
}

/// The `lastError` text of a request that got no answer.
enum NetworkFailure {
    static func describe(_ error: any Error) -> String {
        if error is CancellationError { return "network: cancelled" }
        if let client = error as? HTTPClientError {
            switch client {
            case .connectTimeout: return "network: connect timeout"
            case .readTimeout, .deadlineExceeded: return "network: timeout"
            case .remoteConnectionClosed: return "network: connection closed"
            case .cancelled: return "network: cancelled"
            default: return "network: " + name(client)
            }
        }
        if let io = error as? IOError {
            switch io.errnoCode {
            case ECONNRESET: return "network: connection reset"
            case ECONNREFUSED: return "network: connection refused"
            case EPIPE: return "network: broken pipe"
            default: return "network: " + name(io)
            }
        }
        if let channel = error as? ChannelError {
            switch channel {
            case .connectTimeout: return "network: connect timeout"
            case .eof, .ioOnClosedChannel, .alreadyClosed, .outputClosed, .inputClosed: return "network: connection closed"
            default: return "network: " + name(channel)
            }
        }
        if let tls = error as? NIOSSLError {
            if case .handshakeFailed = tls { return "network: TLS handshake failed" }
            return "network: TLS " + name(tls)
        }
        if error is BoringSSLError { return "network: TLS " + name(error) }
        return "network: " + name(error)
    }

    /// An error's case or type name, without its details (`handshakeFailed(…)` → `handshakeFailed`).
    static func name(_ error: any Error) -> String {
        let text = String(describing: error)
        let head = text.prefix { $0 != "(" && $0 != ":" && $0 != "\n" }
        return JSONText.reason(head.isEmpty ? String(describing: type(of: error)) : String(head))
    }
}
