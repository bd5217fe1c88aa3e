import CCipher
import CarFitCore
import CarFitSystem
#if canImport(Glibc)
import Glibc
#endif

/// The one seam for the files the core keeps besides its database (the attachments' copies):
/// while the database is encrypted every new file is sealed, a stream of ChaCha20-Poly1305
/// chunks of at most 64 KiB (each chunk's nonce bound to its index, the last one marked, a key
/// per file derived from the core's files key and a random salt in the file's header; the files
/// key is kept inside the encrypted database); otherwise files are written as they are. Reading
/// takes either form, so a set that a crash left half converted still reads whole, and the next
/// open converts the rest (`AttachmentDirectory.convert`).
public struct FileSeal: Sendable {
    /// The key sealed files are under; nil when the core has none.
    public let key: [UInt8]?
    /// Whether new files are sealed (the database is encrypted).
    public let sealsNew: Bool

    /// Files as they are, and no key to read sealed ones.
    public static let plain = FileSeal(key: nil, sealsNew: false)

    public init(key: [UInt8]?, sealsNew: Bool) {
        self.key = key?.count == 32 ? key : nil
        self.sealsNew = sealsNew && self.key != nil
    }

    /// Whether the file open at `fd` is sealed (reads its first bytes with `pread`).
    public static func isSealed(fd: Int32) -> Bool { cf_is_sealed(fd) == 1 }
}

/// Writes one file's bytes through the seal: sealed in chunks, or as they are.
final class SealedWriter {
    private let fd: Int32
    private var sealer: OpaquePointer?

    /// The writer of the file open at `fd` (at its start); nil, with `errno` set, when the
    /// header could not be written.
    init?(fd: Int32, seal: FileSeal) {
        self.fd = fd
        if seal.sealsNew, let key = seal.key {
            guard let s = key.withUnsafeBufferPointer({ cf_seal_begin(fd, $0.baseAddress) }) else { return nil }
            sealer = s
        }
    }

    /// 0, or the `errno` of the failure.
    func write(_ bytes: UnsafeRawBufferPointer) -> Int32 {
        guard let base = bytes.baseAddress, !bytes.isEmpty else { return 0 }
        if let sealer { return cf_seal_write(sealer, base, bytes.count) == 0 ? 0 : errno }
        var offset = 0
        while offset < bytes.count {
            let written = Glibc.write(fd, base + offset, bytes.count - offset)
            if written < 0 && errno == EINTR { continue }
            guard written > 0 else { return written < 0 ? errno : EIO }
            offset += written
        }
        return 0
    }

    /// Writes what is left (the last chunk): 0, or the `errno` of the failure.
    func finish() -> Int32 {
        guard let sealer else { return 0 }
        return cf_seal_finish(sealer) == 0 ? 0 : errno
    }

    deinit { cf_seal_free(sealer) }
}

/// Reads one file's original bytes, sealed or not, a chunk at a time.
public final class SealedReader {
    private let fd: Int32
    private var opener: OpaquePointer?
    private let chunk: UnsafeMutableRawBufferPointer
    private var held = 0
    private var taken = 0

    /// A reader of the file open at `fd` (at its start): `storage` when it is sealed under
    /// another key, or sealed and the core has no key.
    public init(fd: Int32, seal: FileSeal) throws(CarFitError) {
        // Every refusal comes before a property is set, so nothing needs undoing.
        var opened: OpaquePointer?
        if FileSeal.isSealed(fd: fd) {
            guard let key = seal.key else {
                throw CarFitError(.storage, "The stored copy is encrypted, and the core has no key for it.")
            }
            var status: Int32 = 0
            opened = key.withUnsafeBufferPointer { cf_open_begin(fd, $0.baseAddress, &status) }
            guard opened != nil else {
                throw CarFitError(.storage, status == CF_SEALED_WRONG_KEY
                    ? "The stored copy is encrypted under another key."
                    : "The stored copy could not be read.")
            }
        }
        self.fd = fd
        opener = opened
        chunk = UnsafeMutableRawBufferPointer.allocate(byteCount: Int(CF_SEAL_CHUNK), alignment: 16)
    }

