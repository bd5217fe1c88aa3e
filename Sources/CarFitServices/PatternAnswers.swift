import CarFitCore
import CarFitSystem

/// The answers of a patterns refresh's parallel requests: hands out request numbers until
/// `count` are taken and collects each one's patterns or failure, under a lock.
final class PatternAnswers: @unchecked Sendable {
    private let lock = Lock()
    private let count: Int
    private var taken = 0
    private var patterns: [Pattern] = []
    private var failures: [CarFitError] = []

    init(count: Int) { self.count = count }

    /// The next request's number, or nil once every request is taken.
    func next() -> Int? {
        lock.lock()
        defer { lock.unlock() }
        guard taken < count else { return nil }
        taken += 1
        return taken
    }

    func add(_ answer: Result<[Pattern], CarFitError>) {
        lock.lock()
        defer { lock.unlock() }
        switch answer {
        case .success(let found): patterns.append(contentsOf: found)
        case .failure(let error): failures.append(error)
        }
    }

    var results: ([Pattern], [CarFitError]) {
        lock.lock()
        defer { lock.unlock() }
        return (patterns, failures)
    }
}
