/// The time zone database as the domain sees it: directories of TZif files, one per IANA name.
/// The domain opens no file itself: the layer below hands it one (CarFitSystem's
/// `SystemZoneFiles`, the system's zoneinfo), a test a fake.
public protocol ZoneFiles: Sendable {
    /// The directory used when the config names none.
    var defaultDirectory: String { get }

    /// Whether `path` names a directory.
    func isDirectory(_ path: String) -> Bool

    /// The bytes of the regular file `name` under `directory`, at most `maxBytes` of them; nil
    /// when there is none, it is larger, or it resolves outside `directory` (a link leading out).
    /// `name` is relative and has no `..` component (`ZoneInfo` checks it first).
    func contents(of name: String, in directory: String, maxBytes: Int) -> [UInt8]?
}
