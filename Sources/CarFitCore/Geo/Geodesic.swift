#if canImport(Glibc)
import Glibc
#endif

// Geodesic inverse problem on the WGS84 ellipsoid.
//
// An independent Swift implementation of the algorithm in
//   C. F. F. Karney, "Algorithms for geodesics", J. Geodesy 87, 43-55 (2013),
//   https://doi.org/10.1007/s00190-012-0578-z
// following the structure of the reference implementation in GeographicLib
// (6th-order series in the third flattening n, Newton's method on the
// azimuth at the first point, astroid-based starting guess for nearly
// antipodal points).  Accurate to a few nanometres for every pair of points,
// including nearly antipodal ones and points on the equator or at the poles.
//
// This code runs inside a host process, so it must never trap: there are no
// force-unwraps, no array subscripts (all series coefficients live in tuples
// and named constants), no unchecked Double -> Int conversions, and every loop
// has a fixed upper bound.


/// Geodesic distances on the WGS84 ellipsoid (Karney 2013).
public enum Geodesic {
    /// Result of the inverse problem.
    struct InverseResult: Sendable, Equatable {
        /// Length of the shortest geodesic in metres.
        var distance: Double
        /// Forward azimuth at the first point, degrees clockwise from north, in [-180, 180].
        var azimuth1: Double
        /// Forward azimuth at the second point, degrees clockwise from north, in [-180, 180].
        var azimuth2: Double
    }

    /// Inverse problem: the length in metres of the shortest geodesic between two points given in degrees.
    /// Precondition-free: inputs outside [-90,90]/[-180,180] or non-finite return nil (never trap).
    /// The same answer as `inverse(...)?.distance`, without working out the azimuths' angles
    /// (an azimuth is finite exactly when neither its sine nor its cosine is NaN).
    static func distance(latitude1: Double, longitude1: Double, latitude2: Double, longitude2: Double) -> Double? {
        guard let r = solution(latitude1, longitude1, latitude2, longitude2),
              !r.salp1.isNaN, !r.calp1.isNaN, !r.salp2.isNaN, !r.calp2.isNaN else { return nil }
        return r.distance
    }

    /// `distance(...)` rounded to whole metres (halves away from zero); nil where it is nil.
    /// Short lines are answered from their chord when that settles the rounding
    /// (`roundedShortDistance`), others from the full solution.
    static func roundedDistance(latitude1: Double, longitude1: Double, latitude2: Double, longitude2: Double) -> Int? {
        guard let p = Point(latitude: latitude1, longitude: longitude1),
              let q = Point(latitude: latitude2, longitude: longitude2) else { return nil }
        return roundedDistance(p, q)
    }

    /// `roundedDistance` between points whose Earth-centred coordinates were worked out once:
    /// a day's cards measure each position's leg to the next from the same `Point`.
    static func roundedDistance(_ p: Point, _ q: Point) -> Int? {
        if let metres = roundedShortDistance(p, q) { return metres }
        guard let d = distance(latitude1: p.latitude, longitude1: p.longitude, latitude2: q.latitude, longitude2: q.longitude)
        else { return nil }
        return Int(d.rounded())
    }

    /// A valid position (latitude in [-90, 90], longitude in [-180, 180], both finite) with its
    /// Earth-centred Cartesian coordinates in metres on the ellipsoid.
    public struct Point: Sendable {
        let latitude: Double, longitude: Double
        let x: Double, y: Double, z: Double

        /// Nil for a position outside those ranges or not finite.
        public init?(latitude: Double, longitude: Double) {
            guard Geodesic.isValidLatitude(latitude), Geodesic.isValidLongitude(longitude) else { return nil }
            self.latitude = latitude
            self.longitude = longitude
            (x, y, z) = Geodesic.cartesian(latitude, longitude)
        }
    }

    /// The rounded distance of valid points less than 100 km apart when their chord c (the
    /// straight line through the ellipsoid) pins it down, else nil.
    ///
    /// A geodesic bends no more sharply than the surface's greatest curvature
    /// κ = 1 / (a (1 − e²)), and the chord of a curve of length s that bends at most that much
    /// is at least (2/κ) sin(κs/2). So c ≤ s ≤ (2/κ) asin(κc/2) < c + 1.01 κ²c³/24 here. The
    /// solution of `distance` is within nanometres of s and c is computed to well under a
    /// micrometre; widened by a millimetre each way, a bracket that rounds to one whole number
    /// of metres at both ends rounds to the same number everywhere inside, the solution's
    /// value included.
    static func roundedShortDistance(_ lat1: Double, _ lon1: Double, _ lat2: Double, _ lon2: Double) -> Int? {
        guard let p = Point(latitude: lat1, longitude: lon1), let q = Point(latitude: lat2, longitude: lon2)
        else { return nil }
        return roundedShortDistance(p, q)
    }

