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

/// Local search on a route written with its two ends, `route = [start, stops…, end]`, with
/// `pos[node]` the position of each node. Moves: 2-opt (reverse a stretch) and or-opt (move 1–3
/// stops elsewhere, either way round), looked for only towards each stop's nearest neighbours,
/// driven by a queue of stops whose surroundings changed ("don't look" bits). A move is taken
/// when it shortens the route (exact integer metres, so every move makes progress) and keeps
/// the late-stop limit. Every step is charged to `work`; the search stops when it runs out.
struct LocalSearch {
    let p: RouteProblem
    let n: Int
    let lateLimit: Int
    var work: Int
    /// Neighbours kept per stop, and the lists (nearest first), `n × width`.
    let width: Int
    let neighbours: [Int]
    private(set) var route: [Int]
    private var pos: [Int]
    private var length = 0
    private var stack: [Int] = []
    private var queued: [Bool]
    /// With windows: the departure time at each position of `route` (position 0: the start
    /// minute) and the late stops up to each position, so a move is checked from where it
    /// changes the route.
    private var departures: [Double]
    private var lates: [Int]

    init(problem: RouteProblem, lateLimit: Int, work: Int, width: Int = 8) {
        p = problem
        n = problem.count
        self.lateLimit = lateLimit
        self.work = work
        let w = max(0, min(width, n - 1))
        self.width = w
        neighbours = LocalSearch.nearest(problem, width: w)
        route = [problem.startNode] + Array(0..<n) + [problem.endNode]
        pos = Array(0..<(n + 2))
        queued = [Bool](repeating: false, count: n)
        departures = [Double](repeating: problem.startMinute, count: n + 2)
        lates = [Int](repeating: 0, count: n + 2)
        self.work -= n * w
    }

    /// The `width` nearest other stops of each stop, nearest first (ties by number).
    private static func nearest(_ p: RouteProblem, width: Int) -> [Int] {
        let n = p.count
        guard width > 0 else { return [] }
        var lists = [Int](repeating: 0, count: n * width)
        var near: [Int] = []
        near.reserveCapacity(width + 1)
        for a in 0..<n {
            near.removeAll(keepingCapacity: true)
            for b in 0..<n where b != a {
                let d = p.d(a, b)
                if near.count == width, let last = near.last, d >= p.d(a, last) { continue }
                var at = near.count
                while at > 0 && p.d(a, near[at - 1]) > d { at -= 1 }
                near.insert(b, at: at)
                if near.count > width { near.removeLast() }
            }
            for (k, b) in near.enumerated() where k < width { lists[a * width + k] = b }
        }
        return lists
    }

    private var stops: [Int] { Array(route[1...n]) }

    private mutating func load(_ stops: [Int]) {
        route = [p.startNode] + stops + [p.endNode]
        for (k, node) in route.enumerated() { pos[node] = k }
        length = p.unsafeLength(stops)
        refreshTimes(from: 1)
    }

    /// Recomputes `departures` and `lates` from position `lo` on (windows only).
    private mutating func refreshTimes(from lo: Int) {
        guard p.hasWindows, lo >= 1, lo <= n else { return }
        var time = departures[lo - 1]
        var late = lates[lo - 1]
        var previous = route[lo - 1]
        for k in lo...n {
            let s = route[k]
            time += p.travel(previous, s)
            if time < p.opens[s] { time = p.opens[s] }
            if RouteProblem.isLate(arrival: time, closes: p.closes[s]) { late += 1 }
            time += p.service[s]
            departures[k] = time
            lates[k] = late
            previous = s
        }
        work -= n - lo + 1
    }

    private mutating func push(_ node: Int) {
        guard node >= 0, node < n, !queued[node] else { return }
        queued[node] = true
        stack.append(node)
    }

    /// A route (a permutation of the stops) improved until no move helps or work runs out.
    mutating func improve(_ stops: [Int]) -> [Int] {
        guard n > 1, p.isRoute(stops) else { return stops }
        load(stops)
        for s in stops.reversed() { push(s) }
        improve()
        return self.stops
    }

    private mutating func improve() {
        while work > 0, let a = stack.popLast() {
            queued[a] = false
            if improve(around: a) { push(a) }
        }
        // Left over when work ran out: forget, so a later search starts clean.
        for a in stack { queued[a] = false }
        stack.removeAll(keepingCapacity: true)
    }

