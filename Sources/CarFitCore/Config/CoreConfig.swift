import Foundation

/// The validated `carfit_open` configuration. Every field is checked when the core opens, also
/// the ones only later features read, so a bad value is reported at once with its field.
public struct CoreConfig: Sendable {
    public enum Weekday: String, Sendable { case monday, sunday }

    public struct Sources: Sendable, Equatable {
        public var visits: String?
        public var articles: String?
    }

    public struct Images: Sendable, Equatable {
        /// nil: a temporary directory owned by the core.
        public var directory: String?
        public var memoryBytes: Int64 = 33_554_432
        public var diskBytes: Int64 = 268_435_456
        public var concurrency: Int = 4

        /// The defaults.
        public init() {}
    }

    public var database = ":memory:"
    public var now: Instant?
    public var timeZone = "UTC"
    public var hour24: Bool
    public var firstWeekday = Weekday.monday
    public var sources = Sources()
    public var timeoutMs: Int = 10_000
    public var images = Images()
    /// Requests larger than this many bytes are refused (`invalid`) before parsing.
    public var maxRequestBytes: Int = 512 * 1024 * 1024
    /// Threads a large import parses on besides the calling thread: one per processor, at
    /// most 8; 0 parses on the calling thread alone.
    public var importThreads: Int

    /// The defaults, given what the host process says: whether its locale uses a 24-hour clock
    /// (`Clock.localeUses24Hour`) and how many processors it has.
    public init(hour24: Bool, processors: Int) {
        self.hour24 = hour24
        importThreads = min(8, max(0, processors))
    }

    /// Reads and validates a config object; unknown fields are ignored. The defaults come from
    /// the host process (see `init(hour24:processors:)`).
    public init(_ f: Fields, localeHour24: Bool, processors: Int) throws(CarFitError) {
        self.init(hour24: localeHour24, processors: processors)
        if let db = try f.string("database") {
            guard !db.isEmpty, !db.utf8.contains(0) else { throw .invalid("database", "database must be a file path or \":memory:\".") }
            database = db
        }
        if let text = try f.string("now") {
            guard let instant = Instant(iso: text) else {
                throw .invalid("now", "now must be an ISO 8601 instant such as \"2020-09-10T08:05:00Z\".")
            }
            now = instant
        }
        if let zone = try f.string("timeZone") {
            guard Clock.zone(named: zone) != nil else {
                throw .invalid("timeZone", "timeZone \"\(zone)\" is not a known IANA time zone.")
            }
            timeZone = zone
        }
        if let h = try f.bool("hour24") { hour24 = h }
        if let w = try f.string("firstWeekday") {
            guard let day = Weekday(rawValue: w) else {
                throw .invalid("firstWeekday", "firstWeekday must be \"monday\" or \"sunday\".")
            }
            firstWeekday = day
        }
        if let s = try f.object("sources") {
            sources.visits = try CoreConfig.url(s, "visits")
            sources.articles = try CoreConfig.url(s, "articles")
        }
        if let h = try f.object("http") {
            if let t = try h.int("timeoutMs", in: 1...600_000) { timeoutMs = Int(t) }
        }
        if let i = try f.object("images") {
            if let dir = try i.string("directory") {
                guard !dir.isEmpty, !dir.utf8.contains(0) else { throw .invalid(i.path("directory"), "images.directory must be a directory path.") }
                images.directory = dir
            }
            if let m = try i.int("memoryBytes", in: 0...(1 << 40)) { images.memoryBytes = m }
            if let d = try i.int("diskBytes", in: 0...(1 << 46)) { images.diskBytes = d }
            if let c = try i.int("concurrency", in: 1...64) { images.concurrency = Int(c) }
        }
        if let m = try f.int("maxRequestBytes", in: 1...(1 << 40)) { maxRequestBytes = Int(m) }
        if let t = try f.int("importThreads", in: 0...64) { importThreads = Int(t) }
    }

    /// An absolute http or https URL, or nil when absent.
    static func url(_ f: Fields, _ key: String) throws(CarFitError) -> String? {
        guard let text = try f.string(key) else { return nil }
        guard let url = URL(string: text), let scheme = url.scheme?.lowercased(),
              scheme == "http" || scheme == "https", let host = url.host, !host.isEmpty else {
            throw .invalid(f.path(key), "\(f.path(key)) must be an http or https URL.")
        }
        return text
    }

    /// The clock of this config: `now` if set, else `hostNow`, the host's clock.
    public func clock(hostNow: @escaping @Sendable () -> Instant) throws(CarFitError) -> Clock {
        try Clock(zoneName: timeZone, fixedNow: now, hour24: hour24, hostNow: hostNow)
    }
}