    /// `roundedShortDistance` of two valid points.
    static func roundedShortDistance(_ p: Point, _ q: Point) -> Int? {
        let dx = p.x - q.x, dy = p.y - q.y, dz = p.z - q.z
        let c = (dx * dx + dy * dy + dz * dz).squareRoot()
        guard c < 100_000 else { return nil }
        let kc = c / (a * (1 - e2))
        let bend = 1.01 * c * kc * kc / 24
        let low = (c - 0.001).rounded(), high = (c + bend + 0.001).rounded()
        guard low == high, high >= 0, high < 200_000 else { return nil }
        return Int(high)
    }

    /// Earth-centred Cartesian coordinates in metres of a point on the ellipsoid.
    private static func cartesian(_ lat: Double, _ lon: Double) -> (x: Double, y: Double, z: Double) {
        let phi = lat * degree, lam = lon * degree
        let sphi = sin(phi), cphi = cos(phi)
        let n = a / (1 - e2 * sphi * sphi).squareRoot()
        return (n * cphi * cos(lam), n * cphi * sin(lam), n * (1 - e2) * sphi)
    }

    /// Inverse problem with azimuths.  Same input rules as `distance`.
    static func inverse(latitude1: Double, longitude1: Double, latitude2: Double, longitude2: Double) -> InverseResult? {
        guard let r = solution(latitude1, longitude1, latitude2, longitude2) else { return nil }
        let azimuth1 = atan2d(r.salp1, r.calp1), azimuth2 = atan2d(r.salp2, r.calp2)
        guard azimuth1.isFinite, azimuth2.isFinite else { return nil }
        return InverseResult(distance: r.distance, azimuth1: azimuth1, azimuth2: azimuth2)
    }

    /// The solution for valid inputs with a finite, non-negative distance, else nil.
    private static func solution(_ lat1: Double, _ lon1: Double, _ lat2: Double, _ lon2: Double) -> Solution? {
        guard isValidLatitude(lat1), isValidLatitude(lat2), isValidLongitude(lon1), isValidLongitude(lon2)
        else { return nil }
        let r = solveInverse(lat1: lat1, lon1: lon1, lat2: lat2, lon2: lon2)
        guard r.distance.isFinite, r.distance >= 0 else { return nil }
        return r
    }

    /// The inverse problem's length and the sines and cosines of the azimuths at both ends.
    private struct Solution {
        var distance: Double
        var salp1: Double, calp1: Double, salp2: Double, calp2: Double
    }

    private static func isValidLatitude(_ x: Double) -> Bool { x.isFinite && abs(x) <= 90 }
    private static func isValidLongitude(_ x: Double) -> Bool { x.isFinite && abs(x) <= 180 }
}

// MARK: - Ellipsoid constants and series coefficients

extension Geodesic {
    private typealias Six = (Double, Double, Double, Double, Double, Double)

    // WGS84
    private static let a = 6378137.0
    private static let f = 1.0 / 298.257223563
    private static let f1 = 1 - f
    private static let e2 = f * (2 - f)
    private static let ep2 = e2 / (f1 * f1)
    private static let n = f / (2 - f)
    private static let b = a * f1

    private static let degree = Double.pi / 180
    private static let tiny = Double.leastNormalMagnitude.squareRoot()
    private static let tol0 = Double.ulpOfOne
    private static let tol1 = 200 * tol0
    private static let tol2 = tol0.squareRoot()
    private static let tolb = tol0 * tol2
    private static let xthresh = 1000 * tol2
    private static let maxit1 = 20
    private static let maxit2 = maxit1 + Double.significandBitCount + 1 + 10

    /// Threshold on sig12 for "really short" lines (see GeographicLib).
    private static let etol2 = 0.1 * tol2 / (max(0.001, abs(f)) * min(1.0, 1 - f / 2) / 2).squareRoot()

