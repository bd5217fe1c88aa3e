/// The locales the config's `locale` may name, each with the CLDR data it formats with.
public enum SupportedLocale: String, Sendable, CaseIterable {
    case enUS = "en-US", enGB = "en-GB", da, nb, sv, de

    /// The tags the config accepts, as the refusal lists them.
    public static let acceptedTags = ["en", "en-US", "en-GB", "da", "da-DK", "nb", "nb-NO", "no", "sv", "sv-SE", "de", "de-DE"]

    /// The locale of a BCP 47 tag, case-insensitive, `-` or `_` between its parts; nil when
    /// the tag is not one of `acceptedTags`.
    public init?(tag: String) {
        let normal = String(tag.lowercased().map { $0 == "_" ? "-" : $0 })
        switch normal {
        case "en", "en-us": self = .enUS
        case "en-gb": self = .enGB
        case "da", "da-dk": self = .da
        case "nb", "nb-no", "no": self = .nb
        case "sv", "sv-se": self = .sv
        case "de", "de-de": self = .de
        default: return nil
        }
    }

    /// The locale's name order.
    public var collator: NameCollator {
        switch self {
        case .enUS, .enGB, .de: NameCollator(.root)
        case .da: NameCollator(.da)
        case .nb: NameCollator(.nb)
        case .sv: NameCollator(.sv)
        }
    }

    var tables: LocaleTables {
        switch self {
        case .enUS: .enUS
        case .enGB: .enGB
        case .da: .da
        case .nb: .nb
        case .sv: .sv
        case .de: .de
        }
    }
}

/// The currencies the config's `currency` may name (ISO 4217).
public enum DisplayCurrency: String, Sendable, CaseIterable {
    case usd = "USD", dkk = "DKK", nok = "NOK", sek = "SEK", eur = "EUR", gbp = "GBP"

    /// The currency of an ISO 4217 code (upper case as ISO writes it); nil for any other.
    public init?(code: String) { self.init(rawValue: code) }

    var index: Int { DisplayCurrency.allCases.firstIndex(of: self) ?? 0 }
}
