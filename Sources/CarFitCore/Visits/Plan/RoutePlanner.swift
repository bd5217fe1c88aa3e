/// Orders a day's stops: as short a drive as can be found quickly, with no more late stops than
/// the start-time order, and never longer than the start-time order.
///
/// - Days without windows of up to `exactWithoutWindows` stops: Held–Karp dynamic programming
///   over subsets, the shortest order exactly.
/// - Days with windows of up to `exactWithWindows` stops: depth-first branch and bound over
///   orders (bounded by the heuristic's route and a lower bound of the remaining legs, pruned on
///   late stops), exact unless the node budget runs out.
/// - Larger days: nearest-neighbour constructions and the start-time order, each improved by
///   2-opt and or-opt moves (segments of 1–3 stops, either direction) towards each stop's
///   nearest neighbours that keep the late-stop limit, then an iterated local search
///   (deterministic double-bridge kicks, up to 5 per stop) while the work budget lasts.
///
/// All work is bounded (`Limits.work`, one unit ≈ one move evaluated; `branchNodes`; `kicks`),
/// so every day plans in bounded time whatever its size or shape; results are deterministic.
public enum RoutePlanner {
    public struct Limits: Sendable, Equatable {
        public var exactWithoutWindows: Int
        public var exactWithWindows: Int
        /// Search nodes the branch and bound may visit.
        public var branchNodes: Int
        /// Work units of the heuristic.
        public var work: Int
        /// Kicks of the iterated local search (0 = plain local search).
        public var kicks: Int

        public init(exactWithoutWindows: Int = 12, exactWithWindows: Int = 10, branchNodes: Int = 200_000,
                    work: Int = 2_500_000, kicks: Int = 1_000) {
            self.exactWithoutWindows = exactWithoutWindows
            self.exactWithWindows = exactWithWindows
            self.branchNodes = branchNodes
            self.work = work
            self.kicks = kicks
        }

        public static let standard = Limits()
        /// Only the heuristic (for measuring it against exact search).
        public static let heuristicOnly = Limits(exactWithoutWindows: 0, exactWithWindows: 0)
    }

    /// The planned order of the stops (a permutation of `0..<problem.count`).
    public static func plan(_ problem: RouteProblem, limits: Limits = .standard) -> [Int] {
        let n = problem.count
        let original = Array(0..<n)
        guard n > 1 else { return original }
        let lateLimit = problem.lateCount(original)

        var candidate: [Int]
        if !problem.hasWindows && n <= limits.exactWithoutWindows && n <= 16 {
            candidate = heldKarp(problem)
        } else {
            candidate = heuristic(problem, lateLimit: lateLimit, limits: limits)
            if problem.hasWindows && n <= limits.exactWithWindows && n <= 20 {
                candidate = branchAndBound(problem, lateLimit: lateLimit, incumbent: candidate,
                                           nodes: limits.branchNodes)
            }
        }
        // Never worse than the start-time order: shorter, or as short with fewer late stops.
        guard problem.isRoute(candidate) else { return original }
        let late = problem.lateCount(candidate)
        guard late <= lateLimit else { return original }
        let length = problem.unsafeLength(candidate)
        let originalLength = problem.unsafeLength(original)
        if length < originalLength || (length == originalLength && late < lateLimit) { return candidate }
        return original
    }

    // MARK: - Exact: Held–Karp (no windows)

    /// The shortest open route from the start point (or from anywhere without one).
    static func heldKarp(_ p: RouteProblem) -> [Int] {
        let n = p.count
        guard n > 1, n <= 16 else { return Array(0..<max(0, n)) }
        let full = (1 << n) - 1
        let infinity = Int.max / 4
        var cost = [Int](repeating: infinity, count: (full + 1) * n)
        var parent = [Int](repeating: -1, count: (full + 1) * n)
        for j in 0..<n { cost[(1 << j) * n + j] = p.d(p.startNode, j) }
        for mask in 1...full {
            for last in 0..<n where mask & (1 << last) != 0 {
                let here = cost[mask * n + last]
                if here >= infinity { continue }
                for next in 0..<n where mask & (1 << next) == 0 {
                    let m = mask | (1 << next)
                    let c = here + p.d(last, next)
                    if c < cost[m * n + next] {
                        cost[m * n + next] = c
                        parent[m * n + next] = last
                    }
                }
            }
        }
        var last = 0
        for j in 1..<n where cost[full * n + j] < cost[full * n + last] { last = j }
        var order: [Int] = []
        var mask = full
        while order.count < n, last >= 0, last < n {
            order.append(last)
            let previous = parent[mask * n + last]
            mask &= ~(1 << last)
            last = previous
        }
        order.reverse()
        return order
    }

    // MARK: - Exact: branch and bound (windows)

