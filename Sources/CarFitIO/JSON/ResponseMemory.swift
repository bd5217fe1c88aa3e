import CMalloc
import Synchronization

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The memory of one large answer, kept when the host frees it (`carfit_free`) to hold the
/// next large answer: a day list of a few hundred cards is a few hundred kilobytes, and memory
/// fresh from the system costs a page fault for every 4 KiB written, where a block written the
/// call before is already mapped and mostly in the processor's cache.
///
/// One block at most, of `smallest...largest` usable bytes, is kept at a time; whoever takes it
/// owns it alone (an atomic exchange), so any number of threads may answer and free at once.
/// A block that is not kept goes back to `free` at once.
public enum ResponseMemory {
    /// Blocks below this come quickly from malloc's own lists; they are not kept.
    public static let smallest = 64 << 10
    /// Blocks above this are not kept: the most memory held for the next answer.
    public static let largest = 4 << 20

    private static let slot = Atomic<UInt>(0)

    /// The kept block when its usable size is at least `size`, with that size; nil otherwise
    /// (a kept block too small for `size` is freed).
    static func take(atLeast size: Int) -> (block: UnsafeMutableRawPointer, capacity: Int)? {
        guard let block = UnsafeMutableRawPointer(bitPattern: slot.exchange(0, ordering: .acquiringAndReleasing)) else {
            return nil
        }
        let usable = malloc_usable_size(block)
        guard usable >= size else {
            free(block)
            return nil
        }
        return (block, usable)
    }

    /// Frees `pointer` (memory from `malloc`, or NULL), keeping it for the next large answer
    /// when its size is in range; the block kept before is then freed.
    public static func recycle(_ pointer: UnsafeMutableRawPointer?) {
        guard let pointer else { return }
        let usable = malloc_usable_size(pointer)
        guard usable >= smallest, usable <= largest else {
            free(pointer)
            return
        }
        let previous = slot.exchange(UInt(bitPattern: pointer), ordering: .acquiringAndReleasing)
        free(UnsafeMutableRawPointer(bitPattern: previous))
    }

    /// Frees the kept block, if any.
    public static func release() {
        free(UnsafeMutableRawPointer(bitPattern: slot.exchange(0, ordering: .acquiringAndReleasing)))
    }
}
