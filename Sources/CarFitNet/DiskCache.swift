import CarFitCore
import CarFitSystem
#if canImport(Glibc)
import Glibc
#endif

/// The disk level of the image cache: one file per image in `directory`, named by the URL's
/// hash (`ImageRequest.fileName`), least recently used first out when the files' total size
/// would pass `limit`.
///
/// The order survives reopening through the files' modification times: a hit touches its file,
/// and opening rebuilds the index from the directory (oldest first). Files are written to a
/// temporary name and renamed, so a reader never sees half an image. The bound holds for the
/// files this process knows: two cores sharing one directory each keep their own index.
///
/// Thread-safe: the index is guarded by a lock; file contents are read outside it.
final class DiskCache: @unchecked Sendable {
    let directory: String
    private let lock = Lock()
    private var index: LRUCache<String, Void>

    /// Opens `directory` (created with its parents if absent) and indexes the images in it,
    /// evicting the oldest when they pass `limit`. A directory that cannot be created or
    /// written throws.
    init(directory: String, limit: Int64) throws(ImageDirectoryError) {
        self.directory = directory
        index = LRUCache(limit: limit)
        if let failure = Files.makeDirectories(directory) {
            throw ImageDirectoryError(path: directory,
                message: "Cannot create the image directory \"\(directory.prefix(200))\": \(failure)")
        }
        guard Files.isDirectory(directory),
              access(directory, R_OK | W_OK | X_OK) == 0 else {
            throw ImageDirectoryError(path: directory,
                message: "The image directory \"\(directory.prefix(200))\" is not a writable directory.")
        }
        rebuild()
    }

    /// Indexes the directory's image files, least recently used (oldest modification) first.
    private func rebuild() {
        let names = Files.names(in: directory)
        var files: [(name: String, size: Int64, seconds: Int, nanoseconds: Int)] = []
        for name in names where DiskCache.isImageFileName(name) {
            var info = stat()
            guard stat(path(name), &info) == 0, (info.st_mode & S_IFMT) == S_IFREG else { continue }
            files.append((name, Int64(info.st_size), info.st_mtim.tv_sec, info.st_mtim.tv_nsec))
        }
        files.sort { ($0.seconds, $0.nanoseconds, $0.name) < ($1.seconds, $1.nanoseconds, $1.name) }
        lock.lock()
        defer { lock.unlock() }
        for file in files {
            let (stored, evicted) = index.insert(file.name, (), cost: file.size)
            for old in evicted { unlink(path(old.key)) }
            if !stored { unlink(path(file.name)) }
        }
    }

    /// "0123456789abcdef.img"
    static func isImageFileName(_ name: String) -> Bool {
        let utf8 = Array(name.utf8)
        guard utf8.count == 20, name.hasSuffix(".img") else { return false }
        return utf8.prefix(16).allSatisfy { ($0 >= 0x30 && $0 <= 0x39) || ($0 >= 0x61 && $0 <= 0x66) }
    }

    private func path(_ name: String) -> String { directory + "/" + name }

    /// The stored bytes for `url`, which becomes the most recently used; nil on a miss.
    func read(_ url: String) -> [UInt8]? {
        let name = ImageRequest.fileName(for: url)
        lock.lock()
        let known = index.value(for: name) != nil
        lock.unlock()
        guard known else { return nil }
        guard let data = Files.read(path(name)) else {
            // Removed behind our back (another core sharing the directory, or by hand).
            lock.lock()
            index.remove(name)
            lock.unlock()
            return nil
        }
        utimensat(AT_FDCWD, path(name), nil, 0)  // now: the order survives reopening
        return data
    }

    /// Stores `bytes` for `url`, evicting the least recently used files to stay within the
    /// limit. An image larger than the whole limit, or a failed write (disk full), is not
    /// stored; the cache stays consistent either way.
    func write(_ url: String, _ bytes: [UInt8]) {
        guard Int64(bytes.count) <= index.limit else { return }
        let name = ImageRequest.fileName(for: url)
        var random = KernelRandom()
        let temporary = path(name + "." + UUIDv4.make(using: &random) + ".tmp")
        guard Files.create(temporary, bytes) else {
            unlink(temporary)
            return
        }
        lock.lock()
        defer { lock.unlock() }
        guard rename(temporary, path(name)) == 0 else {
            unlink(temporary)
            index.remove(name)
            return
        }
        let (stored, evicted) = index.insert(name, (), cost: Int64(bytes.count))
        for old in evicted where old.key != name { unlink(path(old.key)) }
        if !stored { unlink(path(name)) }
    }

    /// Forgets and deletes the file for `url` (a file that is not an image any more).
    func remove(_ url: String) {
        let name = ImageRequest.fileName(for: url)
        lock.lock()
        defer { lock.unlock() }
        index.remove(name)
        unlink(path(name))
    }

    /// Its entries, their bytes and its limit.
    var stats: ImagePipeline.Stats.Level {
        lock.lock()
        defer { lock.unlock() }
        return ImagePipeline.Stats.Level(count: Int64(index.count), bytes: index.totalCost, limit: index.limit)
    }
}