    /// Tries the moves that give stop `a` a nearer neighbour; applies the first that helps.
    private mutating func improve(around a: Int) -> Bool {
        let q = pos[a]
        guard n > 1, q >= 1, q <= n else { return false }
        let reach = max(p.d(route[q - 1], a), p.d(a, route[q + 1]))
        for t in 0..<width {
            let c = neighbours[a * width + t]
            if p.d(a, c) >= reach { break }
            let pc = pos[c]
            let (x, y) = q < pc ? (q, pc) : (pc, q)
            guard y - x >= 2 else { continue }
            if twoOpt(x + 1, y) || twoOpt(x, y - 1) { return true }
        }
        // Make `a` the first or the last stop.
        if q > 1 && twoOpt(1, q) { return true }
        if q < n && twoOpt(q, n) { return true }
        for k in 1...min(3, n - 1) {
            if orOpt(q, k) { return true }
            if k > 1 && q - k + 1 >= 1 && orOpt(q - k + 1, k) { return true }
        }
        return false
    }

    /// Whether the route with `route[lo..<lo + replacement.count]` replaced keeps the late-stop
    /// limit. Simulates from `lo` only; once the changed stretch and one more stop are driven,
    /// leaving no later than the current route means the rest is no later either.
    private mutating func fits(from lo: Int, _ replacement: [Int]) -> Bool {
        guard p.hasWindows else { return true }
        let hi = lo + replacement.count - 1
        guard lo >= 1, hi <= n, hi >= lo else { return false }
        var time = departures[lo - 1]
        var late = lates[lo - 1]
        var previous = route[lo - 1]
        var k = lo
        while k <= n {
            let s = k <= hi ? replacement[k - lo] : route[k]
            time += p.travel(previous, s)
            if time < p.opens[s] { time = p.opens[s] }
            if RouteProblem.isLate(arrival: time, closes: p.closes[s]) {
                late += 1
                if late > lateLimit { work -= k - lo + 1; return false }
            }
            time += p.service[s]
            previous = s
            if k > hi && time <= departures[k] {
                work -= k - lo + 1
                return late + (lates[n] - lates[k]) <= lateLimit
            }
            k += 1
        }
        work -= n - lo + 1
        return late <= lateLimit
    }

    /// Reverses `route[i...j]` when that shortens the route within the limit.
    private mutating func twoOpt(_ i: Int, _ j: Int) -> Bool {
        guard i >= 1, j <= n, i < j else { return false }
        work -= 1
        let a = route[i - 1], b = route[i], c = route[j], e = route[j + 1]
        let delta = p.d(a, c) + p.d(b, e) - p.d(a, b) - p.d(c, e)
        guard delta < 0 else { return false }
        if p.hasWindows {
            guard fits(from: i, route[i...j].reversed()) else { return false }
        }
        route[i...j].reverse()
        for k in i...j { pos[route[k]] = k }
        refreshTimes(from: i)
        work -= j - i
        length += delta
        push(a); push(b); push(c); push(e)
        return true
    }

    /// Moves the `k` stops at `route[i..<i+k]` next to a near neighbour of either end (or to
    /// the very start or end of the day), either way round, when that shortens the route within
    /// the limit.
    private mutating func orOpt(_ i: Int, _ k: Int) -> Bool {
        let e = i + k - 1
        guard i >= 1, k >= 1, e <= n, k < n else { return false }
        let before = route[i - 1], s0 = route[i], s1 = route[e], after = route[e + 1]
        let removed = p.d(before, s0) + p.d(s1, after) - p.d(before, after)
        guard removed > 0 else { return false }
        if tryPlace(0, i, k, removed) || tryPlace(n, i, k, removed) { return true }
        for side in 0..<2 {
            let end = side == 0 ? s0 : s1
            if side == 1 && s1 == s0 { break }
            for t in 0..<width {
                let c = neighbours[end * width + t]
                // The new edge to c alone must cost less than what leaving saves.
                if p.d(end, c) >= removed { break }
                let at = pos[c]
                if tryPlace(at - 1, i, k, removed) || tryPlace(at, i, k, removed) { return true }
            }
        }
        return false
    }

