/// Local wall-clock times of a plan, as minutes since the local midnight of the planned day.
public enum TimeOfDay {
    /// `"7:30"` or `"07:30"` → 450. Hours 0–23 (and `"24:00"` when `allowEndOfDay`), minutes
    /// exactly two digits 00–59. Surrounding white space is ignored. Nil for anything else.
    public static func minutes(_ text: String, allowEndOfDay: Bool = false) -> Int? {
        let u = Array(text.trimmed.utf8)
        guard u.count == 4 || u.count == 5 else { return nil }
        let hourDigits = u.count - 3
        guard u[hourDigits] == UInt8(ascii: ":"),
              let hour = number(u[0..<hourDigits]), let minute = number(u[(hourDigits + 1)...]),
              minute <= 59 else { return nil }
        if hour == 24 && minute == 0 && allowEndOfDay { return 1440 }
        guard hour <= 23 else { return nil }
        return hour * 60 + minute
    }

    /// The value of one or two ASCII digits, or nil.
    private static func number(_ digits: ArraySlice<UInt8>) -> Int? {
        guard !digits.isEmpty, digits.count <= 2 else { return nil }
        var value = 0
        for c in digits {
            guard c >= 48, c <= 57 else { return nil }
            value = value * 10 + Int(c - 48)
        }
        return value
    }

    /// 450 → `"07:30"`. Always 24-hour `HH:mm`; a time past midnight keeps counting hours
    /// (`"24:10"` is ten past midnight of the next day), so a plan's times always increase.
    /// Negative values read as 0.
    public static func text(_ minutes: Int) -> String {
        let m = max(0, minutes)
        return pad(m / 60, 2) + ":" + pad(m % 60, 2)
    }
}
