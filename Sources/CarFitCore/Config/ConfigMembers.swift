/// The members `carfit_open` knows, one list per config object. The config reader refuses any
/// other member with these lists, the refusal suggests the nearest name from them, and the
/// tests compare them with the header's documentation.
public enum ConfigMembers {
    /// The config object itself.
    public static let root = ["database", "now", "timeZone", "hour24", "firstWeekday", "sources", "http", "images",
                              "maxRequestBytes", "importThreads", "auth", "road", "attachments",
                              "report", "reminders", "zoneinfo", "encryption"]
    /// `sources`: where each area is fetched from.
    public static let sources = ["visits", "articles", "catalog", "patterns", "visitUpdates", "locations", "attachments", "devices"]
    /// `http`: the limits on every transfer.
    public static let http = ["timeoutMs", "totalTimeoutMs", "maxBodyBytes", "minBytesPerSecond"]
    /// `images`: the image cache.
    public static let images = ["directory", "memoryBytes", "diskBytes", "concurrency"]
    /// `auth`: who receives the planner's token.
    public static let auth = ["origins"]

    /// `road`: positions, arrivals and departures.
    public static let road = ["arrivalRadiusMeters", "dwellSeconds", "maxAccuracyMeters", "minDistanceMeters",
                              "minIntervalSeconds", "autoStart", "trailDays"]

    /// `report`: how long the washer's facts are kept, the learned plans' sample minimum.
    public static let report = ["keepDays", "minSamples"]

    /// `reminders`: the time to leave for each visit.
    public static let reminders = ["bufferMinutes", "speedKmh", "detourFactor", "positionMaxAgeSeconds"]

    /// `encryption`: the key everything stored is encrypted under.
    public static let encryption = ["key"]

    /// `attachments`: where attached files are kept, and their limits.
    public static let attachments = ["directory", "maxBytes", "quotaBytes"]
}
