import CarFitCore
import CarFitSystem
import CarFitNet
import CarFitServices
import CarFitStore

/// The opaque `carfit_core *` handles given to hosts. A handle is a number, never an address,
/// and is never reused, so a call with a closed or made-up handle is reported as `misuse`
/// instead of touching freed memory.
final class Handles: @unchecked Sendable {
    static let shared = Handles()

    private let lock = Lock()
    private var cores: [UInt: Core] = [:]
    private var nextID: UInt = 1

    func register(_ core: Core) -> OpaquePointer? {
        lock.lock()
        defer { lock.unlock() }
        let id = nextID
        nextID += 1
        cores[id] = core
        return OpaquePointer(bitPattern: id << 4)
    }

    func core(_ handle: OpaquePointer?) -> Core? {
        guard let handle else { return nil }
        let bits = UInt(bitPattern: Int(bitPattern: UnsafeRawPointer(handle)))
        lock.lock()
        defer { lock.unlock() }
        return cores[bits >> 4]
    }

    func remove(_ handle: OpaquePointer?) -> Core? {
        guard let handle else { return nil }
        let bits = UInt(bitPattern: Int(bitPattern: UnsafeRawPointer(handle)))
        lock.lock()
        defer { lock.unlock() }
        return cores.removeValue(forKey: bits >> 4)
    }
}
