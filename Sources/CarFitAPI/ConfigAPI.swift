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
        if let h = try f.bool("hour24") {
            hour24 = h
            hour24Given = true
        }
        if let tag = try f.string("locale") {
            guard let l = SupportedLocale(tag: tag) else {
                throw .invalid("locale", "locale \"\(NearestName.printable(tag))\" is not supported: use one of \(SupportedLocale.acceptedTags.joined(separator: ", ")) (case-insensitive, \"-\" or \"_\").")
            }
            locale = l
            if let first = display.firstWeekday { firstWeekday = first }
        }
        if let code = try f.string("currency") {
            guard let c = DisplayCurrency(code: code) else {
                throw .invalid("currency", "currency \"\(NearestName.printable(code))\" is not supported: use one of \(DisplayCurrency.allCases.map(\.rawValue).joined(separator: ", ")).")
            }
            currency = c
        }
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
            if let t = try h.int("timeoutMs", in: ConfigLimits.httpTimeoutMs) { http.timeoutMs = Int(t) }
            if let t = try h.int("totalTimeoutMs", in: ConfigLimits.httpTotalTimeoutMs) { http.totalTimeoutMs = Int(t) }
            if let b = try h.int("maxBodyBytes", in: ConfigLimits.httpMaxBodyBytes) { http.maxBodyBytes = b }
            if let r = try h.int("minBytesPerSecond", in: ConfigLimits.httpMinBytesPerSecond) { http.minBytesPerSecond = Int(r) }
        }
        if let i = try f.object("images") {
            try ConfigReader.check(i, known: ConfigMembers.images)
            if let dir = try i.string("directory") {
                guard !dir.isEmpty, !dir.utf8.contains(0) else { throw .invalid(i.path("directory"), "images.directory must be a directory path.") }
                images.directory = dir
            }
            if let m = try i.int("memoryBytes", in: ConfigLimits.imagesMemoryBytes) { images.memoryBytes = m }
            if let d = try i.int("diskBytes", in: ConfigLimits.imagesDiskBytes) { images.diskBytes = d }
            if let c = try i.int("concurrency", in: ConfigLimits.imagesConcurrency) { images.concurrency = Int(c) }
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
            if let m = try a.int("maxBytes", in: ConfigLimits.attachmentsMaxBytes) { attachments.maxBytes = m }
            if let q = try a.int("quotaBytes", in: ConfigLimits.attachmentsQuotaBytes) { attachments.quotaBytes = q }
        }
        if let m = try f.int("maxRequestBytes", in: ConfigLimits.maxRequestBytes) { maxRequestBytes = Int(m) }
        if let t = try f.int("importThreads", in: ConfigLimits.importThreads) { importThreads = Int(t) }
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
        if let d = try f.int("keepDays", in: ConfigLimits.reportKeepDays) { keepDays = d }
        if let n = try f.int("minSamples", in: ConfigLimits.reportMinSamples) { minSamples = Int(n) }
    }
}

extension RemindersConfig {
    /// Reads `reminders`; every member is optional, an unknown one is `invalid`.
    public init(_ f: Fields) throws(CarFitError) {
        self.init()
        try ConfigReader.check(f, known: ConfigMembers.reminders)
        if let b = try f.int("bufferMinutes", in: ConfigLimits.remindersBufferMinutes) { bufferMinutes = b }
        if let s = try f.number("speedKmh", within: ConfigLimits.remindersSpeedKmh) { speedKmh = s }
        if let d = try f.number("detourFactor", within: ConfigLimits.remindersDetourFactor) { detourFactor = d }
        if let a = try f.int("positionMaxAgeSeconds", in: ConfigLimits.remindersPositionMaxAgeSeconds) { positionMaxAgeSeconds = a }
    }
}

extension RoadConfig {
    /// Reads `road`; every member is optional, an unknown one is `invalid`.
    public init(_ f: Fields) throws(CarFitError) {
        self.init()
        try ConfigReader.check(f, known: ConfigMembers.road)
        if let r = try f.number("arrivalRadiusMeters", within: ConfigLimits.roadArrivalRadiusMeters) { arrivalRadiusMeters = r }
        if let d = try f.int("dwellSeconds", in: ConfigLimits.roadDwellSeconds) { dwellSeconds = d }
        if let a = try f.number("maxAccuracyMeters", within: ConfigLimits.roadMaxAccuracyMeters) { maxAccuracyMeters = a }
        if let m = try f.number("minDistanceMeters", within: ConfigLimits.roadMinDistanceMeters) { minDistanceMeters = m }
        if let s = try f.int("minIntervalSeconds", in: ConfigLimits.roadMinIntervalSeconds) { minIntervalSeconds = s }
        if let a = try f.bool("autoStart") { autoStart = a }
        if let t = try f.int("trailDays", in: ConfigLimits.roadTrailDays) { trailDays = t }
    }
}

extension Fields {
    /// A finite number within `bounds` (the schema's, `ConfigLimits`), or nil when absent.
    func number(_ key: String, within bounds: ConfigLimits.Bounds) throws(CarFitError) -> Double? {
        if let range = bounds.closed { return try number(key, in: range) }
        guard let value = try number(key, in: -Double.greatestFiniteMagnitude...Double.greatestFiniteMagnitude) else { return nil }
        guard bounds.contains(value) else {
            let low = bounds.lowIncluded ? "at least \(ConfigReader.text(bounds.low))" : "more than \(ConfigReader.text(bounds.low))"
            let high = bounds.highIncluded ? "at most \(ConfigReader.text(bounds.high))" : "less than \(ConfigReader.text(bounds.high))"
            throw .invalid(path(key), "\(path(key)) must be \(low) and \(high).")
        }
        return value
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

    /// A bound as a message writes it: 300, 0.5.
    static func text(_ value: Double) -> String {
        if value.rounded() == value, let whole = Int64(exactly: value) { return String(whole) }
        return String(value)
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
