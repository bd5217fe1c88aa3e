/// Writes a CLDR date pattern: runs of a field letter (`h`, `H`, `m`, `a`, `d`, `M`, `L`, `y`)
/// become the field, text in single quotes (`''` a quote) and any other character are literal.
enum DatePattern {
    static func format(_ pattern: String, tables: LocaleTables, date: CivilDate?, minuteOfDay: Int) -> String {
        var out = ""
        let chars = Array(pattern)
        var i = 0
        let hour = minuteOfDay / 60
        let minute = minuteOfDay % 60
        while i < chars.count {
            let c = chars[i]
            if c == "'" {
                var j = i + 1
                if j < chars.count, chars[j] == "'" {
                    out.append("'")
                    i = j + 1
                    continue
                }
                while j < chars.count {
                    if chars[j] == "'" {
                        if j + 1 < chars.count, chars[j + 1] == "'" {
                            out.append("'")
                            j += 2
                            continue
                        }
                        break
                    }
                    out.append(chars[j])
                    j += 1
                }
                i = j + 1
                continue
            }
            guard c.isASCII, c.isLetter else {
                out.append(c)
                i += 1
                continue
            }
            var n = 1
            while i + n < chars.count, chars[i + n] == c { n += 1 }
            i += n
            switch c {
            case "H": out += padded(hour, n)
            case "h": out += padded(hour % 12 == 0 ? 12 : hour % 12, n)
            case "m": out += padded(minute, n)
            case "a": out += tables.dayPeriods.indices.contains(hour < 12 ? 0 : 1) ? tables.dayPeriods[hour < 12 ? 0 : 1] : ""
            case "d": out += padded(date?.day ?? 1, n)
            case "y": out += n == 2 ? padded((date?.year ?? 1) % 100, 2) : padded(date?.year ?? 1, n)
            case "M", "L":
                let month = date?.month ?? 1
                let names = c == "M" ? tables.monthsFormat : tables.monthsStandAlone
                if n >= 3, names.indices.contains(month - 1) {
                    out += names[month - 1]
                } else {
                    out += padded(month, n)
                }
            default: out += String(repeating: String(c), count: n)
            }
        }
        return out
    }

    static func padded(_ value: Int, _ width: Int) -> String {
        let digits = String(value)
        return digits.count >= width ? digits : String(repeating: "0", count: width - digits.count) + digits
    }
}
