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
