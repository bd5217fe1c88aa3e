/// The time a task takes, learned from the washer's finished visits (`report.durations`).
///
/// Each occurrence with a start and a later finish shares its worked time (unrounded) among its
/// tasks in proportion to their planned minutes (a task planned at 0 gets none; a task without a
/// title is no sample); each share is one sample of its title (compared trimmed). A title's
/// newest `window` samples by finish count. Every share is an exact fraction of minutes, so
/// neither the order statistics nor their rounding depend on floating point.
public enum TaskDurations {
    /// How many of a title's newest samples count.
    public static let window = 50

    /// An exact number of minutes: `numerator / denominator`, both non-negative, the
    /// denominator above 0.
    public struct Minutes: Sendable, Equatable, Comparable {
        public var numerator: Int128
        public var denominator: Int128

        public init(_ numerator: Int128, over denominator: Int128) {
            self.numerator = numerator
            self.denominator = denominator
        }

        public static func < (a: Minutes, b: Minutes) -> Bool {
            a.numerator * b.denominator < b.numerator * a.denominator
        }

        public static func == (a: Minutes, b: Minutes) -> Bool {
            a.numerator * b.denominator == b.numerator * a.denominator
        }

        /// The value in tenths of a minute, rounded half up.
        public var tenths: Int64 {
            Int64(clamping: (20 * numerator + denominator) / (2 * denominator))
        }

        /// The value rounded to 0.1 minute, half up.
        public var roundedToTenth: Double { Double(tenths) / 10 }

        /// The value rounded up to a whole minute.
        public var ceiling: Int64 { Int64(clamping: (numerator + denominator - 1) / denominator) }

        /// The sum, reduced; past 128 bits (many tasks of unrelated planned totals) the sum is
        /// taken in millionths of a minute instead of trapping.
        public static func + (a: Minutes, b: Minutes) -> Minutes {
            let (ad, o1) = a.numerator.multipliedReportingOverflow(by: b.denominator)
            let (bc, o2) = b.numerator.multipliedReportingOverflow(by: a.denominator)
            let (n, o3) = ad.addingReportingOverflow(bc)
            let (d, o4) = a.denominator.multipliedReportingOverflow(by: b.denominator)
            guard !(o1 || o2 || o3 || o4) else {
                let value = (a.approximate + b.approximate) * 1_000_000
                return Minutes(Int128(min(max(value.rounded(.up), 0), 1e30)), over: 1_000_000)
            }
            let g = gcd(n, d)
            return g > 1 ? Minutes(n / g, over: d / g) : Minutes(n, over: d)
        }

        /// The value as a double (inexact).
        public var approximate: Double { Double(numerator) / Double(denominator) }

        /// Whole minutes.
        public init(whole: Int) { self.init(Int128(whole), over: 1) }

        static func gcd(_ a: Int128, _ b: Int128) -> Int128 {
            var (x, y) = (a < 0 ? -a : a, b < 0 ? -b : b)
            while y != 0 { (x, y) = (y, x % y) }
            return x
        }
    }

    /// One share of an occurrence's worked time.
    public struct Sample: Sendable, Equatable {
        public var title: String
        public var minutes: Minutes
        public var plannedMinutes: Int
        public var finishedAt: Instant
        /// Ties in `finishedAt` go by the occurrence's key text, then the task's position.
        public var key: String
        public var position: Int
    }

    /// A title's learned duration.
    public struct Task: Sendable, Equatable {
        public var title: String
        /// The samples that count (at most `window`).
        public var samples: Int
        /// The task's planned minutes in its newest sample.
        public var plannedMinutes: Int
        /// The ceil(n/2)-th smallest sample.
        public var median: Minutes
        /// The ceil(0.8 n)-th smallest sample.
        public var p80: Minutes
    }

    /// The samples of one finished occurrence (none when its worked time is not above 0 or its
    /// tasks are planned at 0 in all).
    public static func samples(of visit: FinishedVisit) -> [Sample] {
        let worked = Int128(visit.finishedAt.milliseconds) - Int128(visit.startedAt.milliseconds)
        guard worked > 0 else { return [] }
        let total = visit.tasks.reduce(Int128(0)) { $0 + Int128(max(0, $1.minutes)) }
        guard total > 0 else { return [] }
        var out: [Sample] = []
        for (i, task) in visit.tasks.enumerated() {
            let title = task.title.trimmed
            guard task.minutes > 0, !title.isEmpty else { continue }
            out.append(Sample(title: title, minutes: Minutes(worked * Int128(task.minutes), over: 60_000 * total),
                              plannedMinutes: task.minutes, finishedAt: visit.finishedAt, key: visit.key, position: i))
        }
        return out
    }

    /// The learned durations of `visits`' samples, sorted by title (code points).
    public static func tasks(_ visits: [FinishedVisit]) -> [Task] {
        var byTitle: [String: [Sample]] = [:]
        for visit in visits {
            for sample in samples(of: visit) { byTitle[sample.title, default: []].append(sample) }
        }
        var out: [Task] = []
        out.reserveCapacity(byTitle.count)
        for (title, all) in byTitle {
            let newest = all.sorted(by: newer).prefix(window)
            guard let first = newest.first else { continue }
            let sorted = newest.map(\.minutes).sorted()
            let n = sorted.count
            out.append(Task(title: title, samples: n, plannedMinutes: first.plannedMinutes,
                            median: sorted[rank(n, numerator: 1, denominator: 2) - 1],
                            p80: sorted[rank(n, numerator: 4, denominator: 5) - 1]))
        }
        out.sort { $0.title.unicodeScalars.lexicographicallyPrecedes($1.title.unicodeScalars) }
        return out
    }

    /// ceil(n × numerator / denominator), at least 1 and at most n (n ≥ 1): the nearest rank.
    public static func rank(_ n: Int, numerator: Int, denominator: Int) -> Int {
        min(n, max(1, (n * numerator + denominator - 1) / denominator))
    }

    /// Newest first: the later finish, then the smaller key, then the earlier task.
    static func newer(_ a: Sample, _ b: Sample) -> Bool {
        if a.finishedAt != b.finishedAt { return b.finishedAt < a.finishedAt }
        if a.key != b.key { return a.key.utf8.lexicographicallyPrecedes(b.key.utf8) }
        return a.position < b.position
    }

    /// A stop's learned service minutes: the sum over its tasks of the title's exact median when
    /// it has at least `minSamples` samples, else the task's planned minutes, rounded up to a
    /// whole minute. `learned` holds the tasks by title.
    public static func serviceMinutes(_ tasks: [PlannedTask], learned: [String: Task], minSamples: Int) -> Int {
        var sum = Minutes(whole: 0)
        for task in tasks {
            if let known = learned[task.title.trimmed], known.samples >= minSamples {
                sum = sum + known.median
            } else {
                sum = sum + Minutes(whole: max(0, task.minutes))
            }
        }
        return Int(clamping: sum.ceiling)
    }
}