    /// The shortest route with at most `lateLimit` late stops (and among the shortest, the one
    /// with fewest late stops), searching at most `nodes` nodes; `incumbent` (a valid route
    /// within the limit) bounds the search and is kept if nothing better is found.
    static func branchAndBound(_ p: RouteProblem, lateLimit: Int, incumbent: [Int], nodes: Int) -> [Int] {
        let n = p.count
        guard n > 1, n <= 20, p.isRoute(incumbent) else { return incumbent }
        var best = incumbent
        let incumbentLate = p.lateCount(incumbent)
        var bestLength = incumbentLate <= lateLimit ? p.unsafeLength(incumbent) : Int.max
        var bestLate = incumbentLate <= lateLimit ? incumbentLate : Int.max
        var path = [Int](repeating: 0, count: n)
        var used = [Bool](repeating: false, count: n)
        var budget = nodes

        // A lower bound of the legs still to drive: each unvisited stop is entered once, from the
        // current stop or another unvisited one.
        func remainingBound(_ last: Int) -> Int {
            var bound = 0
            for v in 0..<n where !used[v] {
                var cheapest = p.d(last, v)
                for u in 0..<n where u != v && !used[u] {
                    let c = p.d(u, v)
                    if c < cheapest { cheapest = c }
                }
                bound += cheapest
            }
            return bound
        }

        // Only a shorter route, or one as short with fewer late stops, is worth finding. Ties
        // can be many (stops at one address), so looking among them has a budget of its own.
        var tieBudget = max(0, nodes / 20)
        func hopeless(_ bound: Int, _ late: Int) -> Bool {
            if bound < bestLength { return false }
            if bound > bestLength || late >= bestLate || tieBudget <= 0 { return true }
            tieBudget -= 1
            return false
        }

        func search(_ depth: Int, _ last: Int, _ time: Double, _ length: Int, _ late: Int) {
            if depth == n {
                if length < bestLength || (length == bestLength && late < bestLate) {
                    bestLength = length
                    bestLate = late
                    best = path
                }
                return
            }
            budget -= 1
            if budget < 0 { return }
            if hopeless(length + remainingBound(last), late) { return }
            // Nearest stops first: good routes are found early and prune the rest.
            var choices: [Int] = []
            for v in 0..<n where !used[v] { choices.append(v) }
            choices.sort { (p.d(last, $0), $0) < (p.d(last, $1), $1) }
            for v in choices {
                let newLength = length + p.d(last, v)
                if newLength > bestLength { continue }
                var arrival = time + p.travel(last, v)
                if arrival < p.opens[v] { arrival = p.opens[v] }
                let newLate = late + (RouteProblem.isLate(arrival: arrival, closes: p.closes[v]) ? 1 : 0)
                if newLate > lateLimit || hopeless(newLength, newLate) { continue }
                used[v] = true
                path[depth] = v
                search(depth + 1, v, arrival + p.service[v], newLength, newLate)
                used[v] = false
                if budget < 0 { return }
            }
        }
        search(0, p.startNode, p.startMinute, 0, 0)
        return best
    }

    // MARK: - Heuristic

    /// Nearest-neighbour routes and the start-time order, improved by local search, then by an
    /// iterated local search; the best route within the late-stop limit (the start-time order
    /// at worst).
    static func heuristic(_ p: RouteProblem, lateLimit: Int, limits: Limits) -> [Int] {
        let n = p.count
        let original = Array(0..<n)
        guard n > 1 else { return original }
        var search = LocalSearch(problem: p, lateLimit: lateLimit, work: max(0, limits.work))

        var starts: [[Int]] = [original]
        if p.hasStart {
            starts.append(nearestNeighbour(p, first: nil))
        } else {
            starts.append(nearestNeighbour(p, first: 0))
            var far = 0
            for j in 1..<n where p.d(0, j) > p.d(0, far) { far = j }
            if far != 0 { starts.append(nearestNeighbour(p, first: far)) }
        }

        var best = original
        var bestLength = p.unsafeLength(original)
        for start in starts where p.lateCount(start, limit: lateLimit) <= lateLimit {
            let improved = search.improve(start)
            let length = p.unsafeLength(improved)
            if length < bestLength {
                best = improved
                bestLength = length
            }
        }
        // Small days settle within a few kicks per stop; the cap keeps large ones bounded.
        return search.iterate(best, kicks: min(limits.kicks, 5 * n))
    }

    /// Always drive to the nearest stop not yet visited; from the start point, or from `first`.
    static func nearestNeighbour(_ p: RouteProblem, first: Int?) -> [Int] {
        let n = p.count
        var used = [Bool](repeating: false, count: n)
        var order: [Int] = []
        order.reserveCapacity(n)
        var last = p.startNode
        if let first, first >= 0, first < n {
            used[first] = true
            order.append(first)
            last = first
        }
        while order.count < n {
            var next = -1
            var nextDistance = Int.max
            for v in 0..<n where !used[v] {
                let c = p.d(last, v)
                if c < nextDistance {
                    next = v
                    nextDistance = c
                }
            }
            guard next >= 0 else { break }
            used[next] = true
            order.append(next)
            last = next
        }
        return order
    }
}
