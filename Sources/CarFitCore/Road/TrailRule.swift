/// Which counting reports the trail keeps: the first, then one that moved at least
/// `minDistanceMeters` (geodesic) from the last stored point or came at least
/// `minIntervalSeconds` after it. A washer standing still adds a point per interval, not one
/// per report.
public enum TrailRule {
    /// A point of the trail as the rule needs it.
    public struct Point: Sendable, Equatable {
        public var latitude: Double
        public var longitude: Double
        public var at: Instant

        public init(latitude: Double, longitude: Double, at: Instant) {
            self.latitude = latitude
            self.longitude = longitude
            self.at = at
        }
    }

    /// Whether the counting report `report` is stored after `last` (nil: nothing stored yet).
    public static func stores(_ report: LocationReport, after last: Point?, config: RoadConfig) -> Bool {
        guard let last else { return true }
        if report.at.milliseconds - last.at.milliseconds >= config.minIntervalSeconds * 1000 { return true }
        guard let metres = Geo.distance(report.latitude, report.longitude, last.latitude, last.longitude) else { return true }
        return metres >= config.minDistanceMeters
    }
}

/// Geodesic distances for the road rules.
public enum Geo {
    /// Metres between two points on the WGS84 ellipsoid (Karney), nil for invalid coordinates.
    public static func distance(_ lat1: Double, _ lon1: Double, _ lat2: Double, _ lon2: Double) -> Double? {
        Geodesic.distance(latitude1: lat1, longitude1: lon1, latitude2: lat2, longitude2: lon2)
    }
}
