/// One stop as the route planner sees it: how long the work takes and when it may start.
public struct RouteStop: Sendable, Equatable {
    public var serviceMinutes: Int
    public var window: TimeWindow?

    public init(serviceMinutes: Int, window: TimeWindow? = nil) {
        self.serviceMinutes = serviceMinutes
        self.window = window
    }
}