    /// Coefficients of A3 as a polynomial in eps (highest power first), each a polynomial in n.
    private static let a3x: Six = (
        -3.0 / 128,
        (-2 * n - 3) / 64,
        ((-n - 3) * n - 1) / 16,
        ((3 * n - 1) * n - 2) / 8,
        (n - 1) / 2,
        1
    )

    /// Coefficients of C3[l], l = 1...5, as polynomials in eps (highest power first), each a polynomial in n.
    private static let c3x1: (Double, Double, Double, Double, Double) = (
        3.0 / 128,
        (2 * n + 5) / 128,
        ((-n + 3) * n + 3) / 64,
        (-n * n + 1) / 8,
        (-n + 1) / 4
    )
    private static let c3x2: (Double, Double, Double, Double) = (
        5.0 / 256,
        (n + 3) / 128,
        ((-3 * n - 2) * n + 3) / 64,
        ((n - 3) * n + 2) / 32
    )
    private static let c3x3: (Double, Double, Double) = (
        7.0 / 512,
        (-10 * n + 9) / 384,
        ((5 * n - 9) * n + 5) / 192
    )
    private static let c3x4: (Double, Double) = (
        7.0 / 512,
        (-14 * n + 7) / 512
    )
    private static let c3x5: Double = 21.0 / 2560

    // MARK: Series

    /// A3(eps).
    private static func a3f(_ eps: Double) -> Double {
        let c = a3x
        return ((((c.0 * eps + c.1) * eps + c.2) * eps + c.3) * eps + c.4) * eps + c.5
    }

    /// C3[1...5](eps); the sixth slot is zero.
    private static func c3f(_ eps: Double) -> Six {
        let p1 = c3x1, p2 = c3x2, p3 = c3x3, p4 = c3x4
        var mult = eps
        let c1 = mult * ((((p1.0 * eps + p1.1) * eps + p1.2) * eps + p1.3) * eps + p1.4)
        mult *= eps
        let c2 = mult * (((p2.0 * eps + p2.1) * eps + p2.2) * eps + p2.3)
        mult *= eps
        let c3 = mult * ((p3.0 * eps + p3.1) * eps + p3.2)
        mult *= eps
        let c4 = mult * (p4.0 * eps + p4.1)
        mult *= eps
        let c5 = mult * c3x5
        return (c1, c2, c3, c4, c5, 0)
    }

    /// A1 - 1.
    private static func a1m1f(_ eps: Double) -> Double {
        let eps2 = eps * eps
        let t = (((eps2 + 4) * eps2 + 64) * eps2 + 0) / 256
        return (t + eps) / (1 - eps)
    }

    /// C1[1...6].
    private static func c1f(_ eps: Double) -> Six {
        let eps2 = eps * eps
        var d = eps
        let c1 = d * ((-eps2 + 6) * eps2 - 16) / 32
        d *= eps
        let c2 = d * ((-9 * eps2 + 64) * eps2 - 128) / 2048
        d *= eps
        let c3 = d * (9 * eps2 - 16) / 768
        d *= eps
        let c4 = d * (3 * eps2 - 5) / 512
        d *= eps
        let c5 = d * -7 / 1280
        d *= eps
        let c6 = d * -7 / 2048
        return (c1, c2, c3, c4, c5, c6)
    }

    /// A2 - 1.
    private static func a2m1f(_ eps: Double) -> Double {
        let eps2 = eps * eps
        let t = (((-11 * eps2 - 28) * eps2 - 192) * eps2 + 0) / 256
        return (t - eps) / (1 + eps)
    }

    /// C2[1...6].
    private static func c2f(_ eps: Double) -> Six {
        let eps2 = eps * eps
        var d = eps
        let c1 = d * ((eps2 + 2) * eps2 + 16) / 32
        d *= eps
        let c2 = d * ((35 * eps2 + 64) * eps2 + 384) / 2048
        d *= eps
        let c3 = d * (15 * eps2 + 80) / 768
        d *= eps
        let c4 = d * (7 * eps2 + 35) / 512
        d *= eps
        let c5 = d * 63 / 1280
        d *= eps
        let c6 = d * 77 / 2048
        return (c1, c2, c3, c4, c5, c6)
    }