    /// Or-opt of `route[i..<i+k]` to between `route[place]` and `route[place + 1]`.
    private mutating func tryPlace(_ place: Int, _ i: Int, _ k: Int, _ removed: Int) -> Bool {
        let e = i + k - 1
        guard place >= 0, place <= n, place < i - 1 || place > e else { return false }
        work -= 1
        let before = route[i - 1], s0 = route[i], s1 = route[e], after = route[e + 1]
        let x = route[place], y = route[place + 1]
        let base = p.d(x, y)
        let forward = p.d(x, s0) + p.d(s1, y) - base - removed
        let backward = p.d(x, s1) + p.d(s0, y) - base - removed
        guard forward < 0 || backward < 0 else { return false }
        let reversed = backward < forward
        guard moveSegment(i, k, to: place, reversed: reversed) else { return false }
        length += reversed ? backward : forward
        push(before); push(after); push(s0); push(s1); push(x); push(y)
        return true
    }

    /// Moves `route[i..<i+k]` between `route[place]` and `route[place + 1]` (a place outside the
    /// segment), if the result keeps the late-stop limit.
    private mutating func moveSegment(_ i: Int, _ k: Int, to place: Int, reversed: Bool) -> Bool {
        let e = i + k - 1
        var segment = Array(route[i...e])
        if reversed { segment.reverse() }
        let lower: Int, upper: Int, replacement: [Int]
        if place < i {
            lower = place + 1
            upper = e
            replacement = segment + Array(route[(place + 1)..<i])
        } else {
            lower = i
            upper = place
            replacement = Array(route[(e + 1)...place]) + segment
        }
        guard lower >= 1, upper <= n, replacement.count == upper - lower + 1 else { return false }
        if p.hasWindows {
            guard fits(from: lower, replacement) else { return false }
        }
        route.replaceSubrange(lower...upper, with: replacement)
        for position in lower...upper { pos[route[position]] = position }
        refreshTimes(from: lower)
        work -= upper - lower + 1
        return true
    }

    /// Iterated local search from `stops`: swap two nearby stretches of the best route (a
    /// double bridge), improve around the cuts, keep the result when it is no longer; stops
    /// after `kicks` kicks or when the work budget is spent.
    mutating func iterate(_ stops: [Int], kicks: Int) -> [Int] {
        guard n >= 4, p.isRoute(stops) else { return stops }
        load(stops)
        var bestRoute = route
        var bestPos = pos
        var bestLength = length
        var bestDepartures = departures
        var bestLates = lates
        var random = SplitMix64(seed: 0x5EED_CA2F_17 &+ UInt64(n))
        let reach = max(1, min(50, n / 3))
        var kick = 0
        while kick < kicks && work > 0 {
            kick += 1
            // Stretches B = route[p1..<p2] and C = route[p2..<p3] trade places.
            let p1 = 1 + random.below(n - 1)
            let p2 = p1 + 1 + random.below(min(reach, n - p1))
            let p3 = p2 + 1 + random.below(min(reach, n + 1 - p2))
            guard p1 >= 1, p1 < p2, p2 < p3, p3 <= n + 1 else { continue }
            let delta = p.d(route[p1 - 1], route[p2]) + p.d(route[p3 - 1], route[p1]) + p.d(route[p2 - 1], route[p3])
                - p.d(route[p1 - 1], route[p1]) - p.d(route[p2 - 1], route[p2]) - p.d(route[p3 - 1], route[p3])
            if p.hasWindows {
                guard fits(from: p1, Array(route[p2..<p3]) + Array(route[p1..<p2])) else { continue }
            }
            // Trading places is a rotation of route[p1..<p3]: reverse B, reverse C, reverse both.
            route[p1..<p2].reverse()
            route[p2..<p3].reverse()
            route[p1..<p3].reverse()
            for position in p1..<p3 { pos[route[position]] = position }
            refreshTimes(from: p1)
            work -= 2 * (p3 - p1)
            length += delta
            let joint = p1 + (p3 - p2)
            for position in (p1 - 1)...p1 where position >= 1 { push(route[position]) }
            for position in (joint - 1)...joint { push(route[position]) }
            for position in (p3 - 1)...p3 where position <= n { push(route[position]) }
            improve()
            if length <= bestLength {
                bestRoute = route
                bestPos = pos
                bestLength = length
                bestDepartures = departures
                bestLates = lates
            } else {
                route = bestRoute
                pos = bestPos
                length = bestLength
                departures = bestDepartures
                lates = bestLates
            }
        }
        route = bestRoute
        pos = bestPos
        length = bestLength
        departures = bestDepartures
        lates = bestLates
        return self.stops
    }
}
