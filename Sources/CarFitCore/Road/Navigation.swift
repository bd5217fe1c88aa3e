/// The card's `navigation` links to a visit's coordinates: a `geo:` URI (RFC 5870), Google
/// Maps directions and Apple Maps directions. Each coordinate is written as the card writes its
/// own numbers (the shortest decimal that reads back as the same double), so a host can match
/// the links with the card's `latitude` and `longitude` as text.
public enum Navigation {
    /// What comes before `<latitude>,<longitude>` in each link, in the card's member order.
    public static let prefixes: [(member: StaticString, prefix: StaticString)] = [
        ("geo", "geo:"),
        ("google", "https://www.google.com/maps/dir/?api=1&destination="),
        ("apple", "https://maps.apple.com/?daddr="),
    ]

    /// The links for coordinates already written as text.
    public static func links(latitude: String, longitude: String) -> [(member: String, url: String)] {
        prefixes.map { ($0.member.description, $0.prefix.description + latitude + "," + longitude) }
    }
}
