/// The collation elements of one locale's name order (`NameCollator`), generated from ICU's
/// (`Generated/CollationData.swift`, written by scripts/gen-locale-tables): the root collation
/// (en, de) and, for da, nb and sv, what their tailorings change.
///
/// The code points with elements are runs (`runStarts`, `runLengths`, ascending); the k-th code
/// point of the runs has the elements `elements[starts[k] ..< starts[k + 1]]`, each a primary
/// index << 8 | weight index into `primaries` (32-bit primary weights) and `weights` (secondary
/// << 8 | tertiary, ICU's case bits in the tertiary's top two). A class: one shared instance
/// per locale, never copied.
final class CollationTable: Sendable {
    let runStarts: [UInt32]
    let runLengths: [UInt16]
    let starts: [UInt16]
    let elements: [UInt16]
    let primaries: [UInt32]
    let weights: [UInt16]
    /// Two-letter contractions (first << 32 | second), ascending, and their elements
    /// (primary << 32 | secondary << 8 | tertiary).
    let contractions: [UInt64]
    let contractionElements: [[UInt64]]
    /// Upper case before lower case (da).
    let caseFirstUpper: Bool

    init(runStarts: [UInt32], runLengths: [UInt16], starts: [UInt16], elements: [UInt16], primaries: [UInt32],
         weights: [UInt16], contractions: [UInt64], contractionElements: [[UInt64]], caseFirstUpper: Bool) {
        self.runStarts = runStarts
        self.runLengths = runLengths
        self.starts = starts
        self.elements = elements
        self.primaries = primaries
        self.weights = weights
        self.contractions = contractions
        self.contractionElements = contractionElements
        self.caseFirstUpper = caseFirstUpper
    }

    /// Calls `body` with each element (primary << 32 | secondary << 8 | tertiary) of `cp`;
    /// false when the table has none for it.
    func forEachElement(of cp: UInt32, _ body: (UInt64) -> Void) -> Bool {
        var offset = 0
        for (r, start) in runStarts.enumerated() {
            guard r < runLengths.count else { return false }
            let length = Int(runLengths[r])
            if cp < start { return false }
            if cp < start + UInt32(length) {
                let k = offset + Int(cp - start)
                guard k + 1 < starts.count else { return false }
                let low = Int(starts[k])
                let high = Int(starts[k + 1])
                guard low <= high, high <= elements.count else { return false }
                for e in elements[low..<high] {
                    let p = Int(e >> 8)
                    let w = Int(e & 0xFF)
                    guard p < primaries.count, w < weights.count else { continue }
                    body(UInt64(primaries[p]) << 32 | UInt64(weights[w]))
                }
                return true
            }
            offset += length
        }
        return false
    }
}
