import Synchronization

/// A flag another thread sets to stop a transfer: the transfer notices within about 100 ms
/// (its poll interval) or at its next chunk, and fails with reason `cancelled`. One token may
/// be handed to many requests; once cancelled it stays cancelled.
public final class HTTPCancellation: Sendable {
    private let flag = Atomic<Bool>(false)

    public init() {}

    /// Stops every transfer made with this token, now and later.
    public func cancel() { flag.store(true, ordering: .releasing) }

    public var isCancelled: Bool { flag.load(ordering: .acquiring) }
}
