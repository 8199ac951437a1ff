/// Reuses the memory of pixel buffers of one shape, as CVPixelBufferPool does: a buffer
/// made here returns its memory to the pool when its last copy goes away, so steady
/// streams of pictures allocate nothing.
public final class PixelBufferPool: @unchecked Sendable {
    private let lock = ConditionLock()
    private var free: [String: [HeapStorage]] = [:]
    /// The shapes asked for, the least recently first.
    private var recentShapes: [String] = []
    private var allocations = 0
    /// Buffers kept per shape at most; more are freed.
    public let capacity: Int
    /// Shapes kept at most: the free buffers of the least recently asked for go beyond it
    /// (a picture whose size follows a window's must not keep every size it had).
    public let shapeLimit: Int

    /// A pool keeping at most `capacity` free buffers of each shape, for at most
    /// `shapeLimit` shapes.
    public init(capacity: Int = 8, shapeLimit: Int = .max) {
        self.capacity = capacity
        self.shapeLimit = max(shapeLimit, 1)
    }

    /// How many buffers the pool has had to allocate.
    public var allocatedCount: Int { lock.withLock { allocations } }

    /// A buffer of this shape (its contents are whatever the last user left).
    public func makeBuffer(format: PixelBufferFormat, width: Int, height: Int, matrix: YUVMatrix = .bt601,
                           range: ColorRange = .limited) throws -> PixelBuffer {
        guard width > 0, height > 0, width <= PixelBuffer.maxDimension, height <= PixelBuffer.maxDimension else {
            throw PixelConversionError.invalidSize(width: width, height: height)
        }
        let layout = PixelBuffer.layout(format: format, width: width, height: height, alignment: 64)
        let key = "\(format.rawValue) \(width)x\(height)"
        let (reused, evicted) = lock.withLock { () -> (HeapStorage?, [HeapStorage]) in
            recentShapes.removeAll { $0 == key }
            recentShapes.append(key)
            var evicted: [HeapStorage] = []
            while recentShapes.count > shapeLimit { evicted += free.removeValue(forKey: recentShapes.removeFirst()) ?? [] }
            return (free[key]?.popLast(), evicted)
        }
        // Freed here, outside the lock: a pooled buffer's end asks the pool (which refuses it).
        withExtendedLifetime(evicted) {}
        let storage = reused ?? PooledStorage(byteCount: layout.byteCount, key: key, pool: self)
        if reused == nil { lock.withLock { allocations += 1 } }
        return try PixelBuffer(format: format, width: width, height: height, storage: storage, layout: layout, matrix: matrix, range: range)
    }

    fileprivate func recycle(_ bytes: UnsafeMutableRawBufferPointer, key: String) -> Bool {
        lock.withLock {
            guard recentShapes.contains(key), free[key, default: []].count < capacity else { return false }
            free[key, default: []].append(PooledStorage(adopting: bytes, key: key, pool: self))
            return true
        }
    }
}

/// Memory that goes back to its pool instead of being freed.
private final class PooledStorage: HeapStorage, @unchecked Sendable {
    let key: String
    weak var pool: PixelBufferPool?

    init(byteCount: Int, key: String, pool: PixelBufferPool) {
        self.key = key
        self.pool = pool
        super.init(byteCount: byteCount, alignment: 64)
    }

    init(adopting bytes: UnsafeMutableRawBufferPointer, key: String, pool: PixelBufferPool) {
        self.key = key
        self.pool = pool
        super.init(adopting: bytes)
    }

    override func release() -> Bool {
        pool?.recycle(bytes, key: key) ?? false
    }
}
