/// Keeps the memory behind a ``Packet``, ``VideoFrame`` or ``AudioFrame`` alive.
///
/// Frames point straight into the buffers a decoder produced (no copy); the owner is
/// whatever releases those buffers when the last value that refers to them goes away.
/// The memory must not change while an owner exists.
public protocol StorageOwner: AnyObject, Sendable {}

/// Memory allocated and owned by Swift, for frames and packets made in Swift.
public class HeapStorage: StorageOwner, @unchecked Sendable {
    /// The memory, freed when the storage is.
    public let bytes: UnsafeMutableRawBufferPointer

    /// Allocates `byteCount` zeroed bytes aligned to `alignment`.
    public init(byteCount: Int, alignment: Int = 64) {
        bytes = .allocate(byteCount: max(byteCount, 0), alignment: alignment)
        bytes.initializeMemory(as: UInt8.self, repeating: 0)
    }

    /// Takes over memory that was allocated with `allocate(byteCount:alignment:)`.
    init(adopting bytes: UnsafeMutableRawBufferPointer) {
        self.bytes = bytes
    }

    /// Hands the memory to someone else instead of freeing it; true when taken.
    func release() -> Bool { false }

    deinit {
        if !release() { bytes.deallocate() }
    }
}
