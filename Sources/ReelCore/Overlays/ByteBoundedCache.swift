/// A cache bounded by the bytes its values take, evicting the least recently used first
/// (`--overlay-cache 256M`: decoded gift frames, so that a popular gift is not decoded again).
/// Not thread-safe: its owner locks around it.
public struct ByteBoundedCache<Key: Hashable & Sendable, Value: Sendable>: Sendable {
    /// The most bytes the values may take together.
    public let capacity: Int
    /// The bytes the values take now.
    public private(set) var bytes = 0
    private var entries: [Key: (value: Value, bytes: Int, lastUse: UInt64)] = [:]
    private var clock: UInt64 = 0

    /// An empty cache of `capacity` bytes.
    public init(capacity: Int) {
        self.capacity = max(capacity, 0)
    }

    /// How many values it holds.
    public var count: Int { entries.count }

    /// The value for `key`, marked as just used.
    public mutating func value(for key: Key) -> Value? {
        guard let entry = entries[key] else { return nil }
        clock += 1
        entries[key] = (entry.value, entry.bytes, clock)
        return entry.value
    }

    /// Keeps `value`, which takes `cost` bytes, evicting the least recently used values
    /// until it fits; returns the keys evicted. A value larger than the whole cache is not
    /// kept (and evicts nothing).
    @discardableResult
    public mutating func insert(_ value: Value, cost: Int, for key: Key) -> [Key] {
        if let old = entries.removeValue(forKey: key) { bytes -= old.bytes }
        guard cost <= capacity else { return [] }
        var evicted: [Key] = []
        while bytes + cost > capacity, let oldest = entries.min(by: { $0.value.lastUse < $1.value.lastUse }) {
            entries.removeValue(forKey: oldest.key)
            bytes -= oldest.value.bytes
            evicted.append(oldest.key)
        }
        clock += 1
        entries[key] = (value, cost, clock)
        bytes += cost
        return evicted
    }

    /// Forgets the value for `key`.
    public mutating func remove(_ key: Key) {
        if let old = entries.removeValue(forKey: key) { bytes -= old.bytes }
    }
}
