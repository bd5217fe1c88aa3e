import CarFitCore
import CarFitIO

// The config document of `carfit_open`, read into the domain's typed `CoreConfig` (with its
// `RoadConfig`): every member checked, an unknown one refused with the nearest known name.

extension CoreConfig {
    /// Reads and validates a config object; a member not in `ConfigMembers` is `invalid`, in
    /// the config itself and inside `sources`, `http` and `images`. The defaults come from the
    /// host process (see `init(hour24:processors:zoneinfo:)`); the zone files from `zoneFiles`.
    public init(_ f: Fields, localeHour24: Bool, processors: Int, zoneFiles: any ZoneFiles) throws(CarFitError) {
        self.init(hour24: localeHour24, processors: processors, zoneinfo: zoneFiles.defaultDirectory)
        try ConfigReader.check(f, known: ConfigMembers.root)
        if let db = try f.string("database") {
            guard !db.isEmpty, !db.utf8.contains(0) else { throw .invalid("database", "database must be a file path or \":memory:\".") }
            database = db
        }
        if let e = try f.object("encryption") {
            try ConfigReader.check(e, known: ConfigMembers.encryption)
            // The message never quotes the key.
            guard let text = try e.string("key"), let key = EncryptionKey(hex: text) else {
                throw .invalid(e.path("key"), "encryption.key must be 64 hexadecimal digits (a 256-bit key).")
            }
            encryptionKey = key
        }
        if let text = try f.string("now") {
            guard let instant = Instant(iso: text) else {
                throw .invalid("now", "now must be an ISO 8601 instant such as \"2020-09-10T08:05:00Z\".")
            }
            now = instant
        }
        if let dir = try f.string("zoneinfo") {
            guard zoneFiles.isDirectory(dir) else { throw .invalid("zoneinfo", "zoneinfo must name a directory of time zone files.") }
            zoneinfo = dir
        }
        if let name = try f.string("timeZone") {
            guard let rules = ZoneInfo.rules(named: name, in: zoneinfo, files: zoneFiles) else {
                throw .invalid("timeZone", "timeZone \"\(NearestName.printable(name))\" is not a time zone file under \(zoneinfo).")
            }
            timeZone = name
            zone = rules
        }
        if let h = try f.bool("hour24") { hour24 = h }
        if let w = try f.string("firstWeekday") {
            guard let day = Weekday(rawValue: w) else {
                throw .invalid("firstWeekday", "firstWeekday must be \"monday\" or \"sunday\".")
            }
            firstWeekday = day
        }
        if let s = try f.object("sources") {
            try ConfigReader.check(s, known: ConfigMembers.sources)
            sources.visits = try ConfigReader.url(s, "visits")
            sources.articles = try ConfigReader.url(s, "articles")
            sources.catalog = try ConfigReader.url(s, "catalog")
            sources.patterns = try ConfigReader.url(s, "patterns")
            sources.visitUpdates = try ConfigReader.url(s, "visitUpdates")
            sources.locations = try ConfigReader.url(s, "locations")
            sources.attachments = try ConfigReader.url(s, "attachments")
            sources.devices = try ConfigReader.url(s, "devices")
        }
        if let h = try f.object("http") {
            try ConfigReader.check(h, known: ConfigMembers.http)
            if let t = try h.int("timeoutMs", in: 1...600_000) { http.timeoutMs = Int(t) }
            if let t = try h.int("totalTimeoutMs", in: 1...3_600_000) { http.totalTimeoutMs = Int(t) }
            if let b = try h.int("maxBodyBytes", in: 1...(1 << 40)) { http.maxBodyBytes = b }
            if let r = try h.int("minBytesPerSecond", in: 0...(1 << 40)) { http.minBytesPerSecond = Int(r) }
        }
        if let i = try f.object("images") {
            try ConfigReader.check(i, known: ConfigMembers.images)
            if let dir = try i.string("directory") {
                guard !dir.isEmpty, !dir.utf8.contains(0) else { throw .invalid(i.path("directory"), "images.directory must be a directory path.") }
                images.directory = dir
            }
            if let m = try i.int("memoryBytes", in: 0...(1 << 40)) { images.memoryBytes = m }
            if let d = try i.int("diskBytes", in: 0...(1 << 46)) { images.diskBytes = d }
            if let c = try i.int("concurrency", in: 1...64) { images.concurrency = Int(c) }
        }
        if let a = try f.object("auth") {
            try ConfigReader.check(a, known: ConfigMembers.auth)
            auth.origins = try ConfigReader.origins(a, "origins")
        }
        if let a = try f.object("attachments") {
            try ConfigReader.check(a, known: ConfigMembers.attachments)
            if let dir = try a.string("directory") {
                guard !dir.isEmpty, !dir.utf8.contains(0) else {
                    throw .invalid(a.path("directory"), "attachments.directory must be a directory path.")
                }
                attachments.directory = dir
            }
            if let m = try a.int("maxBytes", in: 1...(1 << 40)) { attachments.maxBytes = m }
            if let q = try a.int("quotaBytes", in: 1...(1 << 50)) { attachments.quotaBytes = q }
        }
        if let m = try f.int("maxRequestBytes", in: 1...(1 << 40)) { maxRequestBytes = Int(m) }
        if let t = try f.int("importThreads", in: 0...64) { importThreads = Int(t) }
        if let r = try f.object("road") { road = try RoadConfig(r) }
        if let r = try f.object("report") { report = try ReportConfig(r) }
        if let r = try f.object("reminders") { reminders = try RemindersConfig(r) }
    }
}

