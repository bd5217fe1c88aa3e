/// The priority of a prefetch: higher priorities start first, FIFO within one priority.
public enum PrefetchPriority: Int, Sendable, CaseIterable, Comparable {
    case low = 0, normal = 1, high = 2

    public init?(name: String) {
        switch name {
        case "low": self = .low
        case "normal": self = .normal
        case "high": self = .high
        default: return nil
        }
    }

    public static func < (a: PrefetchPriority, b: PrefetchPriority) -> Bool { a.rawValue < b.rawValue }
}
