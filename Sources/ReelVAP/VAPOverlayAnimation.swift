import Foundation
import ReelCore
import ReelPlayer

/// A VAP animation drawn over a player's picture (`Player.overlays`, `reel play
/// --overlay`): rendered as `reel vap render` renders it (premultiplied, fused with its
/// content), scaled to where it is placed, a few frames ahead of the one shown, on a thread
/// of its own that ends with ``close()``. Frames a ``VAPOverlayCache`` holds are taken
/// from it, not decoded again. Its audio, when it has some, is the gift's sound.
public final class VAPOverlayAnimation: OverlayAnimation, @unchecked Sendable {
    public let width: Int
    public let height: Int
    public let framesPerSecond: Double
    public let frameCount: Int

    /// Frames made ahead, counting the one wanted first.
    static let ahead = 6

    private let condition = NSCondition()
    /// The frames wanted next and their size; nil until the display asks.
    private var wanted: (from: Int, width: Int, height: Int)?
    private var made: [Int: PixelBuffer] = [:]
    private var closed = false
    private var rendered = 0
    private let cache: VAPOverlayCache?
    private let cacheKey: String?
    private let path: String
    private let hasSound: Bool
    /// The sound decoded last, in its format.
    private var decodedSound: OverlaySound?
    private let soundDecoding = NSLock()

    /// Renders `path` (fused with `content`) for drawing over a picture, sharing the frames
    /// it makes with the other animations of `cache`.
    public init(path: String, content: VAPFusionContent = VAPFusionContent(), cache: VAPOverlayCache? = nil) throws {
        let renderer = try VAPRenderer(path: path, content: content)
        self.cache = cache
        self.path = path
        hasSound = renderer.decoder.file.audio != nil
        cacheKey = cache == nil ? nil : VAPOverlayCache.animationKey(path: path, content: content)
        width = renderer.layout.outputWidth
        height = renderer.layout.outputHeight
        frameCount = max(renderer.decoder.frameCount, 1)
        framesPerSecond = VAPFrameRate.choose(requested: nil, config: renderer.decoder.file.config?.info.framesPerSecond,
                                              samples: renderer.decoder.file.sampleFrameRate)
        let owned = RendererBox(renderer)
        let thread = Thread { [self] in run(owned.renderer) }
        thread.name = "reel.overlay"
        thread.start()
    }

    /// The animation `request` names: its file and fusion content.
    public convenience init(request: OverlayRequest, cache: VAPOverlayCache? = nil) throws {
        try self.init(path: request.path, content: VAPFusionContent(texts: request.texts, imageFiles: request.images), cache: cache)
    }

    /// How long `waiting` waits for a frame at most.
    static let frameWait = 2.0

    public func frame(_ index: Int, width: Int, height: Int, waiting: Bool) -> PixelBuffer? {
        condition.withLock {
            let deadline = Date(timeIntervalSinceNow: waiting ? Self.frameWait : 0)
            while waiting, !closed, wanted?.width == width, wanted?.height == height, made[index] == nil, Date() < deadline {
                _ = condition.wait(until: deadline)
            }
            return wanted?.width == width && wanted?.height == height ? made[index] : nil
        }
    }

    public func prefetch(from index: Int, width: Int, height: Int) {
        condition.withLock {
            if wanted?.width != width || wanted?.height != height { made.removeAll() }
            wanted = (index, width, height)
            let kept = Set((0..<Self.ahead).map { (index + $0) % frameCount })
            made = made.filter { kept.contains($0.key) }
            condition.broadcast()
        }
    }

    /// The file's audio, decoded whole in `format` the first time it is asked for in it.
    public func sound(in format: AudioDeviceFormat) -> OverlaySound? {
        guard hasSound else { return nil }
        // One decoding at a time: a start and a new sound card asking together decode once.
        return soundDecoding.withLock {
            if let decoded = condition.withLock({ decodedSound }), decoded.format == format { return decoded }
            // A file whose sound cannot be decoded plays silently, as its pictures fail alone.
            guard let track = try? VAPAudioTrack(path: path, format: format, tempo: 1) else { return nil }
            let sound = OverlaySound(format: format, samples: track.samples)
            condition.withLock { decodedSound = sound }
            return sound
        }
    }

    /// The frames it has decoded and rendered so far (those from the cache not counted).
    public var framesRendered: Int { condition.withLock { rendered } }

    public func close() {
        condition.withLock {
            closed = true
            condition.broadcast()
        }
    }

    /// Hands frame `index` of `width` × `height` to the display, if that size is still the one wanted.
    private func keep(_ picture: PixelBuffer, index: Int, width: Int, height: Int) {
        condition.withLock {
            if wanted?.width == width && wanted?.height == height { made[index] = picture }
            condition.broadcast()
        }
    }

    /// The first frame wanted and not made, with the size wanted; nil when every wanted one is made.
    private func nextWanted() -> (index: Int, width: Int, height: Int)? {
        guard let wanted else { return nil }
        return (0..<Self.ahead).lazy.map { (wanted.from + $0) % self.frameCount }.first { self.made[$0] == nil }
            .map { ($0, wanted.width, wanted.height) }
    }

    private func run(_ renderer: VAPRenderer) {
        var next = 0
        while true {
            condition.lock()
            while !closed && nextWanted() == nil { condition.wait() }
            guard !closed, let target = nextWanted() else {
                condition.unlock()
                return
            }
            condition.unlock()
            let key = cacheKey.map { VAPOverlayCache.Key(animation: $0, frame: target.index, width: target.width, height: target.height) }
            if let key, let cached = cache?.frame(for: key) {
                keep(cached, index: target.index, width: target.width, height: target.height)
                continue
            }
            do {
                if target.index != next { try renderer.seek(toFrame: target.index) }
                guard let (index, picture) = try renderer.nextFrame() else {
                    // Past the last frame: a loop starts again.
                    try renderer.seek(toFrame: 0)
                    next = 0
                    continue
                }
                next = index + 1
                let sized = picture.width == target.width && picture.height == target.height ? picture
                    : try RGBAResampler.fit(picture, width: target.width, height: target.height, cropToFill: false)
                if let cacheKey { cache?.keep(sized, for: VAPOverlayCache.Key(animation: cacheKey, frame: index, width: target.width, height: target.height)) }
                condition.withLock { rendered += 1 }
                keep(sized, index: index, width: target.width, height: target.height)
            } catch {
                // A file that fails mid-way stops adding frames; the last one shown stays.
                condition.withLock { closed = true }
                return
            }
        }
    }
}

/// The renderer, handed to the thread that alone uses it.
private final class RendererBox: @unchecked Sendable {
    let renderer: VAPRenderer
    init(_ renderer: VAPRenderer) { self.renderer = renderer }
}