    /// sum(c[l] * sin(2 * l * x), l = 1...6) by Clenshaw summation; `c.0` is c[1].
    private static func sinSeries(_ sinx: Double, _ cosx: Double, _ c: Six) -> Double {
        let ar = 2 * (cosx - sinx) * (cosx + sinx) // 2 cos(2x)
        var y0 = 0.0, y1 = 0.0
        y1 = ar * y0 - y1 + c.5
        y0 = ar * y1 - y0 + c.4
        y1 = ar * y0 - y1 + c.3
        y0 = ar * y1 - y0 + c.2
        y1 = ar * y0 - y1 + c.1
        y0 = ar * y1 - y0 + c.0
        return 2 * sinx * cosx * y0 // sin(2x) * y0
    }
}

// MARK: - Angle helpers

extension Geodesic {
    /// Nearest integer of a finite, moderate value; 0 otherwise (never traps).
    private static func roundedInt(_ x: Double) -> Int {
        guard x.isFinite, abs(x) < 1e9 else { return 0 }
        return Int(x.rounded())
    }

    /// Round tiny values so that they underflow to zero (avoids near-singular cases).
    private static func angRound(_ x: Double) -> Double {
        let z = 1.0 / 16
        var y = abs(x)
        if y < z { y = z - (z - y) }
        return Double(signOf: x, magnitudeOf: y)
    }

    /// Error-free sum: u + v = s + t exactly.
    private static func sumExact(_ u: Double, _ v: Double) -> (s: Double, t: Double) {
        let s = u + v
        var up = s - v
        var vpp = s - up
        up -= u
        vpp -= v
        let t = s == 0 ? s : 0.0 - (up + vpp)
        return (s, t)
    }

    /// y - x reduced to [-180, 180], with its rounding error.
    private static func angDiff(_ x: Double, _ y: Double) -> (d: Double, t: Double) {
        let first = sumExact((-x).remainder(dividingBy: 360), y.remainder(dividingBy: 360))
        let second = sumExact(first.s.remainder(dividingBy: 360), first.t)
        var d = second.s
        let t = second.t
        if d == 0 || abs(d) == 180 {
            d = Double(signOf: t == 0 ? y - x : -t, magnitudeOf: d)
        }
        return (d, t)
    }

    private static func quadrantRotate(_ s: Double, _ c: Double, _ q: Int) -> (Double, Double) {
        switch q & 3 {
        case 0: return (s, c)
        case 1: return (c, -s)
        case 2: return (-s, -c)
        default: return (-c, s)
        }
    }

    /// sin and cos of x degrees, exact at multiples of 90.
    private static func sincosd(_ x: Double) -> (s: Double, c: Double) {
        var r = x.isFinite ? x.truncatingRemainder(dividingBy: 360) : Double.nan
        let q = r.isNaN ? 0 : roundedInt(r / 90)
        r -= 90 * Double(q)
        r *= degree
        var (s, c) = quadrantRotate(sin(r), cos(r), q)
        c = c + 0.0
        if s == 0 { s = Double(signOf: x, magnitudeOf: s) }
        return (s, c)
    }

    /// sin and cos of (x + t) degrees, x in [-180, 180], t a small correction.
    private static func sincosde(_ x: Double, _ t: Double) -> (s: Double, c: Double) {
        let q = x.isFinite ? roundedInt(x / 90) : 0
        let r = angRound(x - 90 * Double(q) + t) * degree
        var (s, c) = quadrantRotate(sin(r), cos(r), q)
        c = c + 0.0
        if s == 0 { s = Double(signOf: x, magnitudeOf: s) }
        return (s, c)
    }

    /// atan2 in degrees, accurate in all quadrants.
    private static func atan2d(_ yIn: Double, _ xIn: Double) -> Double {
        var x = xIn, y = yIn
        var q = 0
        if abs(y) > abs(x) { q = 2; swap(&x, &y) }
        if x < 0 { q += 1; x = -x }
        var ang = atan2(y, x) / degree
        switch q {
        case 1: ang = Double(signOf: y, magnitudeOf: 180) - ang
        case 2: ang = 90 - ang
        case 3: ang = -90 + ang
        default: break
        }
        return ang
    }

    private static func norm(_ x: Double, _ y: Double) -> (Double, Double) {
        let r = hypot(x, y)
        return (x / r, y / r)
    }
}

// MARK: - Inverse problem

