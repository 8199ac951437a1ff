/// Where talk-back audio comes from: 8 kHz mono 16-bit samples, read 20 ms at a time.
public protocol TalkSource: AnyObject, Sendable {
    /// Whether a read waits until its samples exist (a microphone): such a source paces the
    /// talk itself; one that has them all (a file) is paced by the sender's clock.
    var isLive: Bool { get }
    /// Up to `count` samples, fewer only at the end; nil once it has ended.
    func read(count: Int) throws -> [Int16]?
}

/// Samples the caller already has, a tone made in code for example; paced by the sender.
public final class SampleTalkSource: TalkSource, @unchecked Sendable {
    public let isLive = false
    private let samples: [Int16]
    private let lock = ConditionLock()
    private var position = 0

    /// A source that says `samples` (8 kHz mono) once.
    public init(_ samples: [Int16]) {
        self.samples = samples
    }

    public func read(count: Int) -> [Int16]? {
        lock.withLock {
            guard position < samples.count else { return nil }
            let end = min(position + max(count, 0), samples.count)
            defer { position = end }
            return Array(samples[position..<end])
        }
    }
}
