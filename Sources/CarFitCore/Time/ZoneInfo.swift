/// A zone's rules by its IANA name, from a time zone database (`ZoneFiles`): the name checked
/// here, the file read by the database, its bytes parsed here (`ZoneRules(tzif:)`). A zone's
/// rules are loaded once, when the clock is made.
public enum ZoneInfo {
    /// The system's directory (Debian's `tzdata`), the default when `$TZDIR` is not set.
    public static let systemDirectory = "/usr/share/zoneinfo"

    public static let maxNameBytes = 255
    static let maxFileBytes = 4 << 20

    /// The rules of zone `name` from `directory` of `files`: `"UTC"` without a file, else the
    /// TZif file `directory/name`. Nil when the name tries to leave the directory (an absolute
    /// path, a `..` component; `files` refuses a link resolving outside it) or names no valid
    /// TZif file there.
    public static func rules(named name: String, in directory: String, files: any ZoneFiles) -> ZoneRules? {
        if name == "UTC" { return .utc }
        guard isPlainName(name), !directory.isEmpty, !directory.utf8.contains(0),
              let bytes = files.contents(of: name, in: directory, maxBytes: maxFileBytes)
        else { return nil }
        return ZoneRules(tzif: bytes)
    }

    /// Whether `name` is a relative path that stays under its directory: not empty, at most
    /// `maxNameBytes`, no NUL, not absolute, no `..` component.
    public static func isPlainName(_ name: String) -> Bool {
        !name.isEmpty && name.utf8.count <= maxNameBytes && !name.utf8.contains(0) && !name.hasPrefix("/")
            && !name.split(separator: "/", omittingEmptySubsequences: false).contains("..")
    }
}
