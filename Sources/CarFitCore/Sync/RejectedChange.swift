/// A change the update server rejected, as the sync status lists it: undone on this device and
/// kept for the washer to see (the last `SyncStore.rejectedKept`). A member a damaged row lacks
/// is nil.
public struct RejectedChange: Sendable, Equatable {
    public var mutationId: String?
    public var visitId: String?
    public var start: Instant?
    public var state: String?
    public var reason: String?
    public var at: Instant?
    /// The minutes the rejected Done change recorded (nil for other changes).
    public var timeUsedMinutes: Int?

    public init(mutationId: String?, visitId: String?, start: Instant?, state: String?, reason: String?, at: Instant?,
                timeUsedMinutes: Int? = nil) {
        self.mutationId = mutationId
        self.visitId = visitId
        self.start = start
        self.state = state
        self.reason = reason
        self.at = at
        self.timeUsedMinutes = timeUsedMinutes
    }
}