    deinit {
        cf_open_free(opener)
        chunk.deallocate()
    }

    /// Up to `into.count` of the next original bytes: how many, 0 at the end. `storage` when
    /// the file is damaged or cut short, or cannot be read.
    public func read(into: UnsafeMutableRawBufferPointer) throws(CarFitError) -> Int {
        guard let target = into.baseAddress, !into.isEmpty else { return 0 }
        guard let opener else {
            while true {
                let n = Glibc.read(fd, target, into.count)
                if n < 0 && errno == EINTR { continue }
                guard n >= 0 else { throw CarFitError(.storage, "The stored copy could not be read: \(AttachmentDirectory.reason(errno)).") }
                return n
            }
        }
        while taken == held {
            if cf_open_done(opener) == 1 { return 0 }
            let n = cf_open_chunk(opener, chunk.baseAddress?.assumingMemoryBound(to: UInt8.self))
            guard n >= 0 else {
                throw CarFitError(.storage, n == Int(CF_SEALED_DAMAGED)
                    ? "The stored copy is damaged (it does not decrypt)."
                    : "The stored copy could not be read: \(AttachmentDirectory.reason(errno)).")
            }
            held = n
            taken = 0
        }
        let count = min(into.count, held - taken)
        if let source = chunk.baseAddress { target.copyMemory(from: source + taken, byteCount: count) }
        taken += count
        return count
    }

    /// Every remaining original byte.
    public func readAll(expected: Int64) throws(CarFitError) -> [UInt8] {
        var bytes = [UInt8]()
        bytes.reserveCapacity(Int(clamping: max(expected, 0)))
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: Int(CF_SEAL_CHUNK), alignment: 16)
        defer { buffer.deallocate() }
        while true {
            let n = try read(into: buffer)
            if n == 0 { return bytes }
            bytes.append(contentsOf: UnsafeRawBufferPointer(rebasing: buffer[0..<n]))
        }
    }
}

/// A sealed file's original bytes fed, as a thread decrypts them 64 KiB at a time, into one end
/// of a socket pair: `readEnd` is a descriptor that reads them (an upload's body, streamed as it
/// is sent). The thread stops at the end of the file, at a failure (the reader then sees the end
/// early, and the transfer fails short of its length), or once `readEnd` is closed.
public final class SealedFeed {
    public let readEnd: Int32

    /// The feed of the sealed file open at `fd` (which the caller keeps); nil when it cannot
    /// be read under `seal` or no thread can be started.
    public init?(fd: Int32, seal: FileSeal) {
        var pair: [Int32] = [-1, -1]
        guard socketpair(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0, &pair) == 0 else { return nil }
        let source = fcntl(fd, F_DUPFD_CLOEXEC, 0)
        guard source >= 0, let reader = try? SealedReader(fd: source, seal: seal) else {
            if source >= 0 { _ = Glibc.close(source) }
            _ = Glibc.close(pair[0])
            _ = Glibc.close(pair[1])
            return nil
        }
        readEnd = pair[0]
        let writeEnd = pair[1]
        let feed = UncheckedReader(reader: reader)
        let started = JoinableThread.detach(name: "carfit-sealed-feed") {
            let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: Int(CF_SEAL_CHUNK), alignment: 16)
            defer {
                buffer.deallocate()
                _ = Glibc.close(writeEnd)
                _ = Glibc.close(source)
            }
            while let n = try? feed.reader.read(into: buffer), n > 0, let base = buffer.baseAddress {
                var sent = 0
                while sent < n {
                    let w = send(writeEnd, base + sent, n - sent, Int32(MSG_NOSIGNAL))
                    if w < 0 && errno == EINTR { continue }
                    guard w > 0 else { return }
                    sent += w
                }
            }
        }
        guard started else {
            // readEnd is closed by deinit.
            _ = Glibc.close(writeEnd)
            _ = Glibc.close(source)
            return nil
        }
    }

    deinit { _ = Glibc.close(readEnd) }
}

/// The reader handed to the feed's thread, which alone uses it from then on.
private struct UncheckedReader: @unchecked Sendable {
    let reader: SealedReader
}
