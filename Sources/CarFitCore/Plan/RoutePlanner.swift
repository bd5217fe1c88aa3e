/// Orders a day's stops: as short a drive as can be found quickly, with no more late stops than
/// the start-time order, and never longer than the start-time order.
///
/// - Days without windows of up to `exactWithoutWindows` stops: Held–Karp dynamic programming
///   over subsets, the shortest order exactly.
/// - Days with windows of up to `exactWithWindows` stops: depth-first branch and bound over
///   orders (bounded by the heuristic's route and a lower bound of the remaining legs, pruned on
///   late stops), exact unless the node budget runs out.
/// - Larger days: nearest-neighbour constructions and the start-time order, each improved by
///   2-opt and or-opt moves (segments of 1–3 stops, either direction) that keep the late-stop
///   limit, then iterated with deterministic double-bridge kicks while the work budget lasts.
///
/// All work is bounded by `Limits.work` (one unit ≈ one move evaluated), so every day plans in
/// bounded time whatever its size or shape; results are deterministic.
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

        public init(exactWithoutWindows: Int = 12, exactWithWindows: Int = 10, branchNodes: Int = 2_000_000,
                    work: Int = 12_000_000, kicks: Int = 200) {
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

    /// The shortest route with at most `lateLimit` late stops, searching at most `nodes` nodes;
    /// `incumbent` (a valid route within the limit) bounds the search and is kept if nothing
    /// shorter is found.
    static func branchAndBound(_ p: RouteProblem, lateLimit: Int, incumbent: [Int], nodes: Int) -> [Int] {
        let n = p.count
        guard n > 1, n <= 20, p.isRoute(incumbent) else { return incumbent }
        var best = incumbent
        var bestLength = p.lateCount(incumbent) <= lateLimit ? p.unsafeLength(incumbent) : Int.max
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

        func search(_ depth: Int, _ last: Int, _ time: Double, _ length: Int, _ late: Int) {
            if depth == n {
                if length < bestLength {
                    bestLength = length
                    best = path
                }
                return
            }
            budget -= 1
            if budget < 0 { return }
            if length + remainingBound(last) >= bestLength { return }
            // Nearest stops first: good routes are found early and prune the rest.
            var choices: [Int] = []
            for v in 0..<n where !used[v] { choices.append(v) }
            choices.sort { (p.d(last, $0), $0) < (p.d(last, $1), $1) }
            for v in choices {
                let newLength = length + p.d(last, v)
                if newLength >= bestLength { continue }
                var arrival = time + p.travel(last, v)
                if arrival < p.opens[v] { arrival = p.opens[v] }
                let newLate = late + (RouteProblem.isLate(arrival: arrival, closes: p.closes[v]) ? 1 : 0)
                if newLate > lateLimit { continue }
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

    /// Nearest-neighbour routes and the start-time order, improved by local search; the best
    /// route within the late-stop limit (the start-time order at worst).
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
            var route = [p.startNode] + start + [p.endNode]
            search.improve(&route)
            let stops = Array(route.dropFirst().dropLast())
            let length = p.unsafeLength(stops)
            if length < bestLength {
                best = stops
                bestLength = length
            }
        }
        return search.iterate(best, kicks: limits.kicks)
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

/// 2-opt and or-opt on a route written with its two ends: `[start, stops…, end]`. Moves are
/// taken when they shorten the route (exact integer metres, so every accepted move makes
/// progress) and keep the late-stop limit.
struct LocalSearch {
    let p: RouteProblem
    let lateLimit: Int
    var work: Int
    private var scratch: [Int] = []

    init(problem: RouteProblem, lateLimit: Int, work: Int) {
        p = problem
        self.lateLimit = lateLimit
        self.work = work
    }

    /// Whether a route (with its ends) keeps the late-stop limit; charges its cost to the budget.
    private mutating func feasible(_ route: [Int]) -> Bool {
        guard p.hasWindows else { return true }
        work -= route.count
        return p.lateCount(route, range: 1..<(route.count - 1), limit: lateLimit) <= lateLimit
    }

    /// Improves `route` until no move helps or the work budget is spent.
    mutating func improve(_ route: inout [Int]) {
        let n = route.count - 2
        guard n > 1 else { return }
        var improved = true
        while improved && work > 0 {
            improved = false
            if twoOpt(&route, n) { improved = true }
            if work <= 0 { break }
            if orOpt(&route, n) { improved = true }
        }
    }

    /// One pass of 2-opt: reverse `route[i...j]` when that shortens the route.
    private mutating func twoOpt(_ route: inout [Int], _ n: Int) -> Bool {
        var improved = false
        for i in 1..<n {
            work -= n - i
            if work <= 0 { return improved }
            for j in (i + 1)...n {
                let a = route[i - 1], b = route[i], c = route[j], e = route[j + 1]
                let delta = p.d(a, c) + p.d(b, e) - p.d(a, b) - p.d(c, e)
                guard delta < 0 else { continue }
                if p.hasWindows {
                    scratch = route
                    scratch[i...j].reverse()
                    if feasible(scratch) {
                        swap(&route, &scratch)
                        improved = true
                    }
                    if work <= 0 { return improved }
                } else {
                    route[i...j].reverse()
                    improved = true
                }
            }
        }
        return improved
    }

    /// One pass of or-opt: move a segment of 1–3 stops elsewhere, either way round.
    private mutating func orOpt(_ route: inout [Int], _ n: Int) -> Bool {
        var improved = false
        for k in 1...min(3, n - 1) {
            var i = 1
            while i + k - 1 <= n {
                work -= n
                if work <= 0 { return improved }
                let a = route[i - 1], s0 = route[i], s1 = route[i + k - 1], b = route[i + k]
                let removed = p.d(a, s0) + p.d(s1, b) - p.d(a, b)
                var bestDelta = 0
                var bestPosition = -1
                var bestReversed = false
                for position in 0...n where position < i - 1 || position > i + k - 1 {
                    let x = route[position], y = route[position + 1]
                    let base = p.d(x, y)
                    let forward = p.d(x, s0) + p.d(s1, y) - base - removed
                    let backward = p.d(x, s1) + p.d(s0, y) - base - removed
                    if forward < bestDelta {
                        bestDelta = forward
                        bestPosition = position
                        bestReversed = false
                    }
                    if backward < bestDelta {
                        bestDelta = backward
                        bestPosition = position
                        bestReversed = true
                    }
                }
                if bestPosition >= 0 {
                    var moved = route
                    var segment = Array(moved[i..<(i + k)])
                    if bestReversed { segment.reverse() }
                    moved.removeSubrange(i..<(i + k))
                    let at = bestPosition < i ? bestPosition + 1 : bestPosition + 1 - k
                    if at >= 1, at <= moved.count - 1 {
                        moved.insert(contentsOf: segment, at: at)
                        if moved.count == route.count, feasible(moved) {
                            route = moved
                            improved = true
                        }
                    }
                }
                i += 1
            }
        }
        return improved
    }

    /// Iterated local search: perturb the best route with a double-bridge kick, improve it, and
    /// keep it when it is shorter; stops after `kicks` kicks or when the work budget is spent.
    mutating func iterate(_ stops: [Int], kicks: Int) -> [Int] {
        let n = stops.count
        guard n >= 8 else { return stops }
        var best = stops
        var bestLength = p.unsafeLength(stops)
        var random = SplitMix64(seed: 0x5EED_CA2F_17 &+ UInt64(n))
        var kick = 0
        while kick < kicks && work > 0 {
            kick += 1
            // Three cut points 1 ≤ c1 < c2 < c3 ≤ n - 1 split the stops into A B C D; drive A C B D.
            let c1 = 1 + random.below(n - 3)
            let c2 = c1 + 1 + random.below(n - 2 - c1)
            let c3 = c2 + 1 + random.below(n - 1 - c2)
            let kicked = Array(best[0..<c1]) + Array(best[c2..<c3]) + Array(best[c1..<c2]) + Array(best[c3..<n])
            var route = [p.startNode] + kicked + [p.endNode]
            if p.hasWindows && !feasible(route) { continue }
            improve(&route)
            let candidate = Array(route.dropFirst().dropLast())
            let length = p.unsafeLength(candidate)
            if length < bestLength {
                best = candidate
                bestLength = length
            }
        }
        return best
    }
}

/// A small deterministic generator (SplitMix64) for the planner's kicks.
struct SplitMix64 {
    private var state: UInt64

    init(seed: UInt64) { state = seed }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE5_E9B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// A number in 0..<bound (0 when bound < 1).
    mutating func below(_ bound: Int) -> Int {
        guard bound > 1 else { return 0 }
        return Int(next() % UInt64(bound))
    }
}
