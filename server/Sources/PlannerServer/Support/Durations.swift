/// How long each task takes, learned from the washers' Done visits: a visit's worked minutes
/// (finish minus start) shared among its tasks in proportion to their planned minutes (tasks
/// planned at 0 get none), each share one sample of its title; the newest 50 samples of a title
/// count; median and p80 by nearest rank, rounded to 0.1 minute.
public enum Durations {
    public struct Task: Sendable, Equatable {
        public var title: String
        public var samples: Int
        public var median: Double
        public var p80: Double
    }

    /// `visits` newest finish first.
    public static func learn(from visits: [VisitRow], keep: Int = 50) -> [Task] {
        var samples: [String: [Double]] = [:]
        for visit in visits {
            guard let started = visit.startedMs, let finished = visit.finishedMs, finished > started else { continue }
            let worked = Double(finished - started) / 60_000
            let tasks = visit.tasks
            let planned = tasks.reduce(0) { $0 + $1.minutes }
            guard planned > 0 else { continue }
            for task in tasks where task.minutes > 0 && !task.title.isEmpty {
                if samples[task.title, default: []].count < keep {
                    samples[task.title, default: []].append(worked * task.minutes / planned)
                }
            }
        }
        return samples.keys.sorted { $0.unicodeScalars.lexicographicallyPrecedes($1.unicodeScalars) }.compactMap { title in
            let sorted = (samples[title] ?? []).sorted()
            guard !sorted.isEmpty else { return nil }
            let n = sorted.count
            // Nearest rank: the ceil(n/2)-th and ceil(4n/5)-th smallest.
            func rank(_ k: Int) -> Double { (sorted[min(n, max(1, k)) - 1] * 10).rounded(.toNearestOrAwayFromZero) / 10 }
            return Task(title: title, samples: n, median: rank((n + 1) / 2), p80: rank((4 * n + 4) / 5))
        }
    }
}