extension Geodesic {
    /// Reduced distance s12/b and reduced length m12/b along a geodesic with parameter eps.
    private static func lengths(
        eps: Double, sig12: Double,
        ssig1: Double, csig1: Double, dn1: Double,
        ssig2: Double, csig2: Double, dn2: Double,
        distance: Bool, reducedLength: Bool
    ) -> (s12b: Double, m12b: Double) {
        var s12b = Double.nan, m12b = Double.nan
        let a1m1 = a1m1f(eps)
        let c1a = c1f(eps)
        let a1 = 1 + a1m1
        if distance {
            let b1 = sinSeries(ssig2, csig2, c1a) - sinSeries(ssig1, csig1, c1a)
            s12b = a1 * (sig12 + b1)
            if reducedLength {
                let a2m1 = a2m1f(eps)
                let c2a = c2f(eps)
                let a2 = 1 + a2m1
                let b2 = sinSeries(ssig2, csig2, c2a) - sinSeries(ssig1, csig1, c2a)
                let j12 = (a1m1 - a2m1) * sig12 + (a1 * b1 - a2 * b2)
                m12b = dn2 * (csig1 * ssig2) - dn1 * (ssig1 * csig2) - csig1 * csig2 * j12
            }
        } else if reducedLength {
            let a2m1 = a2m1f(eps)
            let c2a = c2f(eps)
            let a2 = 1 + a2m1
            let cb: Six = (
                a1 * c1a.0 - a2 * c2a.0,
                a1 * c1a.1 - a2 * c2a.1,
                a1 * c1a.2 - a2 * c2a.2,
                a1 * c1a.3 - a2 * c2a.3,
                a1 * c1a.4 - a2 * c2a.4,
                a1 * c1a.5 - a2 * c2a.5
            )
            let j12 = (a1m1 - a2m1) * sig12 + (sinSeries(ssig2, csig2, cb) - sinSeries(ssig1, csig1, cb))
            m12b = dn2 * (csig1 * ssig2) - dn1 * (ssig1 * csig2) - csig1 * csig2 * j12
        }
        return (s12b, m12b)
    }

    /// Positive root k of k^4 + 2k^3 - (x^2 + y^2 - 1)k^2 - 2y^2 k - y^2 = 0.
    private static func astroid(_ x: Double, _ y: Double) -> Double {
        let p = x * x
        let q = y * y
        let r = (p + q - 1) / 6
        guard !(q == 0 && r <= 0) else { return 0 }
        let s = p * q / 4
        let r2 = r * r
        let r3 = r * r2
        let disc = s * (s + 2 * r3)
        var u = r
        if disc >= 0 {
            var t3 = s + r3
            t3 += t3 < 0 ? -disc.squareRoot() : disc.squareRoot()
            let t = cbrt(t3)
            u += t + (t != 0 ? r2 / t : 0)
        } else {
            let ang = atan2((-disc).squareRoot(), -(s + r3))
            u += 2 * r * cos(ang / 3)
        }
        let v = (u * u + q).squareRoot()
        let uv = u < 0 ? q / (v - u) : u + v
        let w = (uv - q) / (2 * v)
        return uv / ((uv + w * w).squareRoot() + w)
    }

    private struct Start {
        var sig12: Double // negative if Newton's method is needed
        var salp1: Double
        var calp1: Double
        var salp2: Double
        var calp2: Double
        var dnm: Double
    }

