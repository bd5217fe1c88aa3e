/// Where a loaded image came from.
public enum ImageSource: String, Sendable {
    case memory, disk, network
}
