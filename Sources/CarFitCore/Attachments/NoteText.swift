/// The rule for a note's text: valid UTF-8 of 1 to `maxScalars` Unicode scalar values. A file
/// is checked in chunks as it is copied (`NoteText.Validator`), a request's text whole.
public enum NoteText {
    public static let maxScalars = 10_000
    /// The most bytes a valid note can have (every scalar takes at most 4 bytes).
    public static let maxBytes = maxScalars * 4

    /// Why a note's text is refused, nil when it is a valid note.
    public static func problem(scalars: Int, validUTF8: Bool) -> String? {
        if !validUTF8 { return "A note must be UTF-8 text." }
        if scalars == 0 { return "A note must hold at least one character." }
        if scalars > maxScalars { return "A note holds at most \(maxScalars) characters; this one has \(scalars)." }
        return nil
    }

    /// Checks UTF-8 fed in chunks of any size, counting scalars.
    public struct Validator: Sendable {
        public private(set) var scalars = 0
        public private(set) var valid = true
        /// Continuation bytes still expected, and the bounds the next byte must lie in.
        private var needed = 0
        private var lower: UInt8 = 0x80
        private var upper: UInt8 = 0xBF

        public init() {}

        public mutating func feed(_ bytes: Span<UInt8>) {
            guard valid else { return }
            for i in 0..<bytes.count {
                let b = bytes[i]
                if needed == 0 {
                    switch b {
                    case 0x00...0x7F: scalars += 1
                    case 0xC2...0xDF: needed = 1; lower = 0x80; upper = 0xBF
                    case 0xE0: needed = 2; lower = 0xA0; upper = 0xBF
                    case 0xE1...0xEC, 0xEE...0xEF: needed = 2; lower = 0x80; upper = 0xBF
                    case 0xED: needed = 2; lower = 0x80; upper = 0x9F
                    case 0xF0: needed = 3; lower = 0x90; upper = 0xBF
                    case 0xF1...0xF3: needed = 3; lower = 0x80; upper = 0xBF
                    case 0xF4: needed = 3; lower = 0x80; upper = 0x8F
                    default: valid = false; return
                    }
                } else {
                    guard b >= lower, b <= upper else { valid = false; return }
                    lower = 0x80
                    upper = 0xBF
                    needed -= 1
                    if needed == 0 { scalars += 1 }
                }
            }
        }

        /// The refusal of everything fed, nil when it is a valid note.
        public var problem: String? { NoteText.problem(scalars: scalars, validUTF8: valid && needed == 0) }
    }
}