    /// Starting guess for alp1 (oblate ellipsoid; f > 0 for WGS84).
    private static func inverseStart(
        sbet1: Double, cbet1: Double, sbet2: Double, cbet2: Double,
        lam12: Double, slam12: Double, clam12: Double
    ) -> Start {
        var out = Start(sig12: -1, salp1: .nan, calp1: .nan, salp2: .nan, calp2: .nan, dnm: .nan)
        let sbet12 = sbet2 * cbet1 - cbet2 * sbet1
        let cbet12 = cbet2 * cbet1 + sbet2 * sbet1
        var sbet12a = sbet2 * cbet1
        sbet12a += cbet2 * sbet1

        let shortline = cbet12 >= 0 && sbet12 < 0.5 && cbet2 * lam12 < 0.5
        var somg12: Double, comg12: Double
        if shortline {
            var sbetm2 = (sbet1 + sbet2) * (sbet1 + sbet2)
            sbetm2 /= sbetm2 + (cbet1 + cbet2) * (cbet1 + cbet2)
            out.dnm = (1 + ep2 * sbetm2).squareRoot()
            let omg12 = lam12 / (f1 * out.dnm)
            somg12 = sin(omg12)
            comg12 = cos(omg12)
        } else {
            somg12 = slam12
            comg12 = clam12
        }

        var salp1 = cbet2 * somg12
        var calp1 = comg12 >= 0
            ? sbet12 + cbet2 * sbet1 * (somg12 * somg12) / (1 + comg12)
            : sbet12a - cbet2 * sbet1 * (somg12 * somg12) / (1 - comg12)

        let ssig12 = hypot(salp1, calp1)
        let csig12 = sbet1 * sbet2 + cbet1 * cbet2 * comg12

        if shortline && ssig12 < etol2 {
            // Really short lines.
            let salp2 = cbet1 * somg12
            let calp2 = sbet12 - cbet1 * sbet2 * (comg12 >= 0 ? (somg12 * somg12) / (1 + comg12) : 1 - comg12)
            (out.salp2, out.calp2) = norm(salp2, calp2)
            out.sig12 = atan2(ssig12, csig12)
        } else if abs(n) >= 0.1 || csig12 >= 0 || ssig12 >= 6 * abs(n) * Double.pi * (cbet1 * cbet1) {
            // Zeroth-order spherical approximation is fine.
        } else {
            // Nearly antipodal: scale to coordinates where the antipode is at the origin.
            let lam12x = atan2(-slam12, -clam12)
            let k2 = (sbet1 * sbet1) * ep2
            let eps = k2 / (2 * (1 + (1 + k2).squareRoot()) + k2)
            let lamscale = f * cbet1 * a3f(eps) * Double.pi
            let betscale = lamscale * cbet1
            let x = lam12x / lamscale
            let y = sbet12a / betscale
            if y > -tol1 && x > -1 - xthresh {
                salp1 = min(1.0, -x)
                calp1 = -(1 - salp1 * salp1).squareRoot()
            } else {
                let k = astroid(x, y)
                let omg12a = lamscale * (-x * k / (1 + k))
                somg12 = sin(omg12a)
                comg12 = -cos(omg12a)
                salp1 = cbet2 * somg12
                calp1 = sbet12a - cbet2 * sbet1 * (somg12 * somg12) / (1 - comg12)
            }
        }
        // Sanity check on the starting guess (lets NaN through to the normalisation).
        if !(salp1 <= 0) {
            (salp1, calp1) = norm(salp1, calp1)
        } else {
            salp1 = 1
            calp1 = 0
        }
        out.salp1 = salp1
        out.calp1 = calp1
        return out
    }

    private struct Lambda {
        var v: Double // lambda12(alp1) - lam12
        var salp2: Double
        var calp2: Double
        var sig12: Double
        var ssig1: Double
        var csig1: Double
        var ssig2: Double
        var csig2: Double
        var eps: Double
        var dv: Double
    }

    /// Solve the hybrid problem for a given alp1: longitude mismatch and its derivative.
    private static func lambda12(
        sbet1: Double, cbet1: Double, dn1: Double,
        sbet2: Double, cbet2: Double, dn2: Double,
        salp1: Double, calp1 calp1In: Double,
        slam120: Double, clam120: Double, diffp: Bool
    ) -> Lambda {
        var calp1 = calp1In
        if sbet1 == 0 && calp1 == 0 {
            // Break the degeneracy of the equatorial line.
            calp1 = -tiny
        }
        let salp0 = salp1 * cbet1
        let calp0 = hypot(calp1, salp1 * sbet1)

        let somg1 = salp0 * sbet1
        let comg1 = calp1 * cbet1
        let (ssig1, csig1) = norm(sbet1, calp1 * cbet1)

        let salp2 = cbet2 != cbet1 ? salp0 / cbet2 : salp1
        let calp2: Double
        if cbet2 != cbet1 || abs(sbet2) != -sbet1 {
            let d = cbet1 < -sbet1 ? (cbet2 - cbet1) * (cbet1 + cbet2) : (sbet1 - sbet2) * (sbet1 + sbet2)
            calp2 = ((calp1 * cbet1) * (calp1 * cbet1) + d).squareRoot() / cbet2
        } else {
            calp2 = abs(calp1)
        }
        let somg2 = salp0 * sbet2
        let comg2 = calp2 * cbet2
        let (ssig2, csig2) = norm(sbet2, calp2 * cbet2)

        let sig12 = atan2(max(0.0, csig1 * ssig2 - ssig1 * csig2) + 0.0, csig1 * csig2 + ssig1 * ssig2)
        let somg12 = max(0.0, comg1 * somg2 - somg1 * comg2) + 0.0
        let comg12 = comg1 * comg2 + somg1 * somg2
        let eta = atan2(somg12 * clam120 - comg12 * slam120, comg12 * clam120 + somg12 * slam120)

        let k2 = (calp0 * calp0) * ep2
        let eps = k2 / (2 * (1 + (1 + k2).squareRoot()) + k2)
        let c3a = c3f(eps)
        let b312 = sinSeries(ssig2, csig2, c3a) - sinSeries(ssig1, csig1, c3a)
        let domg12 = -f * a3f(eps) * salp0 * (sig12 + b312)
        let v = eta + domg12

        var dv = Double.nan
        if diffp {
            if calp2 == 0 {
                dv = -2 * f1 * dn1 / sbet1
            } else {
                let m = lengths(eps: eps, sig12: sig12, ssig1: ssig1, csig1: csig1, dn1: dn1,
                                ssig2: ssig2, csig2: csig2, dn2: dn2, distance: false, reducedLength: true)
                dv = m.m12b * f1 / (calp2 * cbet2)
            }
        }
        return Lambda(v: v, salp2: salp2, calp2: calp2, sig12: sig12,
                      ssig1: ssig1, csig1: csig1, ssig2: ssig2, csig2: csig2, eps: eps, dv: dv)
    }

