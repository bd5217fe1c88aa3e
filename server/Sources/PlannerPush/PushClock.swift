import Foundation

/// The delivery's time: the present in milliseconds since the epoch, and a way to wait.
/// Tests hand in their own to see tokens reused and renewed without waiting an hour.
public struct PushClock: Sendable {
    public var now: @Sendable () -> Int64
    /// Waits that many milliseconds; throws when the task is cancelled.
    public var sleep: @Sendable (Int64) async throws -> Void

    public init(now: @escaping @Sendable () -> Int64, sleep: @escaping @Sendable (Int64) async throws -> Void) {
        self.now = now
        self.sleep = sleep
    }

    /// The system's wall clock and `Task.sleep`.
    public static let system = PushClock(
        now: { Int64((Date().timeIntervalSince1970 * 1000).rounded(.down)) },
        sleep: { millis in try await Task.sleep(nanoseconds: UInt64(max(0, min(millis, 86_400_000))) * 1_000_000) }
    )
}
