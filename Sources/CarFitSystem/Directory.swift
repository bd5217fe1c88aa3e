#if canImport(Glibc)
import Glibc
#endif

/// Reading a directory's entries with POSIX calls.
public enum Directory {
    /// The names in `path` (without "." and ".."), in the order the file system gives them;
    /// empty when the directory cannot be read. Each name is read where `readdir` left it, up
    /// to its NUL, never past it (the rest of `d_name` holds no name).
    public static func names(in path: String) -> [String] {
        guard let dir = opendir(path) else { return [] }
        defer { closedir(dir) }
        var names: [String] = []
        while let entry = readdir(dir) {
            let name = withUnsafeMutablePointer(to: &entry.pointee.d_name) { field in
                field.withMemoryRebound(to: CChar.self, capacity: MemoryLayout.size(ofValue: field.pointee)) {
                    String(cString: $0)
                }
            }
            if name != "." && name != ".." { names.append(name) }
        }
        return names
    }
}