extension ReportConfig {
    /// Reads `report`; every member is optional, an unknown one is `invalid`.
    public init(_ f: Fields) throws(CarFitError) {
        self.init()
        try ConfigReader.check(f, known: ConfigMembers.report)
        if let d = try f.int("keepDays", in: 1...3_650) { keepDays = d }
        if let n = try f.int("minSamples", in: 1...50) { minSamples = Int(n) }
    }
}

extension RemindersConfig {
    /// Reads `reminders`; every member is optional, an unknown one is `invalid`.
    public init(_ f: Fields) throws(CarFitError) {
        self.init()
        try ConfigReader.check(f, known: ConfigMembers.reminders)
        if let b = try f.int("bufferMinutes", in: 0...240) { bufferMinutes = b }
        if let s = try f.number("speedKmh", in: -Double.greatestFiniteMagnitude...Double.greatestFiniteMagnitude) {
            guard s > 0, s <= 300 else { throw .invalid(f.path("speedKmh"), "\(f.path("speedKmh")) must be more than 0 and at most 300 (km/h).") }
            speedKmh = s
        }
        if let d = try f.number("detourFactor", in: 1...10) { detourFactor = d }
        if let a = try f.int("positionMaxAgeSeconds", in: 0...86_400) { positionMaxAgeSeconds = a }
    }
}

extension RoadConfig {
    /// Reads `road`; every member is optional, an unknown one is `invalid`.
    public init(_ f: Fields) throws(CarFitError) {
        self.init()
        try ConfigReader.check(f, known: ConfigMembers.road)
        if let r = try f.number("arrivalRadiusMeters", in: 1...100_000) { arrivalRadiusMeters = r }
        if let d = try f.int("dwellSeconds", in: 0...86_400) { dwellSeconds = d }
        if let a = try f.number("maxAccuracyMeters", in: 0...10_000) { maxAccuracyMeters = a }
        if let m = try f.number("minDistanceMeters", in: 0...100_000) { minDistanceMeters = m }
        if let s = try f.int("minIntervalSeconds", in: 0...86_400) { minIntervalSeconds = s }
        if let a = try f.bool("autoStart") { autoStart = a }
        if let t = try f.int("trailDays", in: 0...3_650) { trailDays = t }
    }
}

/// What the config's reader shares: the refusal of unknown members and the values read the
/// same way in several places.
enum ConfigReader {
    /// Refuses the first member of `f` (in document order) that is not in `known`: `invalid`,
    /// the member's dotted path as `field`, and a message suggesting the nearest known name
    /// when one is close (a typo or a difference of case), else listing the known names.
    static func check(_ f: Fields, known: [String]) throws(CarFitError) {
        for key in f.object.keys where !known.contains(key) {
            let shown = f.path(NearestName.printable(key))
            if let near = NearestName.nearest(to: key, among: known) {
                throw .invalid(f.path(key), "Unknown config member \(shown): did you mean \(f.path(near))?")
            }
            let names = known.joined(separator: ", ")
            let within = f.path.isEmpty ? "the config" : f.path
            throw .invalid(f.path(key), "Unknown config member \(shown): \(within) takes \(names).")
        }
    }

    /// An absolute http or https URL, or nil when absent.
    static func url(_ f: Fields, _ key: String) throws(CarFitError) -> String? {
        guard let text = try f.string(key) else { return nil }
        guard HTTPURL.isValid(text) else {
            throw .invalid(f.path(key), "\(f.path(key)) must be an http or https URL.")
        }
        return text
    }

    /// An array of origins (`"https://planner.example:8443"`), or nil when absent; an element
    /// that is not an origin is `invalid` with its path (`auth.origins[1]`).
    static func origins(_ f: Fields, _ key: String) throws(CarFitError) -> [Origin]? {
        guard let items = try f.array(key) else { return nil }
        var origins: [Origin] = []
        for (i, item) in items.enumerated() {
            let field = "\(f.path(key))[\(i)]"
            guard case .string(let text) = item, let origin = Origin(text: text) else {
                throw .invalid(field, "\(field) must be an origin: http or https, a host and an optional port, such as \"https://planner.example:8443\" (no path).")
            }
            origins.append(origin)
        }
        return origins
    }
}