    /// The general inverse solution (inputs already validated).
    private static func solveInverse(lat1 lat1In: Double, lon1: Double, lat2 lat2In: Double, lon2: Double) -> Solution {
        // Longitude difference, made non-negative.
        var (lon12, lon12s) = angDiff(lon1, lon2)
        var lonsign = Double(signOf: lon12, magnitudeOf: 1)
        lon12 *= lonsign
        lon12s *= lonsign
        let lam12 = lon12 * degree
        let (slam12, clam12) = sincosde(lon12, lon12s)
        lon12s = (180 - lon12) - lon12s // supplementary longitude difference

        // Canonical configuration: |lat1| >= |lat2|, lat1 <= 0, lat1 <= lat2 <= -lat1.
        var lat1 = angRound(lat1In)
        var lat2 = angRound(lat2In)
        let swapp: Double = abs(lat1) < abs(lat2) || lat2.isNaN ? -1 : 1
        if swapp < 0 {
            lonsign = -lonsign
            swap(&lat1, &lat2)
        }
        let latsign = Double(signOf: -lat1, magnitudeOf: 1)
        lat1 *= latsign
        lat2 *= latsign

        var sbet1: Double, cbet1: Double, sbet2: Double, cbet2: Double
        (sbet1, cbet1) = sincosd(lat1)
        sbet1 *= f1
        (sbet1, cbet1) = norm(sbet1, cbet1)
        cbet1 = max(tiny, cbet1)
        (sbet2, cbet2) = sincosd(lat2)
        sbet2 *= f1
        (sbet2, cbet2) = norm(sbet2, cbet2)
        cbet2 = max(tiny, cbet2)

        // Force |bet2| == |bet1| exactly when they are numerically indistinguishable.
        if cbet1 < -sbet1 {
            if cbet2 == cbet1 { sbet2 = Double(signOf: sbet2, magnitudeOf: sbet1) }
        } else {
            if abs(sbet2) == -sbet1 { cbet2 = cbet1 }
        }

        let dn1 = (1 + ep2 * sbet1 * sbet1).squareRoot()
        let dn2 = (1 + ep2 * sbet2 * sbet2).squareRoot()

        var s12x = Double.nan
        var salp1 = Double.nan, calp1 = Double.nan, salp2 = Double.nan, calp2 = Double.nan

        var meridian = lat1 == -90 || slam12 == 0
        if meridian {
            // Both points on one full meridian: the geodesic may run along it.
            calp1 = clam12
            salp1 = slam12
            calp2 = 1
            salp2 = 0
            let ssig1 = sbet1, csig1 = calp1 * cbet1
            let ssig2 = sbet2, csig2 = calp2 * cbet2
            var sig12 = atan2(max(0.0, csig1 * ssig2 - ssig1 * csig2) + 0.0, csig1 * csig2 + ssig1 * ssig2)
            let l = lengths(eps: n, sig12: sig12, ssig1: ssig1, csig1: csig1, dn1: dn1,
                            ssig2: ssig2, csig2: csig2, dn2: dn2, distance: true, reducedLength: true)
            var s12b = l.s12b
            let m12b = l.m12b
            if sig12 < 1 || m12b >= 0 {
                if sig12 < 3 * tiny || (sig12 < tol0 && (s12b < 0 || m12b < 0)) {
                    sig12 = 0
                    s12b = 0
                }
                s12x = s12b * b
            } else {
                meridian = false // m12 < 0: not a shortest path (cannot happen for oblate WGS84)
            }
        }

        if !meridian && sbet1 == 0 && (f <= 0 || lon12s >= f * 180) {
            // Geodesic runs along the equator.
            calp1 = 0
            calp2 = 0
            salp1 = 1
            salp2 = 1
            s12x = a * lam12
        } else if !meridian {
            let start = inverseStart(sbet1: sbet1, cbet1: cbet1, sbet2: sbet2, cbet2: cbet2,
                                     lam12: lam12, slam12: slam12, clam12: clam12)
            salp1 = start.salp1
            calp1 = start.calp1
            if start.sig12 >= 0 {
                // Short line: spherical solution with scaled radius.
                s12x = start.sig12 * b * start.dnm
                salp2 = start.salp2
                calp2 = start.calp2
            } else {
                // Newton's method on alp1, safeguarded by a bracket [alp1a, alp1b].
                var numit = 0
                var tripn = false, tripb = false
                var salp1a = tiny, calp1a = 1.0
                var salp1b = tiny, calp1b = -1.0
                var last = Lambda(v: .nan, salp2: .nan, calp2: .nan, sig12: .nan, ssig1: .nan, csig1: .nan,
                                  ssig2: .nan, csig2: .nan, eps: .nan, dv: .nan)
                while numit < maxit2 {
                    last = lambda12(sbet1: sbet1, cbet1: cbet1, dn1: dn1, sbet2: sbet2, cbet2: cbet2, dn2: dn2,
                                    salp1: salp1, calp1: calp1, slam120: slam12, clam120: clam12,
                                    diffp: numit < maxit1)
                    let v = last.v
                    // Reversed test to allow escape with NaNs.
                    if tripb || !(abs(v) >= (tripn ? 8 : 1) * tol0) { break }
                    if v > 0 && (numit > maxit1 || calp1 / salp1 > calp1b / salp1b) {
                        salp1b = salp1
                        calp1b = calp1
                    } else if v < 0 && (numit > maxit1 || calp1 / salp1 < calp1a / salp1a) {
                        salp1a = salp1
                        calp1a = calp1
                    }
                    numit += 1
                    if numit < maxit1 && last.dv > 0 {
                        let dalp1 = -v / last.dv
                        let sdalp1 = sin(dalp1), cdalp1 = cos(dalp1)
                        let nsalp1 = salp1 * cdalp1 + calp1 * sdalp1
                        if nsalp1 > 0 && abs(dalp1) < Double.pi {
                            calp1 = calp1 * cdalp1 - salp1 * sdalp1
                            salp1 = nsalp1
                            (salp1, calp1) = norm(salp1, calp1)
                            tripn = abs(v) <= 16 * tol0
                            continue
                        }
                    }
                    // Bisect the bracket.
                    salp1 = (salp1a + salp1b) / 2
                    calp1 = (calp1a + calp1b) / 2
                    (salp1, calp1) = norm(salp1, calp1)
                    tripn = false
                    tripb = abs(salp1a - salp1) + (calp1a - calp1) < tolb
                        || abs(salp1 - salp1b) + (calp1 - calp1b) < tolb
                }
                salp2 = last.salp2
                calp2 = last.calp2
                let l = lengths(eps: last.eps, sig12: last.sig12,
                                ssig1: last.ssig1, csig1: last.csig1, dn1: dn1,
                                ssig2: last.ssig2, csig2: last.csig2, dn2: dn2,
                                distance: true, reducedLength: false)
                s12x = l.s12b * b
            }
        }

        let s12 = 0.0 + s12x

        // Undo the canonicalisation for the azimuths.
        if swapp < 0 {
            swap(&salp1, &salp2)
            swap(&calp1, &calp2)
        }
        salp1 *= swapp * lonsign
        calp1 *= swapp * latsign
        salp2 *= swapp * lonsign
        calp2 *= swapp * latsign

        return Solution(distance: s12, salp1: salp1, calp1: calp1, salp2: salp2, calp2: calp2)
    }
}
